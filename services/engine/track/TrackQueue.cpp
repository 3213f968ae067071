#include "services/engine/track/TrackQueue.h"

#include "services/api/StartedThread.h"
#include "services/api/TrackUsage.h"

#include "services/engine/sql/KeyAllocator.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/track/CallCheck.h"
#include "services/engine/track/FailedEvents.h"
#include "services/engine/track/QueuedCalls.h"

#include <algorithm>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;

namespace {

// Calls applied per transaction at most (a TrackBatch: balances read and
// written once per customer and feature, one commit).
constexpr qsizetype BatchSize = 512;
// How often the worker looks for calls stored by another process.
constexpr auto PollInterval = std::chrono::seconds(1);

ApiError duplicateKey(const QString &key)
{
    return {
        409, api::ErrorCode::DuplicateIdempotencyKey,
        u"an event with Idempotency-Key \"%1\" was already recorded; nothing was deducted"_s.arg(
            key)};
}
} // namespace

struct TrackQueue::Waiting
{
    Scope scope;
    QString request; // compact JSON, timestamp filled in
    std::optional<QString> idempotencyKey;
    qint64 receivedAt = 0;
    api::Result<api::Done> result = api::Done{};
    bool done = false;
    Accepted accepted; // set: answered through it, and owned by the queue
};

TrackQueue::TrackQueue(Database &database, Clock clock, Ahead ahead, CatalogueSource catalogue)
    : m_database(database)
    , m_clock(std::move(clock))
    , m_ahead(std::move(ahead))
    , m_catalogue(std::move(catalogue))
{}

TrackQueue::~TrackQueue()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_stored.notify_all();
    if (m_worker)
        m_worker->wait();
}

api::Result<api::Done> TrackQueue::check(const Scope &scope, const api::TrackTokensRequest &request,
                                         CallTargets *targets)
{
    auto db = m_database.connection();
    if (!db)
        return db.error();
    return CallCheck::check(db.value(), m_database.dialect(), scope, request,
                            m_clock() + m_ahead(scope), *m_catalogue(), targets);
}

std::optional<ApiError>
TrackQueue::admit(const Scope &scope, const api::TrackTokensRequest &request, CallTargets *targets)
{
    {
        const std::lock_guard lock(m_mutex);
        if (m_backlog >= m_backlogLimit)
            return ApiError{503, api::ErrorCode::QueueFull,
                            u"%1 async calls are waiting to be applied; send this one again in a"
                            " moment, or without \"async\""_s.arg(m_backlog)};
    }
    if (auto checked = check(scope, request, targets); !checked)
        return checked.error();
    return std::nullopt;
}

void TrackQueue::prepare(Waiting &waiting, const Scope &scope,
                         const api::TrackTokensRequest &request,
                         const std::optional<QString> &idempotencyKey)
{
    waiting.scope = scope;
    waiting.idempotencyKey = idempotencyKey;
    waiting.receivedAt = m_clock() + m_ahead(scope);
    api::TrackTokensRequest stored = request;
    stored.timestamp = request.timestamp.value_or(waiting.receivedAt); // the event's time is now
    stored.async = false;
    waiting.request = QString::fromUtf8(api::callText(stored));
}

api::Result<api::Done> TrackQueue::enqueue(const Scope &scope,
                                           const api::TrackTokensRequest &request,
                                           const std::optional<QString> &idempotencyKey)
{
    if (auto refused = admit(scope, request))
        return *refused;
    Waiting self;
    prepare(self, scope, request, idempotencyKey);
    std::unique_lock lock(m_mutex);
    m_waiting.push_back(&self);
    while (!self.done) {
        if (m_storing)
            m_stored.wait(lock);
        else
            lead(lock);
    }
    return self.result;
}

void TrackQueue::enqueue(const Scope &scope, const api::TrackTokensRequest &request,
                         const std::optional<QString> &idempotencyKey, Accepted accepted)
{
    std::vector<Submission> one;
    one.push_back({request, idempotencyKey, std::move(accepted)});
    enqueueAll(scope, std::move(one));
}

