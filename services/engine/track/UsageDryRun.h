// usage.batch with "dry_run" (docs/api.md, "usage.batch"): every event
// planned in order against the stored balances, as the writer would apply
// them, in one TrackBatch that is never flushed: each answered as it would
// be (its deductions, the balance after it, or its refusal, a repeated
// Idempotency-Key included), nothing written; each balance's first applied
// event also with that balance before it. On the calling thread.
#pragma once

#include "services/api/UsageBatch.h"
#include "services/engine/pricing/PriceCatalogue.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

class UsageDryRun final
{
public:
    static api::Result<api::UsageBatchResponse> plan(const QSqlDatabase &db, Dialect dialect,
                                                     const Scope &scope,
                                                     const api::UsageBatchRequest &request,
                                                     qint64 nowMs, const PriceCatalogue &catalogue);
};

} // namespace md::engine
