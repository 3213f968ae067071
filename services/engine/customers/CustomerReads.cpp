#include "services/engine/customers/CustomerReads.h"

#include "services/api/WireCodec.h"
#include "services/engine/balances/BalanceLister.h"
#include "services/engine/controls/BillingControlStore.h"
#include "services/engine/ids/KeysetPage.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/sql/StoredJson.h"

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;
using api::Decimal;

namespace {

// Metadata, tokens and properties: objects the engine itself stored.
api::JsonValue storedObject(const QVariant &value)
{
    const auto json = storedJson(value);
    return json && json.value().isObject() ? json.value() : api::JsonValue::object();
}

QMap<QString, qint64> storedTokens(const QVariant &value)
{
    return api::UsageEvent::readTokens(api::JsonReader(storedObject(value)));
}

// The customers of `scope` as a SELECT of pk, id, name, email and
// created_at whose key column is `key`, searched when `search` is not empty
// (migration 9): a substring of the id, name or email, case folded, found
// through the database's trigram index. Fewer than three characters hold no
// trigram: those compare each row in key order until a page is found.
QString customersFrom(const QSqlDatabase &db, const Scope &scope, const QString &search,
                      QVariantList &binds, QString &key)
{
    const QString text = search.toLower();
    const QString columns = u"SELECT c.pk, c.id, c.name, c.email, c.created_at"_s;
    if (text.size() >= 3 && db.driverName() != "QPSQL"_L1) {
        // One FTS5 phrase, its trigrams in a row: the substring. The index
        // hands out keys in order, so a page stops after its last match.
        QString phrase = text;
        phrase.replace(u'"', u"\"\""_s);
        binds << QString(u'"' + phrase + u'"') << scope.orgPk << scope.envWord();
        key = u"s.rowid"_s;
        return columns + u" FROM customers_search s JOIN customers c ON c.pk = s.rowid"
                         " WHERE customers_search MATCH ? AND c.org_pk = ? AND c.env = ?"_s;
    }
    key = u"c.pk"_s;
    binds << scope.orgPk << scope.envWord();
    QString sql = columns + u" FROM customers c WHERE c.org_pk = ? AND c.env = ?"_s;
    if (text.isEmpty())
        return sql;
    // The search is text, not a pattern: its % and _ match themselves.
    QString escaped = text;
    escaped.replace(u'\\', u"\\\\"_s).replace(u'%', u"\\%"_s).replace(u'_', u"\\_"_s);
    const QString pattern = u'%' + escaped + u'%';
    binds << pattern << pattern << pattern;
    return sql + u" AND (LOWER(c.id) LIKE ? ESCAPE '\\' OR LOWER(c.name) LIKE ? ESCAPE '\\' OR"
                 " LOWER(c.email) LIKE ? ESCAPE '\\')"_s;
}

} // namespace

api::Result<api::Page<api::CustomerSummary>>
CustomerReads::customers(const QSqlDatabase &db, const Scope &scope,
                         const api::PageRequest &request)
{
    auto after = decodeCursor(db, scope, "c1", request.startCursor, 1);
    if (!after)
        return after.error();
    QVariantList binds;
    QString key;
    QString sql = customersFrom(db, scope, request.search.value_or(QString()), binds, key);
    if (after.value()) {
        sql += u" AND %1 > ?"_s.arg(key);
        binds << after.value()->first();
    }
    sql += u" ORDER BY %1 LIMIT ?"_s.arg(key);
    binds << request.limit + 1;
    auto query = runSql(db, sql, binds);
    if (!query)
        return query.error();
    return page<api::CustomerSummary>(
        db, scope, query.value(), request.limit, "c1", 1, [](const QSqlQuery &q) {
            return api::CustomerSummary{q.value(1).toString(), q.value(2).toString(),
                                        q.value(3).toString(), q.value(4).toLongLong()};
        });
}

