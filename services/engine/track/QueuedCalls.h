// Applying the calls stored in track_queue (TrackQueue's worker, and
// drain()): the oldest `limit` not failed, claimed (on PostgreSQL with SKIP
// LOCKED, so several servers share the work), each customer resolved once,
// then applied as one TrackBatch in one transaction. A call refused now stays
// in the table as a failed event with its error; applied ones are removed.
#pragma once

#include "services/api/Result.h"
#include "services/engine/pricing/PriceCatalogue.h"
#include "services/engine/sql/Dialect.h"

#include <QSqlDatabase>

namespace md::engine {

class QueuedCalls final
{
public:
    // How many stored calls the batch applied or marked failed; an error
    // (the database's) rolls everything back.
    static api::Result<qsizetype> apply(const QSqlDatabase &db, Dialect dialect, qsizetype limit,
                                        qint64 nowMs, const PriceCatalogue &catalogue);
};

} // namespace md::engine
