#include "services/engine/track/TrackWriter.h"

#include "services/api/StartedThread.h"
#include "services/engine/clock/ClockApplier.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/track/CallCheck.h"
#include "services/engine/track/CallResolver.h"
#include "services/engine/track/TrackBatch.h"

#include <future>
#include <map>
#include <span>

namespace md::engine {

using api::TrackTokensResponse;

struct TrackWriter::Call
{
    Scope scope;
    api::TrackTokensRequest request;
    std::optional<QString> idempotencyKey;
    ResolvedCall resolved;
    Answer answer;
};

namespace {

using Answers = QList<api::Result<TrackTokensResponse>>;

// The calls in one transaction: an answer each, or the database's error
// (nothing written) when the transaction itself failed.
template <typename Calls>
api::Result<Answers> applyTogether(const QSqlDatabase &db, Dialect dialect, const Calls &calls,
                                   qint64 nowMs, TrackCache *cache)
{
    WriteTransaction transaction(db, dialect);
    if (auto begun = transaction.begin(); !begun)
        return begun.error();
    if (cache)
        if (auto valid = cache->validate(db); !valid)
            return valid.error();
    TrackBatch batch(db, dialect, nowMs, cache);
    QList<qint64> customers;
    QList<qint64> features;
    for (const auto &call : calls) {
        customers.append(call.resolved.customerPk);
        features.append(call.resolved.featurePk);
    }
    if (auto locked = batch.lockCustomers(customers, features); !locked)
        return locked.error();
    std::map<std::pair<qint64, QString>, QList<ResolvedCall>> byScope;
    for (const auto &call : calls)
        byScope[{call.scope.orgPk, call.scope.envWord()}].append(call.resolved);
    for (const auto &call : calls)
        if (auto scoped = byScope.find({call.scope.orgPk, call.scope.envWord()});
            scoped != byScope.end()) {
            if (auto current = batch.catchUp(call.scope, scoped->second); !current)
                return current.error();
            if (auto read = batch.prefetch(call.scope, scoped->second); !read)
                return read.error();
            byScope.erase(scoped);
        }
    Answers answers;
    for (const auto &call : calls) {
        auto answer = batch.add(call.scope, call.request, call.resolved, call.idempotencyKey);
        if (!answer && answer.error().status >= 500)
            return answer.error();
        answers.append(std::move(answer));
    }
    if (auto flushed = batch.flush(); !flushed)
        return flushed.error();
    if (auto committed = transaction.commit(); !committed)
        return committed.error();
    batch.keep();
    return answers;
}

} // namespace

TrackWriter::TrackWriter(Database &database, Clock clock, Ahead ahead, CatalogueSource catalogue)
    : m_database(database)
    , m_clock(std::move(clock))
    , m_ahead(std::move(ahead))
    , m_catalogue(std::move(catalogue))
{}

TrackWriter::~TrackWriter()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_arrived.notify_all();
    if (m_writer)
        m_writer->wait();
    if (m_second)
        m_second->wait();
}

void TrackWriter::submit(const Scope &scope, const api::TrackTokensRequest &request,
                         const std::optional<QString> &idempotencyKey, Answer answer)
{
    std::vector<Submission> one;
    one.push_back({request, idempotencyKey, std::move(answer)});
    submitAll(scope, std::move(one));
}

void TrackWriter::submitAll(const Scope &scope, std::vector<Submission> calls)
{
    const qint64 now = m_clock() + m_ahead(scope);
    // Resolving and pricing read only: done here, on many threads at once.
    auto db = m_database.connection();
    if (!db) {
        for (Submission &call : calls)
            call.answer(db.error());
        return;
    }
    const std::shared_ptr<const PriceCatalogue> catalogue = m_catalogue();
    CallTargets targets;
    QList<const api::TrackTokensRequest *> requests;
    for (const Submission &call : calls)
        requests.append(&call.request);
    if (auto fetched = targets.prefetch(db.value(), m_database.dialect(), scope, requests);
        !fetched) {
        for (Submission &call : calls)
            call.answer(fetched.error());
        return;
    }
    std::vector<Call> resolved;
    resolved.reserve(calls.size());
    for (Submission &call : calls) {
        if (auto invalid = CallCheck::checkTimestamp(call.request, now)) {
            call.answer(*invalid);
            continue;
        }
        auto found = targets.resolve(db.value(), scope, call.request, *catalogue);
        if (!found) {
            call.answer(found.error());
            continue;
        }
        resolved.push_back({scope, std::move(call.request), std::move(call.idempotencyKey),
                            std::move(found.value()), std::move(call.answer)});
    }
    if (resolved.empty())
        return;
    {
        std::unique_lock lock(m_mutex);
        if (m_stopping) {
            lock.unlock();
            for (Call &call : resolved)
                call.answer(api::ApiError{503, api::ErrorCode::ShuttingDown,
                                          QStringLiteral("the engine is closing; try again")});
            return;
        }
        std::move(resolved.begin(), resolved.end(), std::back_inserter(m_waiting));
        startLocked();
    }
    m_arrived.notify_all(); // the second writer waits on it too
}