api::Result<api::Customer> CustomerReads::customer(const QSqlDatabase &db, const Scope &scope,
                                                   const QString &id, qint64 nowMs)
{
    auto row = runSql(db,
                      u"SELECT pk, id, name, email, fingerprint, metadata, send_email_receipts,"
                      " disable_pooled_balance, disable_overage_billing, created_at FROM customers"
                      " WHERE org_pk = ? AND env = ? AND id = ?"_s,
                      {scope.orgPk, scope.envWord(), id});
    if (!row)
        return row.error();
    QSqlQuery &q = row.value();
    if (!q.next())
        return ApiError::notFound(api::ErrorCode::CustomerNotFound,
                                  u"customer \"%1\" does not exist"_s.arg(id));
    const qint64 pk = q.value(0).toLongLong();
    api::Customer customer;
    customer.id = q.value(1).toString();
    customer.name = q.value(2).toString();
    customer.email = q.value(3).toString();
    customer.fingerprint = optionalText(q.value(4));
    customer.metadata = storedObject(q.value(5));
    customer.sendEmailReceipts = q.value(6).toInt() != 0;
    customer.config = {q.value(7).toInt() != 0, q.value(8).toInt() != 0};
    customer.createdAt = q.value(9).toLongLong();
    customer.env = scope.env;

    auto processors = runSql(
        db, u"SELECT type, external_id FROM customer_processors WHERE customer_pk = ?"_s, {pk});
    if (!processors)
        return processors.error();
    while (processors.value().next())
        customer.processors.insert(processors.value().value(0).toString(),
                                   processors.value().value(1).toString());
    if (customer.processors.contains(u"stripe"_s))
        customer.stripeId = customer.processors.value(u"stripe"_s);
    auto controls = BillingControlStore::stored(db, pk, std::nullopt);
    if (!controls)
        return controls.error();
    auto withUsage = BillingControlStore::withUsage(
        db, pk, std::nullopt, scope, controls.value().value_or(api::BillingControls()), nowMs);
    if (!withUsage)
        return withUsage.error();
    customer.billingControls = withUsage.value();

    auto subscriptions =
        runSql(db,
               u"SELECT p.id, p.is_add_on, cp.status, cp.canceled_at, cp.expires_at,"
               " cp.trial_ends_at, cp.started_at, cp.current_period_start,"
               " cp.current_period_end, cp.quantity FROM customer_products cp"
               " JOIN products p ON p.pk = cp.product_pk WHERE cp.customer_pk = ? ORDER BY cp.pk"_s,
               {pk});
    if (!subscriptions)
        return subscriptions.error();
    while (subscriptions.value().next()) {
        const QSqlQuery &s = subscriptions.value();
        api::Subscription subscription;
        subscription.planId = s.value(0).toString();
        subscription.addOn = s.value(1).toInt() != 0;
        const QString status = s.value(2).toString();
        subscription.status = api::readPlanStatus(api::JsonReader(api::JsonValue::string(status)));
        subscription.pastDue = status == "past_due"_L1;
        subscription.canceledAt = optionalInteger(s.value(3));
        subscription.expiresAt = optionalInteger(s.value(4));
        subscription.trialEndsAt = optionalInteger(s.value(5));
        subscription.startedAt = s.value(6).toLongLong();
        subscription.currentPeriodStart =
            s.value(7).isNull() ? subscription.startedAt : s.value(7).toLongLong();
        subscription.currentPeriodEnd = std::max(subscription.currentPeriodStart,
                                                 s.value(8).isNull() ? 0 : s.value(8).toLongLong());
        subscription.quantity = Decimal::fromInteger(s.value(9).toLongLong());
        customer.subscriptions.append(subscription);
    }

    // Active balances, summed per feature; boolean features become flags.
    auto booleans =
        runSql(db, u"SELECT id FROM features WHERE org_pk = ? AND env = ? AND type = 'boolean'"_s,
               {scope.orgPk, scope.envWord()});
    if (!booleans)
        return booleans.error();
    QSet<QString> flagFeatures;
    while (booleans.value().next())
        flagFeatures.insert(booleans.value().value(0).toString());
    api::ListBalancesRequest request;
    request.customerId = id;
    request.limit = api::ListBalancesRequest::MaxLimit;
    for (;;) {
        auto balances = BalanceLister::list(db, scope, request, nowMs);
        if (!balances)
            return balances.error();
        for (const api::BalanceRow &balance : balances.value().list) {
            if (flagFeatures.contains(balance.featureId)) {
                customer.flags.insert(balance.featureId, {balance.id, balance.planId,
                                                          balance.expiresAt, balance.featureId});
                continue;
            }
            api::BalanceSummary &summary = customer.balances[balance.featureId];
            summary.featureId = balance.featureId;
            if (!summary.add(balance))
                return ApiError::internal(
                    u"the balances of %1 exceed the supported range"_s.arg(balance.featureId));
        }
        if (!balances.value().hasMore)
            break;
        request.startCursor = *balances.value().nextCursor;
    }
    // The customer's controls decide overage where they say (docs/billing-controls.md).
    for (api::BalanceSummary &summary : customer.balances)
        if (const auto allowed = customer.billingControls.overageAllowedFor(summary.featureId))
            summary.overageAllowed = *allowed;
    return customer;
}

