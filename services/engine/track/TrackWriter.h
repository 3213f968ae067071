// Synchronous balances.track_tokens with group commit (docs/performance.md).
// A call is resolved and priced on the caller's thread (many at once), then
// handed to this engine's writer thread (on PostgreSQL, either of two: one
// batch's statements run in the database while the other batch is planned,
// and a customer's calls wait while the other writer has that customer in
// hand, so they are applied in the order they came), which applies whatever
// is waiting, up to MaxBatch calls, as one TrackBatch: one transaction, one
// commit for all of them, balances read and written once per customer and
// feature. Each call still gets its own answer, after its batch committed,
// so durability is that of a call of its own. (A thread of its own measured
// faster than letting the first waiting caller apply the batch: the
// callers' threads go back to reading requests meanwhile.) A refusal (a limit,
// a repeated Idempotency-Key) answers only that call; if the database fails a
// batch, its calls are applied again one by one, so one call cannot fail its
// neighbours.
//
// The billing clock runs here too (docs/api.md, "The billing clock"): a
// batch first brings its customers' due balances up to date, and between
// batches the (first) writer runs the clock's sweep, one step (at most
// ClockApplier::MaxRows balances) at a time, and jobs posted to it, so
// neither holds up a call for longer than one step; while calls come, the
// sweep takes at most a quarter of the thread's time.
#pragma once

#include "services/api/TrackTokens.h"
#include "services/engine/pricing/PriceCatalogue.h"
#include "services/engine/sql/Database.h"
#include "services/engine/sql/Scope.h"
#include "services/engine/track/TrackBatch.h"

#include <array>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <set>

#include <QThread>

#include <chrono>

namespace md::engine {

class TrackWriter final
{
public:
    using Clock = std::function<qint64()>;
    // How far a scope's clock is ahead of the real one (a moved sandbox).
    using Ahead = std::function<qint64(const Scope &)>;
    using CatalogueSource = std::function<std::shared_ptr<const PriceCatalogue>()>;
    using Answer = std::function<void(api::Result<api::TrackTokensResponse>)>;
    // Work run on the writer's thread (its connection is the thread's), between batches.
    using Job = std::function<void()>;
    struct SweepStep
    {
        bool changed = false; // it wrote: what the writer keeps is dropped
        bool more = false;    // more is due: the next step comes straight after
        bool closed = false;  // it closed statements: the calls get a larger share
    };
    using Sweep = std::function<SweepStep()>;
    // Calls per transaction at most: a batch takes a few milliseconds.
    static constexpr qsizetype MaxBatch = 512;
    // How many calls the batches held, for /metrics: batches of at most
    // 1, 2, 4, … 512 calls (cumulative counts are the exposition's work).
    struct BatchSizes
    {
        static constexpr int Buckets = 10; // 2^0 … 2^9 = MaxBatch
        std::array<quint64, Buckets> atMost{};
        quint64 batches = 0;
        quint64 calls = 0;
    };
    BatchSizes batchSizes() const;

    TrackWriter(Database &database, Clock clock, Ahead ahead, CatalogueSource catalogue);
    ~TrackWriter(); // answers every call handed over, then stops
    Q_DISABLE_COPY_MOVE(TrackWriter)

    // `answer` runs once: on this thread for a call refused before it is
    // handed over, else on the writer thread after the call's batch.
    void submit(const Scope &scope, const api::TrackTokensRequest &request,
                const std::optional<QString> &idempotencyKey, Answer answer);
    // Many calls of one scope at once (usage.batch): resolved together, calls
    // of one customer and feature sharing a look-up, and handed over under
    // one lock, so they land in as few batches as MaxBatch allows. Each
    // answer runs as submit()'s does.
    struct Submission
    {
        api::TrackTokensRequest request;
        std::optional<QString> idempotencyKey;
        Answer answer;
    };
    void submitAll(const Scope &scope, std::vector<Submission> calls);
    // Starts the writer thread now rather than with the first call: a server
    // makes its threads before clients can exhaust its file descriptors (a
    // thread started then aborts the process in GLib).
    void start();
    // Runs `job` on the first writer thread, after the batch in hand (starting the
    // thread if need be); a job still waiting when the writer stops runs then.
    // What the writer keeps of balances and controls is dropped after it,
    // unless the job says it leaves them alone (the webhook senders' bookkeeping).
    enum class Touches { Usage, NoUsage };
    void post(Job job, Touches touches = Touches::Usage);
    // Runs `sweep` every `every` while the writer runs (until the engine
    // closes), and again at once while it says more is due.
    void setSweep(Sweep sweep, std::chrono::milliseconds every);

    // submit() and wait for the answer; never on a GUI thread.
    api::Result<api::TrackTokensResponse> track(const Scope &scope,
                                                const api::TrackTokensRequest &request,
                                                const std::optional<QString> &idempotencyKey);

private:
    struct Call;
    void startLocked();
    std::vector<Call> takeLocked();
    // The first writer also runs the jobs and the clock's sweep.
    void work(bool first);
    void apply(std::vector<Call> &calls);
    void countBatch(std::size_t calls);
    void applyAt(std::vector<Call> &calls, qint64 nowMs);
    void runSweep(bool callsComing);

    Database &m_database;
    TrackCache m_cache; // the writer thread's, on SQLite
    Clock m_clock;
    Ahead m_ahead;
    CatalogueSource m_catalogue;

    std::mutex m_mutex;
    std::condition_variable m_arrived;
    std::deque<Call> m_waiting;
    std::deque<std::pair<Job, Touches>> m_jobs;
    Sweep m_sweep;
    std::chrono::milliseconds m_sweepEvery{0};
    std::chrono::steady_clock::time_point m_sweepAt;
    std::atomic<std::chrono::steady_clock::rep> m_lastBatch{0}; // either writer's
    std::set<qint64> m_inHand; // customers of the batches being applied
    mutable std::mutex m_sizesMutex;
    BatchSizes m_sizes;
    // While calls come, a sweep step of d is followed by 3·d of calls alone;
    // by 5·d after one that closed statements (docs/performance.md,
    // "Statements and revenue").
    static constexpr int SweepShareWait = 3;
    static constexpr int ClosingShareWait = 5;
    bool m_stopping = false;
    std::unique_ptr<QThread> m_writer; // started by start() or with the first call
    // PostgreSQL: a second writer, so that one batch's statements run in the
    // database while the other is planned (docs/performance.md, "Usage in bulk").
    std::unique_ptr<QThread> m_second;
    // It takes calls only when this many wait: below that, one writer keeps
    // its batches large (single calls cost 30 % more CPU with two: bench_track).
    static constexpr qsizetype SecondWriterAfter = 64;
};

} // namespace md::engine
