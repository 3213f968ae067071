#include "services/engine/track/QueuedCalls.h"

#include "services/api/TrackUsage.h"
#include "services/api/WireCodec.h"
#include "services/engine/sql/PostgresArray.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/track/CallResolver.h"
#include "services/engine/track/FailedEvents.h"
#include "services/engine/track/TrackBatch.h"

#include <map>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;

namespace {

// The stored calls a batch applied: one statement on PostgreSQL, a prepared
// one per call on SQLite (where a statement costs microseconds, not a round trip).
api::Result<api::Done> removeApplied(const QSqlDatabase &db, Dialect dialect,
                                     const QList<qint64> &pks)
{
    if (dialect == Dialect::Postgres)
        return pks.isEmpty() ? api::Result<api::Done>(api::Done{})
                             : execute(db, u"DELETE FROM track_queue WHERE pk = ANY(?::bigint[])"_s,
                                       {PostgresArray::of(pks)});
    for (qint64 pk : pks)
        if (auto removed = execute(db, u"DELETE FROM track_queue WHERE pk = ?"_s, {pk}); !removed)
            return removed;
    return api::Done{};
}

} // namespace

api::Result<qsizetype> QueuedCalls::apply(const QSqlDatabase &db, Dialect dialect, qsizetype limit,
                                          const NowOf &nowOf, const PriceCatalogue &catalogue)
{
    WriteTransaction transaction(db, dialect);
    if (auto begun = transaction.begin(); !begun)
        return begun.error();
    auto claimed =
        queryRows(db,
                  u"SELECT pk, org_pk, env, request, idempotency_key, key_pk FROM track_queue"
                  // In the pending index's own order (failed_at is null in
                  // every row): PostgreSQL sorted the whole backlog for
                  // `ORDER BY pk` alone (tst_queryplans).
                  " WHERE failed_at IS NULL ORDER BY failed_at, pk LIMIT %1%2"_s.arg(limit)
                      .arg(dialect == Dialect::Postgres ? u" FOR UPDATE SKIP LOCKED"_s : QString()),
                  {});
    if (!claimed)
        return claimed.error();
    if (claimed.value().isEmpty())
        return 0;
    // Resolved first, so the batch can lock every customer at once, in order.
    struct Stored
    {
        qint64 pk;
        Scope scope;
        api::Result<api::TrackTokensRequest> request;
        std::optional<QString> key;
        api::Result<ResolvedCall> resolved = ResolvedCall();
    };
    QList<Stored> stored;
    QList<qint64> customers;
    QList<qint64> features;
    CallTargets targets; // calls for one customer, entity and feature share one look-up
    const auto resolve = [&](const Scope &scope, const api::TrackTokensRequest &request) {
        return targets.resolve(db, scope, request, catalogue);
    };
    // The batch's now is the oldest call's scope's; a call of a scope with
    // another now (a sandbox whose clock moved, or production beside it)
    // stays queued for the next batch.
    std::optional<qint64> batchNow;
    std::map<std::pair<qint64, Environment>, qint64> nowByScope;
    for (const QVariantList &row : std::as_const(claimed.value())) {
        Stored call{row.at(0).toLongLong(),
                    {row.at(1).toLongLong(),
                     environmentFromWord(row.at(2).toString()).value_or(Environment::Sandbox),
                     row.at(5).toLongLong()},
                    api::readCallText(row.at(3).toString().toUtf8()),
                    row.at(4).isNull() ? std::nullopt
                                       : std::optional<QString>(row.at(4).toString())};
        const auto scopeKey = std::pair{call.scope.orgPk, call.scope.env};
        auto known = nowByScope.find(scopeKey);
        if (known == nowByScope.end())
            known = nowByScope.emplace(scopeKey, nowOf(call.scope)).first;
        if (!batchNow)
            batchNow = known->second;
        if (known->second != *batchNow)
            continue;
        call.resolved = call.request ? resolve(call.scope, call.request.value())
                                     : api::Result<ResolvedCall>(call.request.error());
        if (!call.resolved && call.resolved.error().status >= 500)
            return call.resolved.error();
        if (call.resolved) {
            customers.append(call.resolved.value().customerPk);
            features.append(call.resolved.value().featurePk);
        }
        stored.append(std::move(call));
    }
    const qint64 nowMs = *batchNow;
    TrackBatch batch(db, dialect, nowMs);
    if (auto locked = batch.lockCustomers(customers, features); !locked)
        return locked.error();
    std::map<std::pair<qint64, QString>, std::pair<Scope, QList<ResolvedCall>>> byScope;
    for (const Stored &call : std::as_const(stored))
        if (call.resolved) {
            auto &scoped = byScope[{call.scope.orgPk, call.scope.envWord()}];
            scoped.first = call.scope;
            scoped.second.append(call.resolved.value());
        }
    for (const auto &[key, scoped] : byScope) {
        if (auto current = batch.catchUp(scoped.first, scoped.second); !current)
            return current.error();
        if (auto read = batch.prefetch(scoped.first, scoped.second); !read)
            return read.error();
    }
    QList<qint64> applied;
    QList<std::pair<qint64, ApiError>> failed;
    QHash<qint64, Scope> scopes; // of each call, for the failed ones' events
    for (const Stored &call : std::as_const(stored)) {
        scopes.insert(call.pk, call.scope);
        auto added = call.resolved ? batch.add(call.scope, call.request.value(),
                                               call.resolved.value(), call.key)
                                   : api::Result<api::TrackTokensResponse>(call.resolved.error());
        if (added)
            applied.append(call.pk);
        else if (added.error().status >= 500)
            return added.error(); // the database, not the call: roll back, retry later
        else
            failed.append({call.pk, added.error()});
    }
    // A savepoint: a lone call whose key another server recorded meanwhile
    // fails alone, and the batch is kept.
    if (auto saved = runSql(db, u"SAVEPOINT queued_batch"_s); !saved)
        return saved.error();
    if (auto flushed = batch.flush(); !flushed) {
        if (flushed.error().status >= 500 || applied.size() != 1)
            return flushed.error();
        if (auto undone = runSql(db, u"ROLLBACK TO SAVEPOINT queued_batch"_s); !undone)
            return undone.error();
        failed.append({applied.takeFirst(), flushed.error()});
    }
    if (auto released = runSql(db, u"RELEASE SAVEPOINT queued_batch"_s); !released)
        return released.error();
    if (auto removed = removeApplied(db, dialect, applied); !removed)
        return removed.error();
    // Never before it arrived: the drain's now is read before it claims
    // calls, and a call can arrive (and commit) in between.
    for (const auto &[pk, error] : std::as_const(failed)) {
        if (auto marked = execute(db,
                                  u"UPDATE track_queue SET failed_at = CASE WHEN received_at > ?"
                                  " THEN received_at ELSE ? END, error = ?,"
                                  " error_code = ?, error_status = ? WHERE pk = ?"_s,
                                  {nowMs, nowMs, error.message, error.code, error.status, pk});
            !marked)
            return marked.error();
        if (auto told = FailedEvents::tell(db, dialect, scopes.value(pk), pk, nowMs); !told)
            return told.error();
    }
    if (auto committed = transaction.commit(); !committed)
        return committed.error();
    return stored.size();
}

} // namespace md::engine