api::Result<api::Page<api::UsageEvent>> CustomerReads::usageEvents(const QSqlDatabase &db,
                                                                   const Scope &scope,
                                                                   const api::PageRequest &request)
{
    // Newest first by the event's own time; the cursor carries (timestamp, pk).
    auto before = decodeCursor(db, scope, "u2", request.startCursor, 2);
    if (!before)
        return before.error();
    QString sql =
        u"SELECT x.timestamp, x.pk, c.id, f.id, e.id, x.model_id, x.tokens, x.value, x.properties"
        " FROM usage_events x JOIN customers c ON c.pk = x.customer_pk"
        " JOIN features f ON f.pk = x.feature_pk LEFT JOIN entities e ON e.pk = x.entity_pk"
        " WHERE x.org_pk = ? AND x.env = ?"_s;
    QVariantList binds{scope.orgPk, scope.envWord()};
    if (request.customerId) {
        // The customer's key, compared inside the time index (migration 7).
        sql += u" AND x.customer_pk = (SELECT pk FROM customers"
               " WHERE org_pk = ? AND env = ? AND id = ?)"_s;
        binds << scope.orgPk << scope.envWord() << *request.customerId;
    }
    for (const auto &[clause, value] :
         {std::pair{u" AND f.id = ?"_s,
                    request.featureId ? QVariant(*request.featureId) : QVariant()},
          std::pair{u" AND x.model_id = ?"_s,
                    request.modelId ? QVariant(*request.modelId) : QVariant()},
          std::pair{u" AND x.timestamp >= ?"_s,
                    request.from ? QVariant(*request.from) : QVariant()},
          std::pair{u" AND x.timestamp < ?"_s, request.to ? QVariant(*request.to) : QVariant()}}) {
        if (value.isValid()) {
            sql += clause;
            binds << value;
        }
    }
    if (before.value()) {
        sql += u" AND (x.timestamp < ? OR (x.timestamp = ? AND x.pk < ?))"_s;
        binds << before.value()->at(0) << before.value()->at(0) << before.value()->at(1);
    }
    sql += u" ORDER BY x.timestamp DESC, x.pk DESC LIMIT ?"_s;
    binds << request.limit + 1;
    auto query = runSql(db, sql, binds);
    if (!query)
        return query.error();
    return page<api::UsageEvent>(
        db, scope, query.value(), request.limit, "u2", 2, [](const QSqlQuery &q) {
            return api::UsageEvent{
                q.value(2).toString(),    q.value(3).toString(),
                optionalText(q.value(4)), optionalText(q.value(5)),
                storedTokens(q.value(6)), Decimal::parse(q.value(7).toString()).value_or(Decimal()),
                storedObject(q.value(8)), q.value(0).toLongLong()};
        });
}

} // namespace md::engine
