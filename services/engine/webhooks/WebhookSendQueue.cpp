#include "services/engine/webhooks/WebhookSendQueue.h"

#include "services/engine/ids/PublicIds.h"
#include "services/engine/sql/Sql.h"

#include <QRandomGenerator>

#include <algorithm>
#include <map>

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

// Each endpoint's oldest pending delivery: the one that must go first.
const QString FirstPending =
    u"(SELECT MIN(p.pk) FROM webhook_deliveries p WHERE p.endpoint_pk = e.pk"
    " AND p.status = 'pending')"_s;

} // namespace

WebhookSendQueue::WebhookSendQueue(QSqlDatabase db, Dialect dialect, QString owner)
    : m_db(std::move(db))
    , m_dialect(dialect)
    , m_owner(std::move(owner))
{}

api::Result<std::optional<WebhookSendQueue::Batch>>
WebhookSendQueue::claim(qint64 nowMs, std::chrono::milliseconds lease, qsizetype most,
                        const Eligible &eligible)
{
    // Looked for first outside a transaction: an idle sender takes no write lock.
    // A lease (or a rest after a failure) ends at lease_until.
    QString sql = u"SELECT e.pk FROM webhook_endpoints e JOIN webhook_deliveries d ON d.pk = "_s +
                  FirstPending +
                  u" WHERE e.disabled_at IS NULL AND (e.lease_until IS NULL OR"
                  " e.lease_until <= ?) AND d.next_attempt_at <= ?"_s;
    QVariantList binds{nowMs, nowMs};
    if (!eligible.failing)
        sql += u" AND e.failing_since IS NULL"_s;
    if (!eligible.fullOrganizations.isEmpty())
        sql += u" AND NOT ("_s +
               inKeys(m_dialect, u"e.org_pk"_s, eligible.fullOrganizations, binds) + u')';
    auto due = queryRows(m_db, sql + u" ORDER BY d.next_attempt_at, e.pk LIMIT 1"_s, binds);
    if (!due)
        return due.error();
    if (due.value().isEmpty())
        return std::optional<Batch>();
    Batch batch;
    batch.endpointPk = due.value().first().first().toLongLong();
    // This claim's own token: a sender whose lease ran out (and was taken
    // again, maybe by a thread of the same server) records nothing.
    batch.lease =
        u"%1/%2"_s.arg(m_owner).arg(QRandomGenerator::system()->generate64(), 16, 16, QChar(u'0'));
    WriteTransaction transaction(m_db, m_dialect);
    if (auto begun = transaction.begin(); !begun)
        return begun.error();
    // Another sender may have taken it since the read: the update decides.
    {
        auto leased = runSql(m_db,
                             u"UPDATE webhook_endpoints SET lease_owner = ?, lease_until = ?"
                             " WHERE pk = ? AND disabled_at IS NULL"
                             " AND (lease_until IS NULL OR lease_until <= ?)"_s,
                             {batch.lease, nowMs + qint64(lease.count()), batch.endpointPk, nowMs});
        if (!leased)
            return leased.error();
        if (leased.value().numRowsAffected() != 1)
            return std::optional<Batch>();
    }
    // Read under the lease: a URL changed or a secret rotated before it is the one used.
    auto endpoint = queryRows(m_db,
                              u"SELECT url, secret, previous_secret, previous_until, org_pk,"
                              " failing_since FROM webhook_endpoints WHERE pk = ?"_s,
                              {batch.endpointPk});
    if (!endpoint)
        return endpoint.error();
    const QVariantList &held = endpoint.value().first();
    batch.url = held.at(0).toString();
    batch.secrets.append(held.at(1).toString());
    if (!held.at(2).isNull() && held.at(3).toLongLong() > nowMs)
        batch.secrets.append(held.at(2).toString());
    batch.orgPk = held.at(4).toLongLong();
    batch.failing = !held.at(5).isNull();
    auto rows = queryRows(m_db,
                          u"SELECT d.pk, d.event_pk, d.next_attempt_at, ev.at, ev.body, d.attempts"
                          " FROM webhook_deliveries d JOIN webhook_events ev ON ev.pk = d.event_pk"
                          " WHERE d.endpoint_pk = ? AND d.status = 'pending'"
                          " ORDER BY d.pk LIMIT ?"_s,
                          {batch.endpointPk, most});
    if (!rows)
        return rows.error();
    auto ids = PublicIds::of(m_db);
    if (!ids)
        return ids.error();
    for (const QVariantList &row : std::as_const(rows.value())) {
        if (row.at(2).toLongLong() > nowMs)
            break; // waiting for its retry, and everything after it waits too
        batch.items.append({row.at(0).toLongLong(),
                            ids.value().make(PublicIds::Kind::WebhookEvent, row.at(1).toLongLong()),
                            row.at(3).toLongLong(), row.at(4).toString().toUtf8(),
                            row.at(5).toLongLong()});
    }
    if (auto committed = transaction.commit(); !committed)
        return committed.error();
    return std::optional(std::move(batch));
}

