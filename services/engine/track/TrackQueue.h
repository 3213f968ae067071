// Asynchronous balances.track_tokens (docs/api.md, balances.track_tokens). A call is written to
// the track_queue table before it is acknowledged, so a restart loses none,
// and a worker thread applies stored calls in batches shortly after.
//
// Acknowledgements are group-committed: the first caller to find no write in
// progress stores every call waiting at that moment in one transaction, and
// goes on while more arrive; each call is acknowledged once its batch is
// durable, to a caller that waits or through a callback. That is what lets
// many calls a second be accepted with the same durability as a synchronous one.
//
// The worker applies stored calls in TrackBatches (QueuedCalls), also those
// stored by an earlier run or by another server on the same PostgreSQL
// database (rows are claimed with SKIP LOCKED). Past a bound of calls waiting
// to be applied, new ones are refused with 503 queue_full. A call
// it cannot apply (the customer lost its credit system, say) stays in the
// table with its reason (message, code and status, as a synchronous call
// would have answered) rather than vanishing: FailedEvents lists it, and it
// can be retried or discarded.
#pragma once

#include "services/api/FailedEvent.h"
#include "services/api/TrackTokens.h"
#include "services/engine/pricing/PriceCatalogue.h"
#include "services/engine/sql/Database.h"
#include "services/engine/sql/Scope.h"

#include <QSet>
#include <QThread>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace md::engine {

class CallTargets;

class TrackQueue final
{
public:
    using Clock = std::function<qint64()>;
    using Ahead = std::function<qint64(const Scope &)>; // a moved sandbox's lead
    using CatalogueSource = std::function<std::shared_ptr<const PriceCatalogue>()>;

    TrackQueue(Database &database, Clock clock, Ahead ahead, CatalogueSource catalogue);
    ~TrackQueue(); // stops the worker; calls not yet applied stay stored
    Q_DISABLE_COPY_MOVE(TrackQueue)

    // Checks everything a synchronous call would (CallCheck::check: the
    // customer, entity, credit system, model, price and limits, and a
    // repeated Idempotency-Key) and stores the call. Blocks the calling
    // thread until the call is durable; never call it from a GUI thread.
    api::Result<api::Done> enqueue(const Scope &scope, const api::TrackTokensRequest &request,
                                   const std::optional<QString> &idempotencyKey);
    // The same, answered through `accepted` once the call is durable (on
    // this thread, or on the one storing a batch then), so that no thread
    // waits for another's commit.
    using Accepted = std::function<void(api::Result<api::Done>)>;
    void enqueue(const Scope &scope, const api::TrackTokensRequest &request,
                 const std::optional<QString> &idempotencyKey, Accepted accepted);
    // Many calls of one scope (an async usage.batch): each checked and
    // answered on its own, the accepted ones stored together.
    struct Submission
    {
        api::TrackTokensRequest request;
        std::optional<QString> idempotencyKey;
        Accepted accepted;
    };
    void enqueueAll(const Scope &scope, std::vector<Submission> calls);

    // Past this many calls stored and not yet applied, enqueue() answers 503
    // queue_full (with Retry-After) rather than let the table grow unbounded.
    static constexpr qint64 DefaultBacklogLimit = 100000;
    void setBacklogLimit(qint64 limit);
    // Calls this process stored and has not applied, and the limit (/readyz).
    std::pair<qint64, qint64> backlog();

    // Starts applying stored calls on a thread of its own.
    void startWorker();
    // Applies every stored call on the calling thread: returns how many were
    // applied (failed ones stay in the table with their error).
    api::Result<qsizetype> drain();

    api::Result<api::QueueCounts> counts(const Scope &scope);
    // The same over every organization and environment (/metrics).
    api::Result<api::QueueCounts> totals();
    // Failed calls put back to be applied again; the worker looks at once.
    api::Result<api::FailedEventOutcome> retry(const Scope &scope, const QStringList &ids);

private:
    struct Waiting;
    // `targets` (optional): look-ups shared by the calls of one batch.
    api::Result<api::Done> check(const Scope &scope, const api::TrackTokensRequest &request,
                                 CallTargets *targets);
    // Refused before it is stored: the backlog past its limit, or check().
    std::optional<api::ApiError> admit(const Scope &scope, const api::TrackTokensRequest &request,
                                       CallTargets *targets = nullptr);
    void prepare(Waiting &waiting, const Scope &scope, const api::TrackTokensRequest &request,
                 const std::optional<QString> &idempotencyKey);
    // Stores batches while calls wait; called with m_mutex held, m_storing false.
    void lead(std::unique_lock<std::mutex> &lock);
    void store(const std::vector<Waiting *> &batch);
    // One batch: how many stored calls it applied or marked failed.
    api::Result<qsizetype> applyBatch(qsizetype limit);
    // The next batch; after one the database refused, its calls are taken
    // one per transaction, so a call at fault cannot hold up the others.
    api::Result<qsizetype> applyNext();
    void work();

    Database &m_database;
    Clock m_clock;
    Ahead m_ahead;
    CatalogueSource m_catalogue;

    std::mutex m_mutex;
    std::condition_variable m_stored; // a batch was stored (followers, worker)
    std::vector<Waiting *> m_waiting;
    bool m_storing = false;
    bool m_stopping = false;
    quint64 m_generation = 0; // batches stored, so the worker sees new work
    qint64 m_backlog = 0;     // calls this process stored and its worker has not applied
    qint64 m_backlogLimit = DefaultBacklogLimit;
    std::atomic<qsizetype> m_singlesLeft{0};
    std::unique_ptr<QThread> m_worker;
};

} // namespace md::engine
