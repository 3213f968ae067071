#include "services/engine/BalanceLister.h"

#include "services/api/WireCodec.h"
#include "services/engine/BalanceCursor.h"
#include "services/engine/Sql.h"

#include <QJsonDocument>

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

api::Result<qint64> lookupKey(const QSqlDatabase &db, const QString &sql, const QVariantList &binds,
                              const ApiError &notFound)
{
    auto query = runSql(db, sql, binds);
    if (!query)
        return query.error();
    if (!query.value().next())
        return notFound;
    return query.value().value(0).toLongLong();
}

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

} // namespace

api::Result<api::ListBalancesResponse> BalanceLister::list(const QSqlDatabase &db,
                                                           const Scope &scope,
                                                           const api::ListBalancesRequest &request,
                                                           qint64 nowMs)
{
    QString where = u"b.org_pk = ? AND b.env = ?"_s;
    QVariantList binds{scope.orgPk, scope.envWord()};

    std::optional<qint64> customerPk;
    if (request.customerId) {
        auto key = lookupKey(
            db, u"SELECT pk FROM customers WHERE org_pk = ? AND env = ? AND id = ?"_s,
            {scope.orgPk, scope.envWord(), *request.customerId},
            ApiError::notFound(u"customer_not_found"_s,
                               u"customer \"%1\" does not exist"_s.arg(*request.customerId)));
        if (!key)
            return key.error();
        customerPk = key.value();
        where += u" AND b.customer_pk = ?"_s;
        binds.append(*customerPk);
    }
    if (request.entityId) {
        auto key = lookupKey(
            db, u"SELECT pk FROM entities WHERE customer_pk = ? AND id = ?"_s,
            {customerPk.value_or(0), *request.entityId},
            ApiError::notFound(u"entity_not_found"_s,
                               u"entity \"%1\" does not exist for customer \"%2\""_s.arg(
                                   *request.entityId, request.customerId.value_or(QString()))));
        if (!key)
            return key.error();
        where += u" AND b.entity_pk = ?"_s;
        binds.append(key.value());
    }
    if (request.featureId) {
        auto key = lookupKey(
            db, u"SELECT pk FROM features WHERE org_pk = ? AND env = ? AND id = ?"_s,
            {scope.orgPk, scope.envWord(), *request.featureId},
            ApiError::notFound(u"feature_not_found"_s,
                               u"feature \"%1\" does not exist"_s.arg(*request.featureId)));
        if (!key)
            return key.error();
        where += u" AND b.feature_pk = ?"_s;
        binds.append(key.value());
    }
    if (request.planId) {
        if (!*request.planId) {
            where += u" AND b.customer_product_pk IS NULL"_s;
        } else {
            const QString planId = **request.planId;
            auto key =
                lookupKey(db, u"SELECT pk FROM products WHERE org_pk = ? AND env = ? AND id = ?"_s,
                          {scope.orgPk, scope.envWord(), planId},
                          ApiError::notFound(u"product_not_found"_s,
                                             u"plan \"%1\" does not exist"_s.arg(planId)));
            if (!key)
                return key.error();
            where +=
                u" AND cp.product_pk IN (SELECT pk FROM products WHERE org_pk = ? AND env = ? AND id = ?)"_s;
            binds << scope.orgPk << scope.envWord() << planId;
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
    // rows; the outer one only decorates those rows with their ids.
    const QString sql =
        u"SELECT b.pk, b.customer_pk, b.id, c.id, e.id, f.id, p.id, b.included_grant,"
        " b.prepaid_grant, b.remaining, b.usage, b.unlimited, b.reset_interval,"
        " b.reset_interval_count, b.resets_at, b.price, b.expires_at, b.created_at, b.expired"
        " FROM (SELECT b.*, cp.product_pk AS product_pk, "_s +
        ExpiredCondition +
        u" AS expired FROM balances b"
        " LEFT JOIN customer_products cp ON cp.pk = b.customer_product_pk"
        " WHERE "_s +
        where +
        u" ORDER BY b.customer_pk, b.pk LIMIT ?) b"
        " JOIN customers c ON c.pk = b.customer_pk"
        " JOIN features f ON f.pk = b.feature_pk"
        " LEFT JOIN entities e ON e.pk = b.entity_pk"
        " LEFT JOIN products p ON p.pk = b.product_pk"
        " ORDER BY b.customer_pk, b.pk"_s;
    QVariantList allBinds{nowMs, nowMs};
    allBinds.append(binds);
    allBinds.append(request.limit + 1);
    auto query = runSql(db, sql, allBinds);
    if (!query)
        return query.error();

    api::ListBalancesResponse response;
    QList<qint64> keys;
    BalanceCursor last;
    QSqlQuery &q = query.value();
    while (q.next()) {
        if (response.list.size() == request.limit) {
            response.hasMore = true;
            break;
        }
        api::BalanceRow row;
        last = {q.value(1).toLongLong(), q.value(0).toLongLong()};
        keys.append(last.balancePk);
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
            auto price = api::decode<api::Price>(
                QJsonDocument::fromJson(q.value(15).toByteArray()).object());
            if (!price)
                return ApiError::internal(u"stored price of balance %1 is damaged: %2"_s.arg(
                    row.id, price.error().message));
            row.price = price.value();
        }
        row.expiresAt = nullableInteger(q.value(16));
        row.createdAt = q.value(17).toLongLong();
        row.status = q.value(18).toInt() ? api::BalanceStatus::Expired : api::BalanceStatus::Active;
        response.list.append(std::move(row));
    }
    if (response.hasMore)
        response.nextCursor = last.encode();
    if (keys.isEmpty())
        return response;

    // Rollovers of the page's rows, in one query.
    const QString marks = QStringList(keys.size(), u"?"_s).join(u',');
    QVariantList rolloverBinds;
    for (qint64 key : std::as_const(keys))
        rolloverBinds.append(key);
    auto rollovers =
        runSql(db,
               u"SELECT balance_pk, granted, balance, expires_at FROM rollovers"
               " WHERE balance_pk IN (%1) ORDER BY balance_pk, expires_at, pk"_s.arg(marks),
               rolloverBinds);
    if (!rollovers)
        return rollovers.error();
    QHash<qint64, qsizetype> rowOf;
    for (qsizetype i = 0; i < keys.size(); ++i)
        rowOf.insert(keys.at(i), i);
    while (rollovers.value().next()) {
        const QSqlQuery &r = rollovers.value();
        response.list[rowOf.value(r.value(0).toLongLong())].rollovers.append(
            {amount(r.value(1)), amount(r.value(2)), r.value(3).toLongLong()});
    }
    return response;
}

} // namespace md::engine
