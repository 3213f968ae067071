#include "services/engine/TrackQueue.h"

#include "services/api/WireCodec.h"
#include "services/engine/FailedEvents.h"
#include "services/engine/Sql.h"
#include "services/engine/StoredJson.h"
#include "services/engine/TokenLedger.h"

#include <algorithm>
#include <tuple>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;

namespace {

// Calls applied per transaction: small enough that acknowledgements never
// wait long for the writer lock.
constexpr int BatchSize = 64;
// How often the worker looks for calls stored by another process.
constexpr auto PollInterval = std::chrono::seconds(1);
// While calls keep arriving the worker pauses this long between batches, so
// acknowledging (the caller waits) comes before applying (nobody waits)...
constexpr auto YieldInterval = std::chrono::milliseconds(25);
// ...unless this many stored calls wait (some 20 seconds of applying): then
// it applies at full speed, which also slows acknowledging down.
constexpr qint64 MaxBacklog = 200000;

ApiError duplicateKey(const QString &key)
{
    return {
        409, u"duplicate_idempotency_key"_s,
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
};

TrackQueue::TrackQueue(Database &database, Clock clock, CatalogueSource catalogue)
    : m_database(database)
    , m_clock(std::move(clock))
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

api::Result<api::Done> TrackQueue::check(const Scope &scope, const api::TrackTokensRequest &request)
{
    auto db = m_database.connection();
    if (!db)
        return db.error();
    return TokenLedger::check(db.value(), scope, request, m_clock(), *m_catalogue());
}

api::Result<api::Done> TrackQueue::enqueue(const Scope &scope,
                                           const api::TrackTokensRequest &request,
                                           const std::optional<QString> &idempotencyKey)
{
    if (auto checked = check(scope, request); !checked)
        return checked;
    Waiting self;
    self.scope = scope;
    self.idempotencyKey = idempotencyKey;
    self.receivedAt = m_clock();
    api::TrackTokensRequest stored = request;
    stored.timestamp = request.timestamp.value_or(self.receivedAt); // the event's time is now
    stored.async = false;
    self.request = storedText(stored);

    std::unique_lock lock(m_mutex);
    m_waiting.push_back(&self);
    while (!self.done) {
        if (m_storing) {
            m_stored.wait(lock);
            continue;
        }
        // Lead: store everyone waiting now, ourselves included.
        m_storing = true;
        const std::vector<Waiting *> batch = std::exchange(m_waiting, {});
        lock.unlock();
        store(batch);
        lock.lock();
        for (Waiting *waiting : batch) {
            waiting->done = true;
            m_backlog += waiting->result ? 1 : 0;
        }
        m_storing = false;
        ++m_generation;
        m_stored.notify_all();
    }
    return self.result;
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
                " received_at) VALUES (?, ?, ?, ?, ?, ?)"_s,
                {pk.value(), waiting->scope.orgPk, waiting->scope.envWord(), waiting->request,
                 waiting->idempotencyKey ? QVariant(*waiting->idempotencyKey) : QVariant(),
                 waiting->receivedAt});
            !inserted)
            return failAll(inserted.error());
    }
    if (auto committed = transaction.commit(); !committed)
        return failAll(committed.error());
}

void TrackQueue::startWorker()
{
    if (m_worker)
        return;
    m_worker.reset(QThread::create([this] { work(); }));
    m_worker->setObjectName(u"meterdesk-track-queue"_s);
    m_worker->start();
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
            auto applied = applyBatch();
            if (!applied) {
                qWarning("track queue: %s; retrying shortly", qPrintable(applied.error().message));
                break;
            }
            if (applied.value() == 0)
                break;
            std::unique_lock lock(m_mutex);
            m_backlog = std::max<qint64>(0, m_backlog - applied.value());
            if (m_generation != seen && m_backlog < MaxBacklog) {
                seen = m_generation; // calls arrived meanwhile: let them in first
                m_stored.wait_for(lock, YieldInterval, [&] { return m_stopping; });
            }
            if (m_stopping)
                return;
        }
    }
}

