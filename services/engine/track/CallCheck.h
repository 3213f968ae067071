// balances.track_tokens in the engine (docs/api.md): the checks and quotes
// around a call. Calls themselves are applied in batches: TrackWriter for
// synchronous ones, TrackQueue for the async flag, both through TrackBatch.
#pragma once

#include "services/api/TrackTokens.h"
#include "services/engine/pricing/PriceCatalogue.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"
#include "services/engine/track/CallResolver.h"

#include <QSqlDatabase>

namespace md::engine {

class CallCheck final
{
public:
    // What applying the call would refuse now, refused now, writing nothing:
    // the async flag's check before a call is accepted (the customer, entity,
    // credit system, model, price and billing limits; not Idempotency-Key,
    // which the queue checks against what it holds too).
    // `targets` (optional) shares look-ups among the calls of one batch.
    static api::Result<api::Done> check(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
                                        const api::TrackTokensRequest &request, qint64 nowMs,
                                        const PriceCatalogue &catalogue,
                                        CallTargets *targets = nullptr);
    // 400 when the event's timestamp lies in the future (five minutes' leeway for clocks).
    static std::optional<api::ApiError> checkTimestamp(const api::TrackTokensRequest &request,
                                                       qint64 nowMs);
};

} // namespace md::engine
