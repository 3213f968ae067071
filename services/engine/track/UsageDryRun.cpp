#include "services/engine/track/UsageDryRun.h"

#include "services/engine/track/CallCheck.h"
#include "services/engine/track/CallResolver.h"
#include "services/engine/track/TrackBatch.h"

#include <set>
#include <tuple>

namespace md::engine {

api::Result<api::UsageBatchResponse> UsageDryRun::plan(const QSqlDatabase &db, Dialect dialect,
                                                       const Scope &scope,
                                                       const api::UsageBatchRequest &request,
                                                       qint64 nowMs,
                                                       const PriceCatalogue &catalogue)
{
    // Resolved first, so the billing clock's due moves are seen before any
    // event, as the writer sees them.
    CallTargets targets;
    QList<const api::TrackTokensRequest *> requests;
    for (const auto &event : request.events)
        if (event)
            requests.append(&event.value().call);
    if (auto fetched = targets.prefetch(db, dialect, scope, requests); !fetched)
        return fetched.error();
    QList<api::Result<ResolvedCall>> resolved;
    QList<ResolvedCall> calls;
    for (const auto &event : request.events) {
        if (!event) {
            resolved.append(event.error());
            continue;
        }
        if (auto invalid = CallCheck::checkTimestamp(event.value().call, nowMs)) {
            resolved.append(*invalid);
            continue;
        }
        auto call = targets.resolve(db, scope, event.value().call, catalogue);
        if (!call && call.error().status >= 500)
            return call.error();
        if (call)
            calls.append(call.value());
        resolved.append(std::move(call));
    }
    TrackBatch batch(db, dialect, nowMs); // never flushed
    if (auto current = batch.catchUp(scope, calls); !current)
        return current.error();
    api::UsageBatchResponse response;
    // The balances (customer, entity or -1, feature) whose state before
    // their first applied event was told: the client cannot work it out from
    // the answer after it when the event drew on rollovers.
    std::set<std::tuple<qint64, qint64, qint64>> told;
    for (qsizetype i = 0; i < request.events.size(); ++i) {
        if (!resolved.at(i)) {
            response.results.append(api::UsageBatchResult::of(resolved.at(i).error()));
            continue;
        }
        const api::UsageBatchEvent &event = request.events.at(i).value();
        const ResolvedCall &call = resolved.at(i).value();
        const auto balance =
            std::tuple(call.customerPk, call.entityPk.value_or(-1), call.featurePk);
        std::optional<api::BalanceSummary> before;
        if (!told.contains(balance)) {
            auto held = batch.summary(scope, call);
            if (!held)
                return held.error();
            before = held.value().value_or(api::BalanceSummary()); // none held: no rows
            before->featureId = call.featureId;
        }
        auto answer = batch.add(scope, event.call, call, event.idempotencyKey);
        if (!answer && answer.error().status >= 500)
            return answer.error();
        api::UsageBatchResult result = api::UsageBatchResult::of(answer);
        if (answer && before) {
            result.balanceBefore = std::move(before);
            told.insert(balance);
        }
        response.results.append(std::move(result));
    }
    return response;
}

} // namespace md::engine
