// balances.track_tokens in the engine (billing-api.md §4.3, decisions.md,
// docs/api.md): finds the customer's AI credit system, prices the call,
// holds it to the customer's billing controls (docs/billing-controls.md)
// and deducts it in one write transaction in the documented order
// (Deducter), recording the usage event and any alert it sets off. A
// repeated Idempotency-Key is a 409 and deducts nothing.
#pragma once

#include "services/api/Extensions.h"
#include "services/api/TrackTokens.h"
#include "services/engine/Database.h"
#include "services/engine/PriceCatalogue.h"
#include "services/engine/Scope.h"

namespace md::engine {

class TokenLedger final
{
public:
    // One call in its own write transaction.
    static api::Result<api::TrackTokensResponse>
    track(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
          const api::TrackTokensRequest &request, const std::optional<QString> &idempotencyKey,
          qint64 nowMs, const PriceCatalogue &catalogue);
    // The same inside the caller's write transaction (the queue worker's batch).
    static api::Result<api::TrackTokensResponse>
    apply(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
          const api::TrackTokensRequest &request, const std::optional<QString> &idempotencyKey,
          qint64 nowMs, const PriceCatalogue &catalogue);
    // What apply() would refuse now, refused now, writing nothing: the async
    // flag's check before a call is accepted (the customer, entity, credit
    // system, model, price and billing limits; not Idempotency-Key, which
    // the queue checks against what it holds too).
    static api::Result<api::Done> check(const QSqlDatabase &db, const Scope &scope,
                                        const api::TrackTokensRequest &request, qint64 nowMs,
                                        const PriceCatalogue &catalogue);
    // What the call would cost, recording nothing: with the markups of the
    // customer's credit system (or of `feature_id`), or none when neither is given.
    static api::Result<api::CallQuote> quote(const QSqlDatabase &db, const Scope &scope,
                                             const api::TrackTokensRequest &request,
                                             const PriceCatalogue &catalogue);
    // 400 when the event's timestamp lies in the future (five minutes' leeway for clocks).
    static std::optional<api::ApiError> checkTimestamp(const api::TrackTokensRequest &request,
                                                       qint64 nowMs);
};

} // namespace md::engine
