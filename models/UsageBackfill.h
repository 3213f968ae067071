// Runs the usage backfill wizard's events against the backend
// (docs/user-guide.md, "Importing past usage"): the dry run, usage.batch with
// "dry_run" in requests of up to DryRunEvents that keep each customer's
// events together where they fit, so each balance's before and after are
// those of its whole backfill; then the commit, CommitEvents a request, one
// at a time in the same order, so Cancel stops after the request in flight
// and a later run resumes after the events committed. Every event carries
// an Idempotency-Key, so one sent again is "already recorded", never counted
// twice. Everything arrives on this object's thread; nothing blocks it.
#pragma once

#include "models/UsageFile.h"

#include <QObject>

namespace md::backend {
class BillingBackend;
}

namespace md::models {

class UsageBackfill final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UsageBackfill)

public:
    static constexpr int DryRunEvents = 5000;
    static constexpr int CommitEvents = 1000;

    // A valid row as sent: its line and event.
    struct Item
    {
        int line = 0;
        api::UsageBatchEvent event;
    };
    // One balance (a customer's or an entity's feature) over the backfill.
    struct Change
    {
        QString customerId;
        std::optional<QString> entityId;
        QString featureId;
        api::Decimal before; // remaining before the first event
        api::Decimal after;  // and after the last
        api::Decimal used;   // what the events took (given back: negative)
        qint64 events = 0;
        // More events than one dry run holds: later requests began again
        // from the stored balance, so `after` is an estimate.
        bool estimated = false;
    };
    struct Refusal
    {
        int line = 0;
        QString customerId;
        QString featureId;
        int status = 0;
        QString code;
        QString message;
    };

    // The valid rows in the order they are sent: by customer, then as in the file.
    static QList<Item> order(const QList<UsageRow> &rows);
    // The items' keys in order, hashed: what a journal's resume point counts in.
    static QByteArray orderHash(const QList<Item> &items);

    UsageBackfill(backend::BillingBackend *backend, QObject *parent = nullptr);

    void setItems(QList<Item> items);
    qint64 size() const { return m_items.size(); }
    void startDryRun();
    // Commits the events from `from` on (the ones before were committed by
    // an earlier run).
    void startCommit(qint64 from);
    // No request is started after this; the one in flight is answered.
    void cancel();
    bool isRunning() const { return m_running; }

    const QList<Change> &changes() const { return m_changes; }
    const QList<Refusal> &refusals() const { return m_refusals; }
    qint64 applied() const { return m_applied; }
    qint64 alreadyRecorded() const { return m_alreadyRecorded; }
    // Events the commit has been through, in order (the journal's resume point).
    qint64 committed() const { return m_next; }

Q_SIGNALS:
    void progress(qint64 done, qint64 total);
    // `error`: why the run could not go on (the server did not answer).
    void finished(bool cancelled, const QString &error);

private:
    void begin();
    void sendNext();
    void dryRunAnswered(qint64 from, qint64 to, const api::UsageBatchResponse &response);
    void commitAnswered(qint64 from, qint64 to, const api::UsageBatchResponse &response);
    void refuse(const Item &item, const api::ApiError &error);
    void stop(bool cancelled, const QString &error);

    backend::BillingBackend *m_backend;
    QList<Item> m_items;
    QList<Change> m_changes;
    QHash<QString, qsizetype> m_changeOf; // customer/entity/feature → index in m_changes
    QList<Refusal> m_refusals;
    qint64 m_applied = 0;
    qint64 m_alreadyRecorded = 0;
    qint64 m_next = 0;
    bool m_dryRun = false;
    bool m_running = false;
    bool m_cancelled = false;
    quint64 m_generation = 0; // the run whose answers are heard
};

} // namespace md::models