void TrackWriter::start()
{
    const std::lock_guard lock(m_mutex);
    startLocked();
}

void TrackWriter::startLocked()
{
    if (m_writer)
        return;
    // The latch is counted down before work() takes m_mutex, held here.
    m_writer = api::startThread(QStringLiteral("meterdesk-writer"), [this] { work(true); });
    if (m_database.dialect() != Dialect::Postgres)
        return;
    m_second = api::startThread(QStringLiteral("meterdesk-writer-2"), [this] { work(false); });
}

api::Result<TrackTokensResponse> TrackWriter::track(const Scope &scope,
                                                    const api::TrackTokensRequest &request,
                                                    const std::optional<QString> &idempotencyKey)
{
    std::promise<api::Result<TrackTokensResponse>> promise;
    submit(scope, request, idempotencyKey,
           [&](api::Result<TrackTokensResponse> answer) { promise.set_value(std::move(answer)); });
    return promise.get_future().get();
}

void TrackWriter::post(Job job, Touches touches)
{
    {
        const std::lock_guard lock(m_mutex);
        m_jobs.emplace_back(std::move(job), touches);
        startLocked();
    }
    m_arrived.notify_all(); // the second writer waits on it too
}

void TrackWriter::setSweep(Sweep sweep, std::chrono::milliseconds every)
{
    {
        const std::lock_guard lock(m_mutex);
        m_sweep = std::move(sweep);
        m_sweepEvery = every;
        m_sweepAt = std::chrono::steady_clock::now();
        startLocked();
    }
    m_arrived.notify_all(); // the second writer waits on it too
}

TrackWriter::BatchSizes TrackWriter::batchSizes() const
{
    const std::lock_guard lock(m_sizesMutex);
    return m_sizes;
}

void TrackWriter::countBatch(std::size_t calls)
{
    int bucket = 0;
    while (bucket < BatchSizes::Buckets - 1 && (std::size_t(1) << bucket) < calls)
        ++bucket;
    const std::lock_guard lock(m_sizesMutex);
    ++m_sizes.atMost[bucket];
    ++m_sizes.batches;
    m_sizes.calls += calls;
}

std::vector<TrackWriter::Call> TrackWriter::takeLocked()
{
    // The calls at the head of the queue, up to MaxBatch, stopping at the
    // first for a customer the other writer has in hand: a customer's calls
    // are applied in the order they came.
    std::vector<Call> batch;
    while (!m_waiting.empty() && qsizetype(batch.size()) < MaxBatch &&
           !m_inHand.contains(m_waiting.front().resolved.customerPk)) {
        batch.push_back(std::move(m_waiting.front()));
        m_waiting.pop_front();
    }
    for (const Call &call : batch)
        m_inHand.insert(call.resolved.customerPk);
    return batch;
}

