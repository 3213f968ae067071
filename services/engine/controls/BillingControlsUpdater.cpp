#include "services/engine/controls/BillingControlsUpdater.h"

#include "services/engine/controls/BillingControlStore.h"
#include "services/engine/sql/Sql.h"

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;

namespace {

struct Owner
{
    qint64 customerPk = 0;
    std::optional<qint64> entityPk;
};

api::Result<Owner> ownerOf(const QSqlDatabase &db, const Scope &scope, const QString &customerId,
                           const std::optional<QString> &entityId)
{
    auto customer =
        queryRows(db, u"SELECT pk FROM customers WHERE org_pk = ? AND env = ? AND id = ?"_s,
                  {scope.orgPk, scope.envWord(), customerId});
    if (!customer)
        return customer.error();
    if (customer.value().isEmpty())
        return ApiError::notFound(api::ErrorCode::CustomerNotFound,
                                  u"customer \"%1\" does not exist"_s.arg(customerId));
    Owner owner{customer.value().first().first().toLongLong(), std::nullopt};
    if (!entityId)
        return owner;
    auto entity = queryRows(db, u"SELECT pk FROM entities WHERE customer_pk = ? AND id = ?"_s,
                            {owner.customerPk, *entityId});
    if (!entity)
        return entity.error();
    if (entity.value().isEmpty())
        return ApiError::notFound(
            api::ErrorCode::EntityNotFound,
            u"entity \"%1\" does not exist for customer \"%2\""_s.arg(*entityId, customerId));
    owner.entityPk = entity.value().first().first().toLongLong();
    return owner;
}

// Every feature a control names exists in the scope: 404 naming the entry otherwise.
api::Result<api::Done> checkFeatures(const QSqlDatabase &db, const Scope &scope,
                                     const api::BillingControls &controls)
{
    for (const auto &[path, id] : controls.namedFeatures()) {
        auto found =
            queryRows(db, u"SELECT 1 FROM features WHERE org_pk = ? AND env = ? AND id = ?"_s,
                      {scope.orgPk, scope.envWord(), id});
        if (!found)
            return found.error();
        if (found.value().isEmpty())
            return ApiError::notFound(
                api::ErrorCode::FeatureNotFound,
                u"billing_controls.%1.featureId: feature \"%2\" does not exist"_s.arg(path, id));
    }
    return api::Done{};
}

} // namespace

api::Result<api::BillingControlsAnswer>
BillingControlsUpdater::read(const QSqlDatabase &db, const Scope &scope, const QString &customerId,
                             const std::optional<QString> &entityId, qint64 nowMs)
{
    auto owner = ownerOf(db, scope, customerId, entityId);
    if (!owner)
        return owner.error();
    auto stored = BillingControlStore::stored(db, owner.value().customerPk, owner.value().entityPk);
    if (!stored)
        return stored.error();
    auto controls =
        BillingControlStore::withUsage(db, owner.value().customerPk, owner.value().entityPk, scope,
                                       stored.value().value_or(api::BillingControls()), nowMs);
    if (!controls)
        return controls.error();
    return api::BillingControlsAnswer{customerId, entityId, controls.value()};
}

api::Result<api::BillingControlsAnswer>
BillingControlsUpdater::update(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
                               const api::UpdateBillingControlsRequest &request, qint64 nowMs)
{
    WriteTransaction transaction(db, dialect);
    if (auto begun = transaction.begin(); !begun)
        return begun.error();
    auto owner = ownerOf(db, scope, request.customerId, request.entityId);
    if (!owner)
        return owner.error();
    auto stored = BillingControlStore::stored(db, owner.value().customerPk, owner.value().entityPk);
    if (!stored)
        return stored.error();
    api::BillingControls controls = stored.value().value_or(api::BillingControls());
    const api::BillingControls &sent = request.billingControls;
    if (request.hasAutoTopups)
        controls.autoTopups = sent.autoTopups;
    if (request.hasSpendLimits)
        controls.spendLimits = sent.spendLimits;
    if (request.hasUsageLimits) {
        controls.usageLimits = sent.usageLimits;
        for (api::UsageLimit &limit : controls.usageLimits)
            limit.usage.reset(); // counted by the engine, never stored from a request
    }
    if (request.hasUsageAlerts)
        controls.usageAlerts = sent.usageAlerts;
    if (request.hasOverageAllowed)
        controls.overageAllowed = sent.overageAllowed;
    if (auto known = checkFeatures(db, scope, controls); !known)
        return known.error();
    if (auto saved = BillingControlStore::save(db, owner.value().customerPk, owner.value().entityPk,
                                               controls, nowMs);
        !saved)
        return saved.error();
    if (auto committed = transaction.commit(); !committed)
        return committed.error();
    return read(db, scope, request.customerId, request.entityId, nowMs);
}

} // namespace md::engine
