// Synchronous balances.track_tokens with group commit (docs/performance.md).
// A call is resolved and priced on the caller's thread (many at once), then
// handed to this engine's one writer thread, which applies whatever is
// waiting, up to MaxBatch calls, as one TrackBatch: one transaction, one
// commit for all of them, balances read and written once per customer and
// feature. Each call still gets its own answer, after its batch committed,
// so durability is that of a call of its own. (A thread of its own measured
// faster than letting the first waiting caller apply the batch: the
// callers' threads go back to reading requests meanwhile.) A refusal (a limit,
// a repeated Idempotency-Key) answers only that call; if the database fails a
// batch, its calls are applied again one by one, so one call cannot fail its
// neighbours.
#pragma once

#include "services/api/TrackTokens.h"
#include "services/engine/pricing/PriceCatalogue.h"
#include "services/engine/sql/Database.h"
#include "services/engine/sql/Scope.h"
#include "services/engine/track/TrackBatch.h"

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>

#include <QThread>

namespace md::engine {

class TrackWriter final
{
public:
    using Clock = std::function<qint64()>;
    using CatalogueSource = std::function<std::shared_ptr<const PriceCatalogue>()>;
    using Answer = std::function<void(api::Result<api::TrackTokensResponse>)>;
    // Calls per transaction at most: a batch takes a few milliseconds.
    static constexpr qsizetype MaxBatch = 512;

    TrackWriter(Database &database, Clock clock, CatalogueSource catalogue);
    ~TrackWriter(); // answers every call handed over, then stops
    Q_DISABLE_COPY_MOVE(TrackWriter)

    // `answer` runs once: on this thread for a call refused before it is
    // handed over, else on the writer thread after the call's batch.
    void submit(const Scope &scope, const api::TrackTokensRequest &request,
                const std::optional<QString> &idempotencyKey, Answer answer);
    // Starts the writer thread now rather than with the first call: a server
    // makes its threads before clients can exhaust its file descriptors (a
    // thread started then aborts the process in GLib).
    void start();
    // submit() and wait for the answer; never on a GUI thread.
    api::Result<api::TrackTokensResponse> track(const Scope &scope,
                                                const api::TrackTokensRequest &request,
                                                const std::optional<QString> &idempotencyKey);

private:
    struct Call;
    void startLocked();
    void work();
    void apply(std::vector<Call> &calls);

    Database &m_database;
    TrackCache m_cache; // the writer thread's, on SQLite
    Clock m_clock;
    CatalogueSource m_catalogue;

    std::mutex m_mutex;
    std::condition_variable m_arrived;
    std::deque<Call> m_waiting;
    bool m_stopping = false;
    std::unique_ptr<QThread> m_writer; // started by start() or with the first call
};

} // namespace md::engine
