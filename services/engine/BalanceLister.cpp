#include "services/engine/BalanceLister.h"

#include "services/api/WireCodec.h"
#include "services/engine/BalanceCursor.h"
#include "services/engine/PostgresArray.h"
#include "services/engine/Sql.h"
#include "services/engine/StoredJson.h"

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;
using api::Decimal;

namespace {

// Status is computed from the clock (§3): a plan row is expired with its
// customer product, a standalone row when its own expires_at has passed.
const QString ExpiredCondition = u"(CASE WHEN b.customer_product_pk IS NULL"
                                 " THEN (b.expires_at IS NOT NULL AND b.expires_at <= ?)"
                                 " ELSE (cp.status = 'expired' OR (cp.expires_at IS NOT NULL"
                                 " AND cp.expires_at <= ?)) END)"_s;

Decimal amount(const QVariant &value)
{
    return Decimal::parse(value.toString()).value_or(Decimal());
}

std::optional<qint64> nullableInteger(const QVariant &value)
{
    return value.isNull() ? std::nullopt : std::optional(value.toLongLong());
}

std::optional<QString> nullableText(const QVariant &value)
{
    return value.isNull() ? std::nullopt : std::optional(value.toString());
}

// The columns readRow() reads: a balance joined with its ids, status and
// one of its rollovers (further rows of the same balance carry the others).
const QString RowColumns =
    u"SELECT b.pk, b.customer_pk, b.id,"
    " (SELECT id FROM customers WHERE pk = b.customer_pk),"
    " (SELECT id FROM entities WHERE pk = b.entity_pk),"
    " (SELECT id FROM features WHERE pk = b.feature_pk),"
    " (SELECT id FROM products WHERE pk = b.product_pk),"
    " b.included_grant, b.prepaid_grant, b.remaining, b.usage, b.unlimited, b.reset_interval,"
    " b.reset_interval_count, b.resets_at, b.price, b.expires_at, b.created_at, b.expired,"
    " r.granted, r.balance, r.expires_at, b.entity_pk, b.feature_pk"_s;

api::Rollover rolloverAt(const QSqlQuery &q)
{
    return {amount(q.value(19)), amount(q.value(20)), q.value(21).toLongLong()};
}

api::Result<api::BalanceRow> readRow(const QSqlQuery &q)
{
    api::BalanceRow row;
    row.id = q.value(2).toString();
    row.customerId = q.value(3).toString();
    row.entityId = nullableText(q.value(4));
    row.featureId = q.value(5).toString();
    row.planId = nullableText(q.value(6));
    row.includedGrant = amount(q.value(7));
    row.prepaidGrant = amount(q.value(8));
    row.remaining = amount(q.value(9));
    row.usage = amount(q.value(10));
    row.unlimited = q.value(11).toInt() != 0;
    if (!q.value(12).isNull()) {
        api::Reset reset;
        reset.interval = api::resetIntervalFromWire(q.value(12).toString())
                             .value_or(api::ResetInterval::Multiple);
        reset.intervalCount = nullableInteger(q.value(13));
        reset.resetsAt = nullableInteger(q.value(14));
        row.reset = reset;
    }
    if (!q.value(15).isNull()) {
        auto price = decodeStored<api::Price>(q.value(15), u"price of balance %1"_s.arg(row.id));
        if (!price)
            return price.error();
        row.price = price.value();
    }
    row.expiresAt = nullableInteger(q.value(16));
    row.createdAt = q.value(17).toLongLong();
    row.status = q.value(18).toInt() ? api::BalanceStatus::Expired : api::BalanceStatus::Active;
    if (!q.value(21).isNull())
        row.rollovers.append(rolloverAt(q));
    return row;
}

} // namespace

api::Result<QList<BalanceLister::Owned>> BalanceLister::activeRows(const QSqlDatabase &db,
                                                                   const Scope &scope,
                                                                   const QList<qint64> &customerPks,
                                                                   const QList<qint64> &featurePks,
                                                                   qint64 nowMs)
{
    QList<Owned> rows;
    if (customerPks.isEmpty() || featurePks.isEmpty())
        return rows;
    const QString sql =
        RowColumns +
        u" FROM (SELECT b.*, cp.product_pk AS product_pk, 0 AS expired FROM balances b"
        " LEFT JOIN customer_products cp ON cp.pk = b.customer_product_pk"
        " WHERE b.org_pk = ? AND b.env = ? AND b.customer_pk = ANY(?::bigint[])"
        " AND b.feature_pk = ANY(?::bigint[]) AND NOT "_s +
        ExpiredCondition +
        u") b LEFT JOIN rollovers r ON r.balance_pk = b.pk"
        " ORDER BY b.customer_pk, b.pk, r.expires_at, r.pk"_s;
    auto query = runPrepared(db, sql,
                             {scope.orgPk, scope.envWord(), PostgresArray::of(customerPks),
                              PostgresArray::of(featurePks), nowMs, nowMs});
    if (!query)
        return query.error();
    QSqlQuery &q = *query.value();
    qint64 lastPk = 0;
    while (q.next()) {
        const qint64 balancePk = q.value(0).toLongLong();
        if (!rows.isEmpty() && balancePk == lastPk) {
            rows.last().row.rollovers.append(rolloverAt(q));
            continue;
        }
        lastPk = balancePk;
        auto row = readRow(q);
        if (!row)
            return row.error();
        rows.append({q.value(1).toLongLong(), nullableInteger(q.value(22)),
                     q.value(23).toLongLong(), std::move(row.value())});
    }
    q.finish();
    return rows;
}