api::Result<api::Done> WebhookSendQueue::finish(const Batch &batch, const QList<Outcome> &outcomes,
                                                qint64 nowMs)
{
    WriteTransaction transaction(m_db, m_dialect);
    if (auto begun = transaction.begin(); !begun)
        return begun.error();
    const qsizetype tried = std::min(outcomes.size(), batch.items.size());
    const bool anyDelivered = std::any_of(outcomes.cbegin(), outcomes.cbegin() + tried,
                                          [](const Outcome &o) { return o.delivered; });
    // A sender stops at its first failure: only the last attempt can have failed.
    const bool anyFailed = tried > 0 && !outcomes.at(tried - 1).delivered;
    // The lease ends; an endpoint's health follows its last attempt.
    QString health;
    QVariantList binds;
    if (anyFailed && !anyDelivered) {
        health = u", failing_since = COALESCE(failing_since, CAST(? AS BIGINT)),"
                 " disabled_at = COALESCE(disabled_at, CASE WHEN COALESCE(failing_since,"
                 " CAST(? AS BIGINT)) <= CAST(? AS BIGINT) THEN CAST(? AS BIGINT) END),"
                 " disabled_reason = COALESCE(disabled_reason, CASE WHEN COALESCE(failing_since,"
                 " CAST(? AS BIGINT)) <= CAST(? AS BIGINT) THEN CAST(? AS TEXT) END)"_s;
        const qint64 cutoff = nowMs - DisableAfterMs;
        const QString reason =
            u"disabled after five days in which every attempt failed; fix the receiver, then"
            " enable it again: its pending deliveries are sent then"_s;
        binds << nowMs << nowMs << cutoff << nowMs << nowMs << cutoff << reason;
    } else if (anyDelivered && !anyFailed) {
        health = u", failing_since = NULL"_s;
    } else if (anyDelivered) {
        health = u", failing_since = CAST(? AS BIGINT)"_s; // delivered some, then failed
        binds << nowMs;
    }
    // After a failure the endpoint rests: no sender takes it until then.
    binds.prepend(anyFailed ? QVariant(nowMs + RestAfterFailureMs) : QVariant());
    binds << batch.endpointPk << batch.lease;
    // First: the lease must still be this claim's, or nothing is recorded
    // (the deliveries go again, with the same ids, from whoever holds it).
    {
        auto released = runSql(m_db,
                               u"UPDATE webhook_endpoints SET lease_owner = NULL,"
                               " lease_until = CAST(? AS BIGINT)"_s +
                                   health + u" WHERE pk = ? AND lease_owner = ?"_s,
                               binds);
        if (!released)
            return released.error();
        if (released.value().numRowsAffected() != 1)
            return api::ApiError::internal(
                u"the lease on webhook endpoint %1 ran out before its attempts were recorded;"
                " they are made again"_s.arg(batch.endpointPk));
    }
    // Successes in one statement per answer (a receiver mostly answers
    // alike): one round trip for a batch, not one per delivery.
    std::map<std::pair<int, QString>, QList<qint64>> delivered;
    for (qsizetype i = 0; i < tried; ++i) {
        const Outcome &outcome = outcomes.at(i);
        const Item &item = batch.items.at(i);
        if (outcome.delivered) {
            delivered[{outcome.statusCode.value_or(0), QString::fromUtf8(outcome.answer)}].append(
                item.deliveryPk);
            continue;
        }
        const qint64 made = item.attempts + 1;
        const bool last = made >= MaxAttempts;
        if (auto recorded = execute(
                m_db,
                u"UPDATE webhook_deliveries SET status = ?, attempts = ?, next_attempt_at = ?,"
                " last_attempt_at = ?, last_status = ?, last_answer = ?, last_error = ?"
                " WHERE pk = ?"_s,
                {last ? u"failed"_s : u"pending"_s, made,
                 last ? QVariant() : QVariant(nowMs + RetryDelaysMs.at(std::size_t(made - 1))),
                 nowMs, outcome.statusCode ? QVariant(*outcome.statusCode) : QVariant(),
                 outcome.statusCode ? QVariant(QString::fromUtf8(outcome.answer)) : QVariant(),
                 outcome.error.isEmpty() ? QVariant() : QVariant(outcome.error), item.deliveryPk});
            !recorded)
            return recorded.error();
    }
    for (const auto &[answer, pks] : delivered) {
        QVariantList values{nowMs, answer.first, answer.second};
        const QString in = inKeys(m_dialect, u"pk"_s, pks, values);
        if (auto recorded = execute(m_db,
                                    u"UPDATE webhook_deliveries SET status = 'succeeded',"
                                    " attempts = attempts + 1, next_attempt_at = NULL,"
                                    " last_attempt_at = ?, last_status = ?, last_answer = ?,"
                                    " last_error = NULL WHERE "_s +
                                        in,
                                    values);
            !recorded)
            return recorded.error();
    }
    return transaction.commit();
}

} // namespace md::engine
