// The engine's one clock (docs/api.md, "The billing clock"): the real time,
// and for a sandbox that was moved on, the real time plus its offset, which
// lives in the database (clock_offsets) so that every server on it agrees.
// Production has no offset and costs no look-up. A sandbox's offset is read
// at most once a second per process (CacheLifetime): another server sees an
// advance within that second, and what the advance made due it had already
// applied. Thread-safe.
#pragma once

#include "services/api/Result.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QDeadlineTimer>
#include <QHash>
#include <QMutex>
#include <QSqlDatabase>

#include <chrono>
#include <functional>
#include <optional>

namespace md::engine {

class SandboxClock final
{
public:
    using RealClock = std::function<qint64()>;
    static constexpr std::chrono::seconds CacheLifetime{1};
    // How far ahead a sandbox may be moved at most.
    static constexpr qint64 MaxAheadMs = qint64(3653) * 86'400'000; // ten years

    explicit SandboxClock(RealClock real);

    qint64 real() const { return m_real(); }
    // The scope's now; on a database error the last offset known (or none).
    qint64 now(const QSqlDatabase &db, const Scope &scope) { return real() + ahead(db, scope); }
    // How far the scope's now is ahead of the real one, from the cache.
    qint64 ahead(const QSqlDatabase &db, const Scope &scope);
    // The scope's offset read now, past the cache.
    api::Result<qint64> offset(const QSqlDatabase &db, const Scope &scope);
    // Moves a sandbox's now on to `toMs` in the caller's write transaction,
    // only if that is after its now: the offset stored, or none when another
    // advance already went as far. The stored offset is read under the row's
    // lock and the real time after it, so of two advances to one time, on one
    // server or two, only the first moves the clock. remember() the offset
    // once that committed.
    api::Result<std::optional<qint64>> moveTo(const QSqlDatabase &db, Dialect dialect,
                                              const Scope &scope, qint64 toMs);
    void remember(const Scope &scope, qint64 offsetMs);
    // The sandboxes that were moved on, for the sweep: how far ahead each
    // is, and when (real time) it was last moved.
    struct Moved
    {
        Scope scope;
        qint64 aheadMs = 0;
        qint64 movedAt = 0;
    };
    api::Result<QList<Moved>> offsets(const QSqlDatabase &db);

private:
    struct Cached
    {
        qint64 offsetMs = 0;
        QDeadlineTimer expiry;
    };
    RealClock m_real;
    QMutex m_mutex;
    QHash<qint64, Cached> m_cache; // by organization (sandbox only)
};

} // namespace md::engine
