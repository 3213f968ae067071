// The billing clock's work on a running engine (docs/api.md, "The billing
// clock"). Every write goes through the writer thread (TrackWriter), one
// step at a time: at most ClockApplier::MaxRows balances and as many plans
// per transaction, so a track batch waits for one step at most. The sweep
// takes a step every second, and at once again while more is due; a read
// that meets a due balance asks for its customers' steps and waits for them
// (bringUpToDate), so no answer shows a balance the clock has passed.
#pragma once

#include "services/api/Result.h"
#include "services/api/SandboxClock.h"
#include "services/engine/clock/ClockApplier.h"
#include "services/engine/clock/SandboxClock.h"
#include "services/engine/customers/PlanClock.h"
#include "services/engine/sql/Database.h"
#include "services/engine/track/TrackWriter.h"

namespace md::engine {

// What the clock did, to balances and to plans.
struct ClockWork
{
    ClockTally balances;
    PlanClock::Tally plans;

    ClockWork &operator+=(const ClockWork &other);
};

class ClockSweep final
{
public:
    ClockSweep(Database &database, SandboxClock &clock, TrackWriter &writer);

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
    api::Result<ClockWork> stepOnce(const QSqlDatabase &db, const ClockApplier::Due &due,
                                    qint64 nowMs, const QString &route);

    Database &m_database;
    SandboxClock &m_clock;
    TrackWriter &m_writer;
};

} // namespace md::engine
