// balances.track_tokens in the engine (billing-api.md §4.3, decisions.md):
// finds the customer's AI credit system, prices the call, and deducts it in
// one write transaction in the documented order (rollovers first, soonest
// expiry first; then rows that reset before those that do not, shorter
// interval first, sooner expiry first, plan rows before standalone ones,
// oldest first), recording the usage event. A repeated Idempotency-Key is a
// 409 and deducts nothing.
#pragma once

#include "services/api/TrackTokens.h"
#include "services/engine/Database.h"
#include "services/engine/PriceCatalogue.h"
#include "services/engine/Scope.h"

namespace md::engine {

class TokenLedger final
{
public:
    static api::Result<api::TrackTokensResponse>
    track(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
          const api::TrackTokensRequest &request, const std::optional<QString> &idempotencyKey,
          qint64 nowMs, const PriceCatalogue &catalogue);
};

} // namespace md::engine
