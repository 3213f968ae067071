// Applying the calls stored in track_queue (TrackQueue's worker, and
// drain()): the oldest `limit` not failed, claimed (on PostgreSQL with SKIP
// LOCKED, so several servers share the work), each customer resolved once,
// then applied as one TrackBatch in one transaction, at their scope's now. A call refused now stays
// in the table as a failed event with its error; applied ones are removed.
#pragma once

#include "services/api/Result.h"
#include "services/engine/pricing/PriceCatalogue.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

#include <functional>

namespace md::engine {

class QueuedCalls final
{
public:
    // Each scope's now: the clock, plus a moved sandbox's lead.
    using NowOf = std::function<qint64(const Scope &)>;

    // How many stored calls the batch applied or marked failed; an error
    // (the database's) rolls everything back. A batch is applied at one
    // now: the oldest call's scope's, with the calls whose scopes share it;
    // the others wait for a batch of their own.
    static api::Result<qsizetype> apply(const QSqlDatabase &db, Dialect dialect, qsizetype limit,
                                        const NowOf &nowOf, const PriceCatalogue &catalogue);
};

} // namespace md::engine