void TrackQueue::enqueueAll(const Scope &scope, std::vector<Submission> calls)
{
    std::vector<Waiting *> admitted;
    CallTargets targets; // calls of one customer and feature share a look-up
    if (auto db = m_database.connection()) {
        QList<const api::TrackTokensRequest *> requests;
        for (const Submission &call : calls)
            requests.append(&call.request);
        // A failure here is met again, call by call, in admit().
        (void)targets.prefetch(db.value(), m_database.dialect(), scope, requests);
    }
    for (Submission &call : calls) {
        if (auto refused = admit(scope, call.request, &targets)) {
            call.accepted(*refused);
            continue;
        }
        auto self = std::make_unique<Waiting>();
        prepare(*self, scope, call.request, call.idempotencyKey);
        self->accepted = std::move(call.accepted);
        admitted.push_back(self.release()); // lead() answers and deletes it
    }
    if (admitted.empty())
        return;
    std::unique_lock lock(m_mutex);
    m_waiting.insert(m_waiting.end(), admitted.begin(), admitted.end());
    if (!m_storing)
        lead(lock);
}

void TrackQueue::lead(std::unique_lock<std::mutex> &lock)
{
    // Store everyone waiting now, then anyone who came meanwhile; nobody
    // else leads until the queue of waiting calls is empty.
    m_storing = true;
    while (!m_waiting.empty()) {
        const std::vector<Waiting *> batch = std::exchange(m_waiting, {});
        lock.unlock();
        store(batch);
        lock.lock();
        std::vector<Waiting *> answered;
        for (Waiting *waiting : batch) {
            m_backlog += waiting->result ? 1 : 0;
            if (waiting->accepted)
                answered.push_back(waiting);
            else
                waiting->done = true; // its thread may return (and free it) from here on
        }
        ++m_generation;
        m_stored.notify_all();
        lock.unlock();
        for (Waiting *waiting : answered) {
            waiting->accepted(waiting->result);
            delete waiting;
        }
        lock.lock();
    }
    m_storing = false;
    m_stored.notify_all();
}

void TrackQueue::store(const std::vector<Waiting *> &batch)
{
    const auto failAll = [&](const ApiError &error) {
        for (Waiting *waiting : batch)
            waiting->result = error;
    };
    auto db = m_database.connection();
    if (!db)
        return failAll(db.error());
    WriteTransaction transaction(db.value(), m_database.dialect());
    if (auto begun = transaction.begin(); !begun)
        return failAll(begun.error());
    QSet<QString> keysInBatch; // org, environment and key
    KeyAllocator keys(db.value(), m_database.dialect());
    for (Waiting *waiting : batch) {
        if (const auto &key = waiting->idempotencyKey) {
            const QString scoped =
                u"%1/%2/%3"_s.arg(waiting->scope.orgPk).arg(waiting->scope.envWord(), *key);
            auto seen = queryRows(db.value(),
                                  u"SELECT 1 FROM usage_events WHERE org_pk = ? AND env = ?"
                                  " AND idempotency_key = ? UNION ALL SELECT 1 FROM track_queue"
                                  " WHERE org_pk = ? AND env = ? AND idempotency_key = ?"_s,
                                  {waiting->scope.orgPk, waiting->scope.envWord(), *key,
                                   waiting->scope.orgPk, waiting->scope.envWord(), *key});
            if (!seen)
                return failAll(seen.error());
            if (!seen.value().isEmpty() || keysInBatch.contains(scoped)) {
                waiting->result = duplicateKey(*key);
                continue;
            }
            keysInBatch.insert(scoped);
        }
        auto pk = keys.next(u"track_queue"_s);
        if (!pk)
            return failAll(pk.error());
        if (auto inserted = execute(
                db.value(),
                u"INSERT INTO track_queue (pk, org_pk, env, request, idempotency_key,"
                " received_at, key_pk) VALUES (?, ?, ?, ?, ?, ?, ?)"_s,
                {pk.value(), waiting->scope.orgPk, waiting->scope.envWord(), waiting->request,
                 waiting->idempotencyKey ? QVariant(*waiting->idempotencyKey) : QVariant(),
                 waiting->receivedAt,
                 waiting->scope.keyPk ? QVariant(waiting->scope.keyPk) : QVariant()});
            !inserted)
            return failAll(inserted.error());
    }
    if (auto committed = transaction.commit(); !committed)
        return failAll(committed.error());
}