void TrackWriter::work(bool first)
{
    for (;;) {
        std::vector<Call> batch;
        Job job;
        Touches touches = Touches::Usage;
        bool sweep = false;
        {
            std::unique_lock lock(m_mutex);
            const auto sweepDue = [&] {
                return first && m_sweep && !m_stopping &&
                       std::chrono::steady_clock::now() >= m_sweepAt;
            };
            const auto takeable = [&] {
                return qsizetype(m_waiting.size()) >= (first ? 1 : SecondWriterAfter) &&
                       !m_inHand.contains(m_waiting.front().resolved.customerPk);
            };
            const auto finished = [&] {
                return m_stopping && m_waiting.empty() && (!first || m_jobs.empty());
            };
            const auto ready = [&] {
                return finished() || takeable() || (first && !m_jobs.empty()) || sweepDue();
            };
            // Once stopping no sweep is due: no moment to wait for.
            if (first && m_sweep && !m_stopping)
                m_arrived.wait_until(lock, m_sweepAt, ready);
            else
                m_arrived.wait(lock, ready);
            if (finished())
                return; // every call answered, every job run
            batch = takeLocked();
            if (first && !m_jobs.empty()) {
                std::tie(job, touches) = std::move(m_jobs.front());
                m_jobs.pop_front();
            }
            sweep = sweepDue();
        }
        if (!batch.empty()) {
            countBatch(batch.size());
            std::set<qint64> done;
            for (const Call &call : batch)
                done.insert(call.resolved.customerPk);
            apply(batch);
            m_lastBatch = std::chrono::steady_clock::now().time_since_epoch().count();
            {
                const std::lock_guard lock(m_mutex);
                for (qint64 customer : done)
                    m_inHand.erase(customer);
            }
            m_arrived.notify_all(); // the other writer may take that customer's calls now
        }
        if (job) {
            job();
            if (touches == Touches::Usage)
                m_cache.clear();
        }
        // Calls seen in the last 50 ms are calls coming: their clients are
        // sending the next ones while a step runs.
        if (sweep)
            runSweep(std::chrono::steady_clock::now().time_since_epoch() -
                         std::chrono::steady_clock::duration(m_lastBatch.load()) <
                     std::chrono::milliseconds(50));
    }
}

void TrackWriter::runSweep(bool callsComing)
{
    const auto started = std::chrono::steady_clock::now();
    const SweepStep step = m_sweep();
    const auto ended = std::chrono::steady_clock::now();
    if (step.changed)
        m_cache.clear();
    // Whole steps (their fixed cost paid once per thousand balances), but
    // while calls come, only a quarter of the writer's time: after a step of
    // d, the calls have 3·d to themselves (they kept 0.88 with 4·d, and the
    // sweep then took 62 s for a million: docs/performance.md).
    std::chrono::steady_clock::duration wait = m_sweepEvery;
    if (step.more)
        wait = callsComing ? (step.closed ? ClosingShareWait : SweepShareWait) * (ended - started)
                           : std::chrono::nanoseconds(0);
    const std::lock_guard lock(m_mutex);
    m_sweepAt = ended + wait;
}

void TrackWriter::apply(std::vector<Call> &calls)
{
    // Calls of a moved sandbox run at its own now, apart from the rest.
    std::map<qint64, std::vector<Call>> byAhead;
    for (Call &call : calls)
        byAhead[m_ahead(call.scope)].push_back(std::move(call));
    const qint64 real = m_clock();
    for (auto &[ahead, group] : byAhead)
        applyAt(group, real + ahead);
}

void TrackWriter::applyAt(std::vector<Call> &calls, qint64 now)
{
    auto db = m_database.connection();
    if (!db) {
        for (Call &call : calls)
            call.answer(db.error());
        return;
    }
    const Dialect dialect = m_database.dialect();
    TrackCache *cache = dialect == Dialect::Sqlite ? &m_cache : nullptr;
    auto answers = applyTogether(db.value(), dialect, calls, now, cache);
    if (!answers && cache)
        cache->clear(); // what it holds may be what was rolled back
    if (!answers && calls.size() > 1) {
        // The database refused the batch: each call on its own, so the one
        // at fault (another server took its Idempotency-Key, say) fails alone.
        Answers each;
        for (const Call &call : calls) {
            auto alone = applyTogether(db.value(), dialect, std::span(&call, 1), now, nullptr);
            each.append(alone ? alone.value().first()
                              : api::Result<TrackTokensResponse>(alone.error()));
        }
        answers = each;
    }
    for (qsizetype i = 0; i < qsizetype(calls.size()); ++i)
        calls[i].answer(answers ? answers.value().at(i)
                                : api::Result<TrackTokensResponse>(answers.error()));
}

} // namespace md::engine
