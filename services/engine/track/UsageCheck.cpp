#include "services/engine/track/UsageCheck.h"

#include "services/engine/track/CallResolver.h"
#include "services/engine/track/TrackBatch.h"

namespace md::engine {

using namespace Qt::StringLiterals;
using api::Decimal;

namespace {

// The call a check stands for: required_balance of the feature.
api::TrackTokensRequest callOf(const api::CheckRequest &request, api::OverageBehavior overage)
{
    api::TrackRequest track;
    track.customerId = request.customerId;
    track.featureId = request.featureId;
    track.entityId = request.entityId;
    track.value = request.requiredBalance;
    track.overageBehavior = overage;
    return track.asCall();
}

} // namespace

api::Result<api::CheckResponse> UsageCheck::check(const QSqlDatabase &db, Dialect dialect,
                                                  const Scope &scope,
                                                  const api::CheckRequest &request, qint64 nowMs)
{
    const api::TrackTokensRequest capped = callOf(request, api::OverageBehavior::Cap);
    auto target = CallResolver::lookup(db, scope, capped);
    if (!target)
        return target.error();
    ResolvedCall call{target.value(), {}};
    call.priced.value = request.requiredBalance;
    // Planned in a batch never flushed: the rows, controls and limits read
    // as a call reads them, nothing written.
    TrackBatch batch(db, dialect, nowMs);
    auto summary = batch.summary(scope, call);
    if (!summary)
        return summary.error();
    api::CheckResponse response;
    const QString &type = call.featureType;
    if (!summary.value()) // the customer holds none of it
        return response;
    if (type == "boolean"_L1 || type == "static"_L1) {
        response.allowed = true;
        if (type == "static"_L1)
            response.balance = summary.value();
        return response;
    }
    response.balance = summary.value();
    auto planned = batch.add(scope, capped, call, std::nullopt);
    if (!planned && planned.error().status >= 500)
        return planned.error();
    Decimal deducted;
    if (planned)
        for (const api::Deduction &part : std::as_const(planned.value().deductions))
            deducted = deducted.plus(part.value).value_or(deducted);
    response.allowed = planned && deducted == request.requiredBalance;
    if (!response.allowed && response.balance->overageAllowed) {
        TrackBatch overflowing(db, dialect, nowMs);
        auto over = overflowing.add(scope, callOf(request, api::OverageBehavior::Overflow), call,
                                    std::nullopt);
        if (!over && over.error().status >= 500)
            return over.error();
        response.allowed = over.ok();
    }
    return response;
}

} // namespace md::engine