void TrackQueue::setBacklogLimit(qint64 limit)
{
    const std::lock_guard lock(m_mutex);
    m_backlogLimit = limit;
}

std::pair<qint64, qint64> TrackQueue::backlog()
{
    const std::lock_guard lock(m_mutex);
    return {m_backlog, m_backlogLimit};
}

void TrackQueue::startWorker()
{
    if (m_worker)
        return;
    m_worker = api::startThread(u"meterdesk-track-queue"_s, [this] { work(); });
}

void TrackQueue::work()
{
    quint64 seen = ~quint64(0); // first look at once: calls left by an earlier run
    for (;;) {
        {
            std::unique_lock lock(m_mutex);
            m_stored.wait_for(lock, PollInterval,
                              [&] { return m_stopping || m_generation != seen; });
            if (m_stopping)
                return;
            seen = m_generation;
        }
        for (;;) {
            auto applied = applyNext();
            if (!applied) {
                qWarning("track queue: %s; retrying shortly", qPrintable(applied.error().message));
                break;
            }
            if (applied.value() == 0)
                break;
            const std::lock_guard lock(m_mutex);
            if (m_stopping)
                return;
        }
    }
}

api::Result<qsizetype> TrackQueue::drain()
{
    qsizetype total = 0;
    for (;;) {
        auto applied = applyNext();
        if (!applied)
            return applied.error();
        if (applied.value() == 0)
            return total;
        total += applied.value();
    }
}

api::Result<qsizetype> TrackQueue::applyNext()
{
    const qsizetype limit = m_singlesLeft > 0 ? 1 : BatchSize;
    auto applied = applyBatch(limit);
    if (!applied) {
        if (limit > 1)
            m_singlesLeft = BatchSize; // the batch's calls one at a time, to find the one at fault
        return applied;
    }
    m_singlesLeft = applied.value() == 0 ? 0 : std::max<qsizetype>(0, m_singlesLeft - 1);
    const std::lock_guard lock(m_mutex);
    m_backlog = std::max<qint64>(0, m_backlog - applied.value());
    return applied;
}

api::Result<qsizetype> TrackQueue::applyBatch(qsizetype limit)
{
    auto connection = m_database.connection();
    if (!connection)
        return connection.error();
    // A sandbox whose clock was moved applies its calls at its own now, so
    // a balance expired there is not drawn on (issue 51).
    return QueuedCalls::apply(
        connection.value(), m_database.dialect(), limit,
        [this](const Scope &scope) { return m_clock() + m_ahead(scope); }, *m_catalogue());
}

api::Result<api::QueueCounts> TrackQueue::counts(const Scope &scope)
{
    auto db = m_database.connection();
    if (!db)
        return db.error();
    auto query = runSql(db.value(),
                        u"SELECT COUNT(*) - COUNT(failed_at), COUNT(failed_at) FROM track_queue"
                        " WHERE org_pk = ? AND env = ?"_s,
                        {scope.orgPk, scope.envWord()});
    if (!query)
        return query.error();
    query.value().next();
    return api::QueueCounts{query.value().value(0).toLongLong(),
                            query.value().value(1).toLongLong()};
}

api::Result<api::QueueCounts> TrackQueue::totals()
{
    auto db = m_database.connection();
    if (!db)
        return db.error();
    auto rows = queryRows(
        db.value(), u"SELECT COUNT(*) - COUNT(failed_at), COUNT(failed_at) FROM track_queue"_s, {});
    if (!rows)
        return rows.error();
    return api::QueueCounts{rows.value().first().at(0).toLongLong(),
                            rows.value().first().at(1).toLongLong()};
}

api::Result<api::FailedEventOutcome> TrackQueue::retry(const Scope &scope, const QStringList &ids)
{
    auto db = m_database.connection();
    if (!db)
        return db.error();
    auto outcome = FailedEvents::retry(db.value(), m_database.dialect(), scope, ids);
    if (outcome && !outcome.value().done.isEmpty()) {
        const std::lock_guard lock(m_mutex);
        m_backlog += outcome.value().done.size();
        ++m_generation;
        m_stored.notify_all();
    }
    return outcome;
}

} // namespace md::engine
