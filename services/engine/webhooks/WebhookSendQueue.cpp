#include "services/engine/webhooks/WebhookSendQueue.h"

#include "services/engine/ids/PublicIds.h"
#include "services/engine/sql/Sql.h"

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
WebhookSendQueue::claim(qint64 nowMs, std::chrono::milliseconds lease, qsizetype most)
{
    // Looked for first outside a transaction: an idle sender takes no write lock.
    auto due = queryRows(m_db,
                         u"SELECT e.pk, e.url, e.secret, e.previous_secret, e.previous_until"
                         " FROM webhook_endpoints e JOIN webhook_deliveries d ON d.pk = "_s +
                             FirstPending +
                             u" WHERE e.disabled_at IS NULL AND (e.lease_until IS NULL OR"
                             " e.lease_until < ?) AND d.next_attempt_at <= ?"
                             " ORDER BY d.next_attempt_at, e.pk LIMIT 1"_s,
                         {nowMs, nowMs});
    if (!due)
        return due.error();
    if (due.value().isEmpty())
        return std::optional<Batch>();
    const QVariantList &endpoint = due.value().first();
    Batch batch;
    batch.endpointPk = endpoint.at(0).toLongLong();
    batch.url = endpoint.at(1).toString();
    batch.secrets.append(endpoint.at(2).toString());
    if (!endpoint.at(3).isNull() && endpoint.at(4).toLongLong() > nowMs)
        batch.secrets.append(endpoint.at(3).toString());
    WriteTransaction transaction(m_db, m_dialect);
    if (auto begun = transaction.begin(); !begun)
        return begun.error();
    // Another sender may have taken it since the read: the update decides.
    {
        auto leased = runSql(m_db,
                             u"UPDATE webhook_endpoints SET lease_owner = ?, lease_until = ?"
                             " WHERE pk = ? AND disabled_at IS NULL"
                             " AND (lease_until IS NULL OR lease_until < ?)"_s,
                             {m_owner, nowMs + qint64(lease.count()), batch.endpointPk, nowMs});
        if (!leased)
            return leased.error();
        if (leased.value().numRowsAffected() != 1)
            return std::optional<Batch>();
    }
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
    bool anyFailed = false;
    // Successes in one statement per answer (a receiver mostly answers
    // alike): one round trip for a batch, not one per delivery.
    std::map<std::pair<int, QString>, QList<qint64>> delivered;
    for (qsizetype i = 0; i < outcomes.size() && i < batch.items.size(); ++i) {
        const Outcome &outcome = outcomes.at(i);
        const Item &item = batch.items.at(i);
        if (outcome.delivered) {
            delivered[{outcome.statusCode.value_or(0), QString::fromUtf8(outcome.answer)}].append(
                item.deliveryPk);
            continue;
        }
        anyFailed = true;
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
    const bool anyDelivered = !delivered.empty();
    for (const auto &[answer, pks] : delivered) {
        QVariantList binds{nowMs, answer.first, answer.second};
        const QString in = inKeys(m_dialect, u"pk"_s, pks, binds);
        if (auto recorded = execute(m_db,
                                    u"UPDATE webhook_deliveries SET status = 'succeeded',"
                                    " attempts = attempts + 1, next_attempt_at = NULL,"
                                    " last_attempt_at = ?, last_status = ?, last_answer = ?,"
                                    " last_error = NULL WHERE "_s +
                                        in,
                                    binds);
            !recorded)
            return recorded.error();
    }
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
    binds << batch.endpointPk << m_owner;
    if (auto released = execute(m_db,
                                u"UPDATE webhook_endpoints SET lease_owner = NULL,"
                                " lease_until = NULL"_s +
                                    health + u" WHERE pk = ? AND lease_owner = ?"_s,
                                binds);
        !released)
        return released.error();
    return transaction.commit();
}

api::Result<std::optional<qint64>> WebhookSendQueue::nextDue()
{
    auto rows =
        queryRows(m_db,
                  u"SELECT MIN(CASE WHEN e.lease_until > d.next_attempt_at THEN e.lease_until"
                  " ELSE d.next_attempt_at END)"
                  " FROM webhook_endpoints e JOIN webhook_deliveries d ON d.pk = "_s +
                      FirstPending + u" WHERE e.disabled_at IS NULL"_s,
                  {});
    if (!rows)
        return rows.error();
    const QVariant first = rows.value().value(0).value(0);
    return first.isNull() ? std::nullopt : std::optional(first.toLongLong());
}

} // namespace md::engine
