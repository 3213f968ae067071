#include "services/engine/ClockSweep.h"

#include "services/api/StartedThread.h"
#include "services/engine/sql/Sql.h"

#include <QDateTime>

#include <future>

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

// Whether a step took all it was allowed: more may be due.
bool full(const ClockWork &work)
{
    return work.balances.balances >= ClockApplier::MaxRows ||
           work.plans.expiries >= ClockApplier::MaxRows ||
           work.plans.periods >= ClockApplier::MaxRows || work.statements.more;
}

bool changed(const ClockWork &work)
{
    return work.balances.balances + work.plans.expiries + work.plans.periods +
               work.statements.opened + work.statements.closed >
           0;
}

api::ClockAdvanced answerOf(qint64 now, bool dryRun, const ClockWork &work)
{
    api::ClockAdvanced answer;
    answer.now = now;
    answer.dryRun = dryRun;
    answer.applied = {work.balances.resets, work.balances.rollovers,
                      work.balances.expiries + work.plans.expiries, work.plans.periods};
    for (const auto &[featureId, effect] : work.balances.byFeature)
        answer.byFeature.append({featureId, effect.resets, effect.rollovers, effect.expiries,
                                 effect.restored, effect.rolledOver, effect.expired});
    return answer;
}

QString dateOf(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

} // namespace

ClockWork &ClockWork::operator+=(const ClockWork &other)
{
    balances += other.balances;
    plans.expiries += other.plans.expiries;
    plans.periods += other.plans.periods;
    statements.opened += other.statements.opened;
    statements.closed += other.statements.closed;
    statements.more = other.statements.more;
    return *this;
}

ClockSweep::ClockSweep(Database &database, SandboxClock &clock, TrackWriter &writer)
    : m_database(database)
    , m_clock(clock)
    , m_writer(writer)
{}

void ClockSweep::stop()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_stopped.notify_all();
    if (m_thread)
        m_thread->wait();
}

void ClockSweep::start(std::chrono::milliseconds every)
{
    if (m_database.dialect() != Dialect::Postgres) {
        m_writer.setSweep([this] { return step(); }, every);
        return;
    }
    m_thread = api::startThread(QStringLiteral("meterdesk-clock"),
                                [this, every] { sweepAlongside(every); });
}

void ClockSweep::sweepAlongside(std::chrono::milliseconds every)
{
    for (;;) {
        const TrackWriter::SweepStep done = step();
        std::unique_lock lock(m_mutex);
        if (!done.more)
            m_stopped.wait_for(lock, every, [this] { return m_stopping; });
        if (m_stopping)
            return;
    }
}

api::Result<ClockWork> ClockSweep::stepOnce(const QSqlDatabase &db, const ClockApplier::Due &due,
                                            qint64 nowMs, const QString &route,
                                            const QList<Scope> &except)
{
    const Dialect dialect = m_database.dialect();
    WriteTransaction transaction(db, dialect);
    if (auto begun = transaction.begin(); !begun)
        return begun.error();
    ClockWork work;
    auto balances = ClockApplier::apply(db, dialect, due, nowMs, route);
    if (!balances)
        return balances.error();
    work.balances = balances.value();
    // Plans only once their balances are current: an expiry takes what the
    // balance holds at the plan's end.
    if (work.balances.balances < ClockApplier::MaxRows) {
        auto plans = PlanClock::apply(db, dialect, due, nowMs, route);
        if (!plans)
            return plans.error();
        work.plans = plans.value();
    }
    // Statements once the balances are: a period closes with every reset
    // of it billed.
    if (!full(work)) {
        auto statements = StatementCloser::apply(db, dialect, due, nowMs, except);
        if (!statements)
            return statements.error();
        work.statements = statements.value();
    }
    if (auto committed = transaction.commit(); !committed)
        return committed.error();
    return work;
}

TrackWriter::SweepStep ClockSweep::step()
{
    auto db = m_database.connection();
    if (!db)
        return {};
    TrackWriter::SweepStep result;
    const auto note = [&](const api::Result<ClockWork> &work) {
        if (!work)
            return; // the next step tries again
        result.changed = result.changed || changed(work.value());
        result.more = result.more || full(work.value());
        result.closed = result.closed || work.value().statements.closed > 0;
    };
    auto moved = m_clock.offsets(db.value());
    if (!moved)
        return result;
    // A sandbox ahead opens and closes its statements at its own now.
    QList<Scope> ahead;
    for (const SandboxClock::Moved &sandbox : moved.value())
        ahead.append(sandbox.scope);
    note(stepOnce(db.value(), {}, m_clock.real(), u"clock"_s, ahead));
    if (result.more)
        return result;
    for (const SandboxClock::Moved &sandbox : moved.value()) {
        // One just moved is left to the clock.advance applying what that
        // brought due (on whichever server), so its entries say so.
        if (m_clock.real() - sandbox.movedAt < AdvanceLeaseMs)
            continue;
        note(stepOnce(db.value(), {sandbox.scope, {}, {}, {}, {}}, m_clock.real() + sandbox.aheadMs,
                      u"clock"_s));
        if (result.more)
            break;
    }
    return result;
}

