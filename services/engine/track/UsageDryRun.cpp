#include "services/engine/track/UsageDryRun.h"

#include "services/engine/track/CallCheck.h"
#include "services/engine/track/CallResolver.h"
#include "services/engine/track/TrackBatch.h"

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
    for (qsizetype i = 0; i < request.events.size(); ++i) {
        if (!resolved.at(i)) {
            response.results.append(api::UsageBatchResult::of(resolved.at(i).error()));
            continue;
        }
        const api::UsageBatchEvent &event = request.events.at(i).value();
        auto answer = batch.add(scope, event.call, resolved.at(i).value(), event.idempotencyKey);
        if (!answer && answer.error().status >= 500)
            return answer.error();
        response.results.append(api::UsageBatchResult::of(answer));
    }
    return response;
}

} // namespace md::engine
