// Asynchronous calls that were accepted and then could not be applied: the
// track_queue rows a worker marked failed, listed newest first, put back to
// be applied again, or discarded (docs/api.md, "Failed events").
#pragma once

#include "services/api/FailedEvent.h"
#include "services/api/Page.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

class FailedEvents final
{
public:
    static api::Result<api::Page<api::FailedEvent>> list(const QSqlDatabase &db, const Scope &scope,
                                                         const api::PageRequest &request);
    // Ids not of a failed call in this scope are reported as not found.
    static api::Result<api::FailedEventOutcome> retry(const QSqlDatabase &db, Dialect dialect,
                                                      const Scope &scope, const QStringList &ids);
    // The track_queue.failed event of a call just marked failed, for the
    // webhooks subscribed to it, in the transaction that marked it.
    static api::Result<api::Done> tell(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
                                       qint64 pk, qint64 nowMs);
    static api::Result<api::FailedEventOutcome> discard(const QSqlDatabase &db, Dialect dialect,
                                                        const Scope &scope, const QStringList &ids);
};

} // namespace md::engine
