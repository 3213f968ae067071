// The billing clock's work on a running engine (docs/api.md, "The billing
// clock"), one step at a time: at most ClockApplier::MaxRows balances and
// as many plans per transaction. The sweep takes a step every second, and
// at once again while more is due; a read that meets a due balance has its
// customers' steps taken and waits for them (bringUpToDate), so no answer
// shows a balance the clock has passed. On SQLite, whose one write lock
// the calls need too, every step goes through the writer thread
// (TrackWriter), between batches. On PostgreSQL, where writers work side by
// side and take turns only through the customers' row locks, the sweep has
// a thread and connection of its own, and a read's steps run on the
// reader's connection.
#pragma once

#include "services/api/Result.h"
#include "services/api/SandboxClock.h"
#include "services/engine/clock/ClockApplier.h"
#include "services/engine/clock/SandboxClock.h"
#include "services/engine/customers/PlanClock.h"
#include "services/engine/sql/Database.h"
#include "services/engine/statements/StatementCloser.h"
#include "services/engine/track/TrackWriter.h"

#include <QThread>

#include <condition_variable>
#include <memory>
#include <mutex>

namespace md::engine {

// What the clock did, to balances, plans and statements.
struct ClockWork
{
    ClockTally balances;
    PlanClock::Tally plans;
    StatementCloser::Tally statements;

    ClockWork &operator+=(const ClockWork &other);
};

class ClockSweep final
{
public:
    ClockSweep(Database &database, SandboxClock &clock, TrackWriter &writer);
    ~ClockSweep() { stop(); }
    Q_DISABLE_COPY_MOVE(ClockSweep)
    // Stops its own thread (PostgreSQL), if it has one.
    void stop();

    // The sweep every `every`: through the writer on SQLite, on a thread of
    // its own on PostgreSQL.
    void start(std::chrono::milliseconds every);

    // One step over every organization at the real now, then over each moved
    // sandbox at its own now. On the writer thread.
    TrackWriter::SweepStep step();

    // Applies everything in `due` up to `nowMs`, step by step through the
    // writer, and waits (never on a GUI thread). `probe`: look first on this
    // thread, and when nothing is due, return at once without the writer.
    api::Result<ClockWork> bringUpToDate(const ClockApplier::Due &due, qint64 nowMs,
                                         const QString &route, bool probe);

    // clock.get and clock.advance (docs/api.md, "The billing clock"): a
    // sandbox's now moved forward, never back, at most ten years ahead of
    // the real one, and everything that falls due on the way applied (or,
    // dry run, counted).
    api::Result<api::ClockReading> reading(const Scope &scope);
    api::Result<api::ClockAdvanced> advance(const Scope &scope, const api::ClockAdvance &request);

private:
    // How long the sweep leaves a sandbox just moved to its clock.advance.
    static constexpr qint64 AdvanceLeaseMs = 60'000;

    // `except`: the scopes to leave alone (sandboxes whose clock runs ahead
    // of `nowMs`, when that is the real now).
    api::Result<ClockWork> stepOnce(const QSqlDatabase &db, const ClockApplier::Due &due,
                                    qint64 nowMs, const QString &route,
                                    const QList<Scope> &except = {});

    void sweepAlongside(std::chrono::milliseconds every);

    Database &m_database;
    SandboxClock &m_clock;
    TrackWriter &m_writer;
    std::mutex m_mutex;
    std::condition_variable m_stopped;
    bool m_stopping = false;
    std::unique_ptr<QThread> m_thread; // PostgreSQL's sweep
};

} // namespace md::engine
