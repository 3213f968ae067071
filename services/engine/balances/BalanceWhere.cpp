#include "services/engine/balances/BalanceWhere.h"

#include "services/engine/sql/Sql.h"

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;

const QString BalanceWhere::ExpiredCondition =
    u"(CASE WHEN b.customer_product_pk IS NULL"
    " THEN (b.expires_at IS NOT NULL AND b.expires_at <= ?)"
    " ELSE (cp.status = 'expired' OR (cp.expires_at IS NOT NULL"
    " AND cp.expires_at <= ?)) END)"_s;

BalanceWhere BalanceWhere::of(const Scope &scope, const api::ListBalancesRequest &request,
                              qint64 nowMs, Dialect dialect, bool keptStates)
{
    BalanceWhere where;
    if (request.planId && *request.planId) {
        // The plan's customer products first, each one's balances by its key
        // (the plan names the organization). CROSS JOIN: SQLite keeps that
        // order as written; without statistics it would rather walk the
        // organization's balances (tst_queryplans). For PostgreSQL it is an
        // inner join like any other.
        where.sql = u"b.customer_product_pk = cp.pk"_s;
        where.from = u"customer_products cp CROSS JOIN balances b"_s;
        where.customerColumn = u"cp.customer_pk"_s;
        where.order = u"cp.customer_pk, b.pk"_s;
    } else {
        where.sql = u"b.org_pk = ? AND b.env = ?"_s;
        where.binds = {scope.orgPk, scope.envWord()};
        where.from =
            u"balances b LEFT JOIN customer_products cp ON cp.pk = b.customer_product_pk"_s;
        where.customerColumn = u"b.customer_pk"_s;
        where.order = u"b.customer_pk, b.pk"_s;
    }
    where.descending = request.descending;
    where.byCustomer = request.orderBy == api::BalanceOrder::Customer;
    switch (request.orderBy) {
    case api::BalanceOrder::Customer:
        where.sortKey = where.customerColumn;
        break;
    case api::BalanceOrder::Remaining:
        where.sortKey = u"CAST(b.remaining AS DOUBLE PRECISION)"_s;
        break;
    case api::BalanceOrder::Usage:
        where.sortKey = u"CAST(b.usage AS DOUBLE PRECISION)"_s;
        break;
    case api::BalanceOrder::NextReset: // never resetting: after every reset
        where.sortKey = u"CAST(COALESCE(b.resets_at, 9000000000000000000) AS DOUBLE PRECISION)"_s;
        break;
    }
    if (!where.byCustomer) {
        where.order =
            u"%1%2, b.pk%2"_s.arg(where.sortKey, request.descending ? u" DESC"_s : QString());
    } else if (request.descending) {
        where.order = where.customerColumn + u" DESC, b.pk DESC"_s;
    }
    // Filters name things by id; the ids resolve inside the one query. Only an
    // empty answer pays for telling "nothing matches" from "no such customer".
    // One filter by id: `column` is the row that `keySql` resolves to.
    const auto byId = [&where](const QString &column, const QString &keySql,
                               const QVariantList &key, ApiError notFound) {
        where.sql += u" AND "_s + column + u" = "_s + keySql;
        where.binds += key;
        where.m_checks.append({u"SELECT "_s + keySql, key, std::move(notFound)});
    };
    const QString customerKey =
        u"(SELECT pk FROM customers WHERE org_pk = ? AND env = ? AND id = ?)"_s;
    if (request.customerId)
        byId(u"b.customer_pk"_s, customerKey, {scope.orgPk, scope.envWord(), *request.customerId},
             ApiError::notFound(api::ErrorCode::CustomerNotFound,
                                u"customer \"%1\" does not exist"_s.arg(*request.customerId)));
    if (request.entityId)
        byId(u"b.entity_pk"_s,
             u"(SELECT pk FROM entities WHERE customer_pk = "_s + customerKey + u" AND id = ?)"_s,
             {scope.orgPk, scope.envWord(), request.customerId.value_or(QString()),
              *request.entityId},
             ApiError::notFound(api::ErrorCode::EntityNotFound,
                                u"entity \"%1\" does not exist for customer \"%2\""_s.arg(
                                    *request.entityId, request.customerId.value_or(QString()))));
    if (request.featureId)
        byId(u"b.feature_pk"_s,
             u"(SELECT pk FROM features WHERE org_pk = ? AND env = ? AND id = ?)"_s,
             {scope.orgPk, scope.envWord(), *request.featureId},
             ApiError::notFound(api::ErrorCode::FeatureNotFound,
                                u"feature \"%1\" does not exist"_s.arg(*request.featureId)));
    if (request.planId) {
        if (!*request.planId) {
            where.sql += u" AND b.customer_product_pk IS NULL"_s;
        } else {
            const QString planId = **request.planId;
            const QVariantList key{scope.orgPk, scope.envWord(), planId};
            // Every version: a plan's versions are one plan (docs/api.md),
            // each customer product keeping the plan's key (migration 15).
            const QString planKey = u"SELECT pk FROM products WHERE org_pk = ? AND env = ?"
                                    " AND id = ? ORDER BY version LIMIT 1"_s;
            where.sql += u" AND cp.plan_pk = ("_s + planKey + u')';
            where.binds += key;
            where.m_checks.append(
                {planKey, key,
                 ApiError::notFound(api::ErrorCode::ProductNotFound,
                                    u"plan \"%1\" does not exist"_s.arg(planId))});
        }
    }
    if (request.resetsBefore) {
        where.sql += u" AND b.resets_at < ?"_s; // NULL (never resets) is not less
        where.binds << *request.resetsBefore;
    }
    if (request.filtersAmounts())
        where.sql += u" AND b.unlimited = 0"_s;
    const bool exact = dialect == Dialect::Postgres;
    if (request.remainingBelow) {
        where.sql += exact ? u" AND b.remaining::numeric < ?::numeric"_s
                           : u" AND CAST(b.remaining AS REAL) <= ?"_s;
        where.binds << (exact ? QVariant(request.remainingBelow->toString())
                              : QVariant(request.remainingBelow->toString().toDouble()));
    }
    if (request.remainingBelowPercent) {
        // Doubles round by a few parts in 10^16: the margin keeps every row
        // that passes exactly.
        where.sql +=
            exact ? u" AND b.remaining::numeric * 100 < ? * (b.included_grant::numeric"
                    " + b.prepaid_grant::numeric)"_s
                  : u" AND CAST(b.remaining AS REAL) * 100 <= ? * (CAST(b.included_grant AS REAL)"
                    " + CAST(b.prepaid_grant AS REAL)) * (1 + 1e-12) + 1e-6"_s;
        where.binds << *request.remainingBelowPercent;
    }
    const bool wantActive = request.includes(api::BalanceStatus::Active);
    const bool wantExpired = request.includes(api::BalanceStatus::Expired);
    if (wantActive != wantExpired && keptStates) {
        where.sql += u" AND b.expired = ?"_s;
        where.binds << int(wantExpired);
    } else if (wantActive != wantExpired) {
        where.sql +=
            wantExpired ? u" AND "_s + ExpiredCondition : u" AND NOT "_s + ExpiredCondition;
        where.binds << nowMs << nowMs;
    }
    return where;
}

api::Result<api::Done> BalanceWhere::checkNamedIds(const QSqlDatabase &db) const
{
    for (const Check &check : m_checks) {
        auto found = runSql(db, check.sql, check.binds);
        if (!found)
            return found.error();
        if (!found.value().next() || found.value().value(0).isNull())
            return check.notFound;
    }
    return api::Done{};
}

} // namespace md::engine