api::Result<ClockWork> ClockSweep::bringUpToDate(const ClockApplier::Due &due, qint64 nowMs,
                                                 const QString &route, bool probe)
{
    if (probe) {
        auto db = m_database.connection();
        if (!db)
            return db.error();
        auto balances = ClockApplier::anyDue(db.value(), m_database.dialect(), due, nowMs);
        if (!balances)
            return balances.error();
        // Plans are looked for only for a customer: a read of many shows
        // balances, whose status already follows their plan's end, and the
        // sweep ends plans and periods within a second.
        if (!balances.value() && !due.someCustomers())
            return ClockWork();
        if (!balances.value()) {
            auto plans = PlanClock::anyDue(db.value(), m_database.dialect(), due, nowMs);
            if (!plans)
                return plans.error();
            auto statements =
                plans.value()
                    ? api::Result<bool>(true)
                    : StatementCloser::anyDue(db.value(), m_database.dialect(), due, nowMs);
            if (!statements)
                return statements.error();
            if (!statements.value())
                return ClockWork();
        }
    }
    if (m_database.dialect() == Dialect::Postgres) {
        // Beside the calls, on this thread's connection.
        auto db = m_database.connection();
        if (!db)
            return db.error();
        ClockWork total;
        for (;;) {
            auto step = stepOnce(db.value(), due, nowMs, route);
            if (!step)
                return step.error();
            total += step.value();
            if (!full(step.value()))
                return total;
        }
    }
    // Step by step, each its own job on the writer, so track batches run in between.
    struct Run
    {
        ClockWork total;
        std::promise<api::Result<ClockWork>> done;
        std::function<void()> next;
    };
    auto run = std::make_shared<Run>();
    run->next = [this, run, due, nowMs, route] {
        auto db = m_database.connection();
        auto step =
            db ? stepOnce(db.value(), due, nowMs, route) : api::Result<ClockWork>(db.error());
        if (!step) {
            run->done.set_value(step.error());
            run->next = nullptr; // ends the cycle run -> next -> run
            return;
        }
        run->total += step.value();
        if (full(step.value())) {
            m_writer.post(run->next);
            return;
        }
        run->done.set_value(run->total);
        run->next = nullptr;
    };
    auto answer = run->done.get_future();
    m_writer.post(run->next);
    return answer.get();
}

api::Result<api::ClockReading> ClockSweep::reading(const Scope &scope)
{
    auto db = m_database.connection();
    if (!db)
        return db.error();
    auto offset = m_clock.offset(db.value(), scope);
    if (!offset)
        return offset.error();
    return api::ClockReading{m_clock.real() + offset.value(), offset.value()};
}

api::Result<api::ClockAdvanced> ClockSweep::advance(const Scope &scope,
                                                    const api::ClockAdvance &request)
{
    if (scope.env != Environment::Sandbox)
        return api::ApiError{403, api::ErrorCode::SandboxOnly,
                             u"only a sandbox's clock can be moved; use a sandbox key"_s};
    auto now = reading(scope);
    if (!now)
        return now.error();
    const qint64 real = m_clock.real();
    const auto notForward = [&](qint64 sandboxNow) {
        return api::ApiError::invalidInputs(
            u"to"_s, u"is %1, not after the sandbox's now (%2): its clock only moves forward"_s.arg(
                         dateOf(request.to), dateOf(sandboxNow)));
    };
    if (request.to <= now.value().now)
        return notForward(now.value().now);
    if (request.to - real > SandboxClock::MaxAheadMs)
        return api::ApiError::invalidInputs(
            u"to"_s,
            u"is %1, more than ten years after today (%2)"_s.arg(dateOf(request.to), dateOf(real)));
    auto db = m_database.connection();
    if (!db)
        return db.error();
    const Dialect dialect = m_database.dialect();
    // What the move brings due, counted before it is made: the answer is
    // all of it, though another server's sweep, or a read, may apply some.
    ClockWork work;
    auto balances = ClockApplier::preview(db.value(), dialect, scope, request.to);
    if (!balances)
        return balances.error();
    auto plans = PlanClock::preview(db.value(), dialect, scope, request.to);
    if (!plans)
        return plans.error();
    work.balances = balances.value();
    work.plans = plans.value();
    if (request.dryRun)
        return answerOf(now.value().now, true, work);
    qint64 offset = 0;
    {
        WriteTransaction transaction(db.value(), dialect);
        if (auto begun = transaction.begin(); !begun)
            return begun.error();
        auto moved = m_clock.moveTo(db.value(), dialect, scope, request.to);
        if (!moved)
            return moved.error();
        if (!moved.value()) {
            // Another advance got there first (this server or another), or
            // the real time passed `to` since the reading.
            auto stored = m_clock.offset(db.value(), scope);
            if (!stored)
                return stored.error();
            return notForward(m_clock.real() + stored.value());
        }
        if (auto committed = transaction.commit(); !committed)
            return committed.error();
        offset = *moved.value();
    }
    m_clock.remember(scope, offset);
    // From here the sandbox's now is `to`: what this leaves undone (a
    // database error) the sweep and the reads still apply.
    auto applied = bringUpToDate({scope, {}, {}, {}, {}}, request.to, u"clock.advance"_s, false);
    if (!applied)
        return applied.error();
    return answerOf(request.to, false, work);
}

} // namespace md::engine