api::Result<api::ListBalancesResponse> BalanceLister::list(const QSqlDatabase &db,
                                                           const Scope &scope,
                                                           const api::ListBalancesRequest &request,
                                                           qint64 nowMs)
{
    QString where = u"b.org_pk = ? AND b.env = ?"_s;
    QVariantList binds{scope.orgPk, scope.envWord()};
    // Filters name things by id; the ids resolve inside the one query. Only an
    // empty page pays for telling "nothing matches" from "no such customer".
    struct Check
    {
        QString sql;
        QVariantList binds;
        ApiError notFound;
    };
    QList<Check> checks;
    const QString customerKey =
        u"(SELECT pk FROM customers WHERE org_pk = ? AND env = ? AND id = ?)"_s;
    if (request.customerId) {
        const QVariantList key{scope.orgPk, scope.envWord(), *request.customerId};
        where += u" AND b.customer_pk = "_s + customerKey;
        binds += key;
        checks.append(
            {u"SELECT "_s + customerKey, key,
             ApiError::notFound(u"customer_not_found"_s,
                                u"customer \"%1\" does not exist"_s.arg(*request.customerId))});
    }
    if (request.entityId) {
        const QString entityKey =
            u"(SELECT pk FROM entities WHERE customer_pk = "_s + customerKey + u" AND id = ?)"_s;
        const QVariantList key{scope.orgPk, scope.envWord(), request.customerId.value_or(QString()),
                               *request.entityId};
        where += u" AND b.entity_pk = "_s + entityKey;
        binds += key;
        checks.append(
            {u"SELECT "_s + entityKey, key,
             ApiError::notFound(u"entity_not_found"_s,
                                u"entity \"%1\" does not exist for customer \"%2\""_s.arg(
                                    *request.entityId, request.customerId.value_or(QString())))});
    }
    if (request.featureId) {
        const QString featureKey =
            u"(SELECT pk FROM features WHERE org_pk = ? AND env = ? AND id = ?)"_s;
        const QVariantList key{scope.orgPk, scope.envWord(), *request.featureId};
        where += u" AND b.feature_pk = "_s + featureKey;
        binds += key;
        checks.append(
            {u"SELECT "_s + featureKey, key,
             ApiError::notFound(u"feature_not_found"_s,
                                u"feature \"%1\" does not exist"_s.arg(*request.featureId))});
    }
    if (request.planId) {
        if (!*request.planId) {
            where += u" AND b.customer_product_pk IS NULL"_s;
        } else {
            const QString planId = **request.planId;
            const QVariantList key{scope.orgPk, scope.envWord(), planId};
            const QString planKeys =
                u"SELECT pk FROM products WHERE org_pk = ? AND env = ? AND id = ?"_s;
            where += u" AND cp.product_pk IN ("_s + planKeys + u')';
            binds += key;
            checks.append({planKeys, key,
                           ApiError::notFound(u"product_not_found"_s,
                                              u"plan \"%1\" does not exist"_s.arg(planId))});
        }
    }
    const bool wantActive = request.includes(api::BalanceStatus::Active);
    const bool wantExpired = request.includes(api::BalanceStatus::Expired);
    if (wantActive != wantExpired) {
        where += wantExpired ? u" AND "_s + ExpiredCondition : u" AND NOT "_s + ExpiredCondition;
        binds << nowMs << nowMs;
    }
    if (!request.startCursor.isEmpty()) {
        const auto cursor = BalanceCursor::decode(request.startCursor);
        if (!cursor)
            return ApiError::invalidCursor(
                u"start_cursor is not a cursor this server issued; pass the next_cursor of a previous page or an empty string"_s);
        where += u" AND (b.customer_pk, b.pk) > (?, ?)"_s;
        binds << cursor->customerPk << cursor->balancePk;
    }

    // The inner query walks one index in key order and stops after limit+1
    // rows; the outer one adds ids by key (one index probe each, whatever the
    // planner thinks of the tables' sizes) and the rollovers, one row each.
    const QString sql = RowColumns + u" FROM (SELECT b.*, cp.product_pk AS product_pk, "_s +
                        ExpiredCondition +
                        u" AS expired FROM balances b"
                        " LEFT JOIN customer_products cp ON cp.pk = b.customer_product_pk"
                        " WHERE "_s +
                        where +
                        u" ORDER BY b.customer_pk, b.pk LIMIT ?) b"
                        " LEFT JOIN rollovers r ON r.balance_pk = b.pk"
                        " ORDER BY b.customer_pk, b.pk, r.expires_at, r.pk"_s;
    QVariantList allBinds{nowMs, nowMs};
    allBinds.append(binds);
    allBinds.append(request.limit + 1);
    auto query = runPrepared(db, sql, allBinds);
    if (!query)
        return query.error();

    api::ListBalancesResponse response;
    QHash<QString, api::Price> prices;
    BalanceCursor last;
    QSqlQuery &q = *query.value();
    while (q.next()) {
        const qint64 balancePk = q.value(0).toLongLong();
        // Further rows of the same balance only carry another rollover.
        if (!response.list.isEmpty() && balancePk == last.balancePk) {
            response.list.last().rollovers.append(rolloverAt(q));
            continue;
        }
        if (response.list.size() == request.limit) {
            response.hasMore = true;
            break;
        }
        last = {q.value(1).toLongLong(), balancePk};
        auto row = readRow(q);
        if (!row)
            return row.error();
        response.list.append(std::move(row.value()));
    }
    q.finish();
    if (response.hasMore)
        response.nextCursor = last.encode();
    if (response.list.isEmpty()) {
        for (const Check &check : std::as_const(checks)) {
            auto found = runSql(db, check.sql, check.binds);
            if (!found)
                return found.error();
            if (!found.value().next() || found.value().value(0).isNull())
                return check.notFound;
        }
    }
    return response;
}

} // namespace md::engine
