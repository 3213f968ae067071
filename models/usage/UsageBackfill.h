// Runs the usage backfill wizard's events against the backend
// (docs/user-guide.md, "Importing past usage"): the dry run, usage.batch with
// "dry_run" in requests of up to DryRunEvents, then the commit, CommitEvents
// a request, in the same order. Requests end where a customer's events end
// wherever they fit, so each balance's before and after are those of its
// whole backfill; and two commit requests are in flight at once when they
// share no customer, so that the server resolves one while it writes the other
// (docs/performance.md, "Usage in bulk") and no balance sees its events out
// of order. Answers are taken in the order sent: Cancel stops after the
// requests in flight, and a later run resumes after the events committed.
// Every event carries an Idempotency-Key, so one sent again is "already
// recorded", never counted twice. Everything arrives on this object's
// thread; nothing blocks it.
#pragma once

#include "models/usage/UsageFile.h"

#include <QObject>

#include <deque>

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
    // A dry run plans on the calling thread, so two would take both cores
    // from the window (measured: stalls of 42 ms against 13 to 28); a commit
    // is written on the engine's one writer thread.
    static constexpr std::size_t CommitsInFlight = 2;

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
        // What the events took off `remaining` (given back: negative): the
        // rise in usage, so that before − used = after.
        api::Decimal used;
        // And what they drew from rollovers, which `remaining` leaves out.
        api::Decimal fromRollovers;
        qint64 events = 0;
        // More events than one dry run holds: later requests began again
        // from the stored balance, so `after` is an estimate.
        bool estimated = false;
    };
    // Events of a feature their customer (or the entity named) holds no
    // balance of: recorded, drawing on nothing.
    struct NoBalance
    {
        QString customerId;
        std::optional<QString> entityId;
        QString featureId;
        qint64 events = 0;
        api::Decimal value; // what they said, in all
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
    // No request is started after this; the ones in flight are answered.
    // (A request answered with an error stops the run the same way.)
    void cancel();
    bool isRunning() const { return m_running; }

    const QList<Change> &changes() const { return m_changes; }
    const QList<NoBalance> &noBalance() const { return m_noBalance; }
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
    // A request sent, and its answer once it came (kept until those before it came).
    struct Request
    {
        qint64 from = 0;
        qint64 to = 0;
        std::optional<api::UsageBatchResponse> answer;
        bool failed = false; // answered with an error: nothing after it is taken
    };

    void begin();
    void fill();
    qint64 sentTo() const; // the first event not sent
    qint64 requestEnd(qint64 from) const;
    bool endsCustomer(qint64 to) const;
    void send(qint64 from, qint64 to);
    void answered(qint64 from, qint64 to, const api::Result<api::UsageBatchResponse> &answer);
    void dryRunAnswered(qint64 from, qint64 to, const api::UsageBatchResponse &response);
    void commitAnswered(qint64 from, qint64 to, const api::UsageBatchResponse &response);
    void noteNoBalance(const Item &item, const api::TrackTokensResponse &answer);
    void refuse(const Item &item, const api::ApiError &error);
    void stop(bool cancelled, const QString &error);

    backend::BillingBackend *m_backend;
    QList<Item> m_items;
    QList<Change> m_changes;
    QHash<QString, qsizetype> m_changeOf; // customer/entity/feature → index in m_changes
    QList<NoBalance> m_noBalance;
    QHash<QString, qsizetype> m_noBalanceOf; // and in m_noBalance
    QList<Refusal> m_refusals;
    qint64 m_applied = 0;
    qint64 m_alreadyRecorded = 0;
    qint64 m_next = 0;              // the first event not answered in order
    std::deque<Request> m_inFlight; // in the order sent
    QString m_error; // why the run stops, told once every request in flight is answered
    bool m_filling = false;
    bool m_dryRun = false;
    bool m_running = false;
    bool m_cancelled = false;
    quint64 m_generation = 0; // the run whose answers are heard
};

} // namespace md::models
