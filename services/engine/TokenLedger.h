// balances.track_tokens in the engine (billing-api.md §4.3, decisions.md):
// finds the customer's AI credit system, prices the call, and deducts it in
// one write transaction in the documented order (rollovers first, soonest
// expiry first; then rows that reset before those that do not, shorter
// interval first, sooner expiry first, plan rows before standalone ones,
// oldest first), recording the usage event. A repeated Idempotency-Key is a
// 409 and deducts nothing.
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
