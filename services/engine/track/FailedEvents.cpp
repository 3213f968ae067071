#include "services/engine/track/FailedEvents.h"

#include "services/engine/ids/KeysetPage.h"
#include "services/engine/ids/PublicIds.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/sql/StoredJson.h"
#include "services/engine/webhooks/WebhookOutbox.h"

#include <limits>

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

// Runs `statement` on each failed call of the scope that `ids` names, in one transaction.
api::Result<api::FailedEventOutcome> eachFailed(const QSqlDatabase &db, Dialect dialect,
                                                const Scope &scope, const QStringList &ids,
                                                const QString &statement)
{
    auto publicIds = PublicIds::of(db);
    if (!publicIds)
        return publicIds.error();
    WriteTransaction transaction(db, dialect);
    if (auto begun = transaction.begin(); !begun)
        return begun.error();
    api::FailedEventOutcome outcome;
    for (const QString &id : ids) {
        const auto row = publicIds.value().parse(PublicIds::Kind::QueuedCall, id);
        if (!row) {
            outcome.notFound.append(id);
            continue;
        }
        // A legacy id names only a call received before migration 8: on
        // SQLite a later call may have been given a key that was freed.
        const qint64 receivedBefore =
            row->legacy ? publicIds.value().legacyBefore() : std::numeric_limits<qint64>::max();
        auto found = queryRows(db,
                               u"SELECT pk FROM track_queue WHERE pk = ? AND org_pk = ?"
                               " AND env = ? AND failed_at IS NOT NULL AND received_at < ?"_s,
                               {row->pk, scope.orgPk, scope.envWord(), receivedBefore});
        if (!found)
            return found.error();
        if (found.value().isEmpty()) {
            outcome.notFound.append(id);
            continue;
        }
        if (auto done = execute(db, statement, {row->pk}); !done)
            return done.error();
        outcome.done.append(id);
    }
    if (auto committed = transaction.commit(); !committed)
        return committed.error();
    return outcome;
}

// A failed call as listed, from a row of Columns.
api::FailedEvent failedOf(const PublicIds &publicIds, const QSqlQuery &q)
{
    api::FailedEvent event;
    event.id = publicIds.make(PublicIds::Kind::QueuedCall, q.value(0).toLongLong());
    const auto stored = storedJson(q.value(1));
    event.request = stored ? stored.value() : api::JsonValue::object();
    event.customerId = event.request.value("customer_id"_L1).toString();
    event.modelId = event.request.value("model_id"_L1).toString();
    const api::JsonValue &feature = event.request.value("feature_id"_L1);
    if (feature.isString())
        event.featureId = feature.toString();
    if (!q.value(2).isNull())
        event.idempotencyKey = q.value(2).toString();
    event.receivedAt = q.value(3).toLongLong();
    event.failedAt = q.value(4).toLongLong();
    // Calls failed before the code was kept say so in the message alone. The
    // code was one of the list's when the call failed: it is read as kept.
    event.error = api::ApiError::received(q.value(7).isNull() ? 400 : q.value(7).toInt(),
                                          q.value(6).isNull()
                                              ? QString(api::wordOf(api::ErrorCode::InvalidRequest))
                                              : q.value(6).toString(),
                                          q.value(5).toString());
    return event;
}

const QString Columns = u"pk, request, idempotency_key, received_at, failed_at, error,"
                        " error_code, error_status"_s;

} // namespace

api::Result<api::Page<api::FailedEvent>>
FailedEvents::list(const QSqlDatabase &db, const Scope &scope, const api::PageRequest &request)
{
    auto before = decodeCursor(db, scope, "f1", request.startCursor, 1);
    if (!before)
        return before.error();
    auto publicIds = PublicIds::of(db);
    if (!publicIds)
        return publicIds.error();
    QString sql = u"SELECT "_s + Columns +
                  u" FROM track_queue WHERE org_pk = ? AND env = ? AND failed_at IS NOT NULL"_s;
    QVariantList binds{scope.orgPk, scope.envWord()};
    if (before.value()) {
        sql += u" AND pk < ?"_s;
        binds << before.value()->first();
    }
    sql += u" ORDER BY pk DESC LIMIT ?"_s;
    binds << request.limit + 1;
    auto query = runSql(db, sql, binds);
    if (!query)
        return query.error();
    return page<api::FailedEvent>(
        db, scope, query.value(), request.limit, "f1", 1,
        [&](const QSqlQuery &q) { return failedOf(publicIds.value(), q); });
}

api::Result<api::FailedEventOutcome> FailedEvents::retry(const QSqlDatabase &db, Dialect dialect,
                                                         const Scope &scope, const QStringList &ids)
{
    return eachFailed(db, dialect, scope, ids,
                      u"UPDATE track_queue SET failed_at = NULL, error = NULL, error_code = NULL,"
                      " error_status = NULL WHERE pk = ?"_s);
}

api::Result<api::FailedEventOutcome> FailedEvents::discard(const QSqlDatabase &db, Dialect dialect,
                                                           const Scope &scope,
                                                           const QStringList &ids)
{
    return eachFailed(db, dialect, scope, ids, u"DELETE FROM track_queue WHERE pk = ?"_s);
}

api::Result<api::Done> FailedEvents::tell(const QSqlDatabase &db, Dialect dialect,
                                          const Scope &scope, qint64 pk, qint64 nowMs)
{
    return WebhookOutbox(db, dialect, scope, nowMs)
        .addIfWanted(u"track_queue.failed"_s, [&]() -> api::Result<api::JsonValue> {
            auto publicIds = PublicIds::of(db);
            if (!publicIds)
                return publicIds.error();
            auto row =
                runSql(db, u"SELECT "_s + Columns + u" FROM track_queue WHERE pk = ?"_s, {pk});
            if (!row)
                return row.error();
            if (!row.value().next())
                return api::ApiError::internal(u"the failed call %1 was not found"_s.arg(pk));
            return jsonOf(failedOf(publicIds.value(), row.value()));
        });
}

} // namespace md::engine
