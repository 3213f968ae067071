#include "services/engine/ledger/BalanceCreator.h"

#include "services/engine/ledger/BalanceLedger.h"
#include "services/engine/sql/KeyAllocator.h"
#include "services/engine/sql/Sql.h"

#include <QUuid>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;

namespace {

const QString Route = u"balances.create"_s;

struct Owner
{
    qint64 customerPk = 0;
    std::optional<qint64> entityPk;
    qint64 featurePk = 0;
};

// The customer (locked on PostgreSQL, as a track batch locks it), its
// entity and the feature the request names: 404 naming the one missing.
api::Result<Owner> ownerOf(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
                           const api::BalanceCreation &request)
{
    auto customer =
        queryRows(db,
                  u"SELECT pk FROM customers WHERE org_pk = ? AND env = ? AND id = ?"_s +
                      (dialect == Dialect::Postgres ? u" FOR UPDATE"_s : QString()),
                  {scope.orgPk, scope.envWord(), request.customerId});
    if (!customer)
        return customer.error();
    if (customer.value().isEmpty())
        return ApiError::notFound(
            api::ErrorCode::CustomerNotFound,
            u"customer_id: customer \"%1\" does not exist"_s.arg(request.customerId));
    Owner owner{customer.value().first().first().toLongLong(), std::nullopt, 0};
    auto feature =
        queryRows(db, u"SELECT pk, type FROM features WHERE org_pk = ? AND env = ? AND id = ?"_s,
                  {scope.orgPk, scope.envWord(), request.featureId});
    if (!feature)
        return feature.error();
    if (feature.value().isEmpty())
        return ApiError::notFound(
            api::ErrorCode::FeatureNotFound,
            u"feature_id: feature \"%1\" does not exist"_s.arg(request.featureId));
    if (feature.value().first().at(1).toString() == "boolean"_L1)
        return ApiError::invalidInputs(
            u"feature_id"_s, u"feature \"%1\" is a boolean feature: it has no amount to hold"_s.arg(
                                 request.featureId));
    owner.featurePk = feature.value().first().first().toLongLong();
    if (!request.entityId)
        return owner;
    auto entity = queryRows(db, u"SELECT pk FROM entities WHERE customer_pk = ? AND id = ?"_s,
                            {owner.customerPk, *request.entityId});
    if (!entity)
        return entity.error();
    if (entity.value().isEmpty())
        return ApiError::notFound(
            api::ErrorCode::EntityNotFound,
            u"entity_id: entity \"%1\" does not exist for customer \"%2\""_s.arg(
                *request.entityId, request.customerId));
    owner.entityPk = entity.value().first().first().toLongLong();
    return owner;
}

} // namespace

api::Result<api::LedgerEntry> BalanceCreator::create(const QSqlDatabase &db, Dialect dialect,
                                                     const Scope &scope,
                                                     const api::BalanceCreation &request,
                                                     qint64 nowMs)
{
    // Made already expired, it would hold nothing from its first moment.
    if (request.expiresAt && *request.expiresAt <= nowMs)
        return ApiError::invalidInputs(
            u"expires_at"_s,
            u"must be after now (%1 on the environment's clock): the balance would be made "
            "expired"_s.arg(nowMs));
    auto owner = ownerOf(db, dialect, scope, request);
    if (!owner)
        return owner.error();
    KeyAllocator keys(db, dialect);
    auto pk = keys.next(u"balances"_s);
    if (!pk)
        return pk.error();
    const QString balanceId = u"b_"_s + QUuid::createUuid().toString(QUuid::Id128);
    // The grant is prepaid: bought or given, not included by a plan. No
    // overage: when it is used up, usage goes to the customer's other rows.
    // Nothing falls due but its own expiry (the clock's rule for a
    // standalone row, clock/BalanceClock).
    if (auto inserted = execute(
            db,
            u"INSERT INTO balances (pk, id, org_pk, env, customer_pk, entity_pk, feature_pk,"
            " included_grant, prepaid_grant, remaining, usage, unlimited, overage_allowed,"
            " expires_at, created_at, due_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, '0', ?, ?, '0', 0, 0, ?, ?, ?)"_s,
            {pk.value(), balanceId, scope.orgPk, scope.envWord(), owner.value().customerPk,
             nullable(owner.value().entityPk), owner.value().featurePk, request.amount.toString(),
             request.amount.toString(), nullable(request.expiresAt), nowMs,
             nullable(request.expiresAt)});
        !inserted)
        return inserted.error();
    const BalanceLedger::Entry entry{scope,
                                     owner.value().customerPk,
                                     owner.value().featurePk,
                                     balanceId,
                                     u"grant"_s,
                                     request.amount,
                                     request.amount,
                                     api::Decimal(),
                                     std::nullopt,
                                     std::nullopt};
    return BalanceLedger::writeOne(db, dialect, Route, nowMs, entry, request.customerId,
                                   request.featureId);
}

} // namespace md::engine
