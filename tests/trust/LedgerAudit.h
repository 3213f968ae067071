// Reads a workspace's tables directly and says what breaks the ledger's
// promises: each returns the problems found, empty when all is well.
#pragma once

#include <QSet>
#include <QSqlDatabase>
#include <QStringList>

#include <optional>

namespace md::test {

class LedgerAudit final
{
public:
    explicit LedgerAudit(QSqlDatabase db)
        : m_db(std::move(db))
    {}

    // SQLite's integrity and foreign-key checks; PostgreSQL: foreign keys hold.
    QStringList integrity() const;
    // Every balance row: granted − remaining = usage. Every customer in
    // `tracked`: the usage of its "credits" rows equals the sum of its usage events.
    QStringList balancesMatchEvents(const QStringList &tracked) const;
    // The engine's trial balance (LedgerVerifier, `workspace verify`): every
    // balance is what its ledger rows add up to.
    QStringList trialBalance() const;
    // A customer is absent, or present with one "team" subscription, one
    // "plain" row with 4 used of 10 and its stripe processor, all of it.
    QStringList importWhole(const QString &customer, bool mustExist) const;

    // Statements (docs/billing.md, "Statements"), of the customers whose id
    // is LIKE `customers`: each one's closed periods follow each other
    // without a gap or a period closed twice, up to its open period; with
    // `now`, that open period holds it (every period before it was closed).
    QStringList statements(const QString &customers, std::optional<qint64> now) const;

    struct TrackKeys
    {
        QSet<QString> applied; // usage_events
        QSet<QString> queued;  // track_queue, not failed
        qint64 failed = 0;     // track_queue rows the worker gave up on
    };
    TrackKeys trackKeys() const;
    // Calls waiting in the queue of the workspace at `location`, read on a
    // connection of its own (for polling while servers run); -1 on error.
    static qsizetype queuedCalls(const QString &location);

    // PostgreSQL: whether every session on the workspace at `location` but
    // this question's has ended. A killed server's backend can still be
    // committing what it sent just before it died; an audit read meanwhile
    // sees half of that in one table and all of it in the next. SQLite:
    // true (a killed process holds nothing).
    static bool sessionsEnded(const QString &location);

private:
    QSqlDatabase m_db;
};

} // namespace md::test