api::Result<qsizetype> TrackQueue::drain()
{
    qsizetype total = 0;
    for (;;) {
        auto applied = applyBatch();
        if (!applied)
            return applied.error();
        if (applied.value() == 0)
            return total;
        total += applied.value();
    }
}

api::Result<qsizetype> TrackQueue::applyBatch()
{
    auto connection = m_database.connection();
    if (!connection)
        return connection.error();
    const QSqlDatabase &db = connection.value();
    const Dialect dialect = m_database.dialect();
    WriteTransaction transaction(db, dialect);
    if (auto begun = transaction.begin(); !begun)
        return begun.error();
    auto claimed =
        queryRows(db,
                  u"SELECT pk, org_pk, env, request, idempotency_key FROM track_queue"
                  " WHERE failed_at IS NULL ORDER BY pk LIMIT %1%2"_s.arg(BatchSize)
                      .arg(dialect == Dialect::Postgres ? u" FOR UPDATE SKIP LOCKED"_s : QString()),
                  {});
    if (!claimed)
        return claimed.error();
    struct Stored
    {
        qint64 pk;
        Scope scope;
        api::Result<api::TrackTokensRequest> request;
        std::optional<QString> key;
    };
    QList<Stored> stored;
    for (const QVariantList &row : std::as_const(claimed.value()))
        stored.append(
            {row.at(0).toLongLong(),
             {row.at(1).toLongLong(),
              environmentFromWord(row.at(2).toString()).value_or(Environment::Test)},
             api::decodeBody<api::TrackTokensRequest>(row.at(3).toString().toUtf8()),
             row.at(4).isNull() ? std::nullopt : std::optional<QString>(row.at(4).toString())});
    if (stored.isEmpty())
        return 0;
    // Applying a call locks its customer until the batch commits. Taking those
    // locks in one global order (stable, so each customer's calls keep theirs)
    // is what keeps two servers' batches from deadlocking on PostgreSQL.
    const auto customerOf = [](const Stored &call) {
        return std::tuple(call.scope.orgPk, call.scope.envWord(),
                          call.request ? call.request.value().customerId : QString());
    };
    std::stable_sort(stored.begin(), stored.end(), [&](const Stored &a, const Stored &b) {
        return customerOf(a) < customerOf(b);
    });
    const std::shared_ptr<const PriceCatalogue> catalogue = m_catalogue();
    for (const Stored &call : std::as_const(stored)) {
        // A savepoint per call: one that fails leaves the others' writes intact.
        if (auto saved = runSql(db, u"SAVEPOINT queued_call"_s); !saved)
            return saved.error();
        auto applied = call.request
                           ? TokenLedger::apply(db, dialect, call.scope, call.request.value(),
                                                call.key, m_clock(), *catalogue)
                           : api::Result<api::TrackTokensResponse>(call.request.error());
        if (applied) {
            if (auto released = runSql(db, u"RELEASE SAVEPOINT queued_call"_s); !released)
                return released.error();
            if (auto removed = execute(db, u"DELETE FROM track_queue WHERE pk = ?"_s, {call.pk});
                !removed)
                return removed.error();
            continue;
        }
        if (applied.error().status >= 500)
            return applied.error(); // the database, not the call: roll back, retry later
        if (auto undone = runSql(db, u"ROLLBACK TO SAVEPOINT queued_call"_s); !undone)
            return undone.error();
        if (auto released = runSql(db, u"RELEASE SAVEPOINT queued_call"_s); !released)
            return released.error();
        if (auto failed = execute(db,
                                  u"UPDATE track_queue SET failed_at = ?, error = ?,"
                                  " error_code = ?, error_status = ? WHERE pk = ?"_s,
                                  {m_clock(), applied.error().message, applied.error().code,
                                   applied.error().status, call.pk});
            !failed)
            return failed.error();
    }
    if (auto committed = transaction.commit(); !committed)
        return committed.error();
    return stored.size();
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
