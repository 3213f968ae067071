#include "services/engine/track/CallCheck.h"

#include "services/engine/controls/BillingControlStore.h"
#include "services/engine/track/CallResolver.h"
#include "services/engine/track/TrackBatch.h"

namespace md::engine {

using namespace Qt::StringLiterals;

api::Result<api::Done> CallCheck::check(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
                                        const api::TrackTokensRequest &request, qint64 nowMs,
                                        const PriceCatalogue &catalogue, CallTargets *targets)
{
    if (auto invalid = checkTimestamp(request, nowMs))
        return *invalid;
    auto call = targets ? targets->resolve(db, scope, request, catalogue)
                        : CallResolver::resolve(db, scope, request, catalogue);
    if (!call)
        return call.error();
    // Only limits depend on the balances: without any, reading them (the
    // costly part) can wait for the queue.
    auto controls =
        BillingControlStore::inForce(db, call.value().customerPk, call.value().entityPk);
    if (!controls)
        return controls.error();
    if (controls.value().usageLimitsFor(call.value().featureId).isEmpty() &&
        controls.value().spendLimitsFor(call.value().featureId).isEmpty())
        return api::Done{};
    TrackBatch plan(db, dialect, nowMs); // planned, never flushed: nothing is written
    auto planned = plan.add(scope, request, call.value(), std::nullopt);
    if (!planned)
        return planned.error();
    return api::Done{};
}

std::optional<api::ApiError> CallCheck::checkTimestamp(const api::TrackTokensRequest &request,
                                                       qint64 nowMs)
{
    if (request.timestamp && *request.timestamp > nowMs + 5 * 60 * 1000)
        return api::ApiError::invalidInputs(u"timestamp"_s, u"must not be in the future"_s);
    return std::nullopt;
}

} // namespace md::engine
