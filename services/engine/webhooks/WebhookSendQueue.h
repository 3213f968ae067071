// What the webhook senders take and give back (docs/api.md, "Webhooks:
// delivered at least once"). A sender leases one endpoint at a time and
// takes its oldest pending deliveries in event order, so deliveries to one
// endpoint leave in the order their events happened and, with several
// servers on one PostgreSQL database, each attempt is made by one server.
// A lease ends when its attempts are recorded, or runs out (a server that
// died holding it), and the next sender sends the same events again with
// the same webhook-id.
#pragma once

#include "services/api/Result.h"
#include "services/engine/sql/Dialect.h"

#include <QSqlDatabase>
#include <QStringList>

#include <array>
#include <chrono>
#include <optional>

namespace md::engine {

class WebhookSendQueue final
{
public:
    // The wait after each failed attempt, then the delivery has failed:
    // at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h.
    static constexpr std::array<qint64, 7> RetryDelaysMs{
        5'000, 300'000, 1'800'000, 7'200'000, 18'000'000, 36'000'000, 36'000'000};
    static constexpr qint64 MaxAttempts = qint64(RetryDelaysMs.size()) + 1;
    // An endpoint failing this long (its first failure since a success) is disabled.
    static constexpr qint64 DisableAfterMs = 5LL * 24 * 3600 * 1000;
    // An endpoint whose last attempt failed is not tried again for this
    // long, whatever is due (a redelivery, a test event): redeliver in a
    // loop tries a receiver that hangs once per deadline and rest at most.
    static constexpr qint64 RestAfterFailureMs = RetryDelaysMs[0];

    struct Item
    {
        qint64 deliveryPk = 0;
        QString messageId; // msg_…: webhook-id
        qint64 eventAt = 0;
        QByteArray body;
        qint64 attempts = 0; // made before this one
    };
    struct Batch
    {
        qint64 endpointPk = 0;
        qint64 orgPk = 0;
        bool failing = false; // its last attempt failed
        QString lease;        // this claim's token in lease_owner
        QString url;
        QStringList secrets; // the current one, and the previous one within its day
        QList<Item> items;   // in event order
    };
    struct Outcome
    {
        bool delivered = false;        // the receiver answered 2xx
        std::optional<int> statusCode; // its status, when it answered
        QByteArray answer;             // its answer's first bytes
        QString error;                 // no answer: why
    };

    // Which endpoints a sender may take now (docs/operations.md, "Webhooks"):
    // none of an organization that already has its share in flight, and
    // none that is failing once the failing ones have theirs.
    struct Eligible
    {
        QList<qint64> fullOrganizations;
        bool failing = true;
    };

    WebhookSendQueue(QSqlDatabase db, Dialect dialect, QString owner);

    // The eligible endpoint whose first due delivery has waited longest,
    // leased to this sender until now + `lease`, with up to `most` of its
    // deliveries; nullopt when none is due.
    api::Result<std::optional<Batch>> claim(qint64 nowMs, std::chrono::milliseconds lease,
                                            qsizetype most, const Eligible &eligible);
    // Records the outcomes of the batch's first items, in order (a sender
    // stops at the first failure: later events wait behind it), and ends the
    // lease (after a failure, the endpoint rests RestAfterFailureMs); records
    // nothing (an error) when the lease is no longer this claim's.
    api::Result<api::Done> finish(const Batch &batch, const QList<Outcome> &outcomes, qint64 nowMs);

private:
    QSqlDatabase m_db;
    Dialect m_dialect;
    QString m_owner;
};

} // namespace md::engine
