// Applies the billing clock to stored balances (docs/api.md, "The billing
// clock"): reads the balances that fell due, runs BalanceClock on each and
// writes the result with its ledger entries, in the caller's write
// transaction, at most MaxRows balances a call. On PostgreSQL it first
// locks the balances' customers in key order, as a track batch does, then
// reads them again: a balance another server brought up to date meanwhile
// is no longer due and is left alone, so nothing is applied twice.
#pragma once

#include "services/api/Result.h"
#include "services/engine/clock/BalanceClock.h"
#include "services/engine/clock/MovedBalances.h"
#include "services/engine/ledger/BalanceLedger.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

#include <map>

namespace md::engine {

// What the clock did (or, previewed, would do), with amounts by feature.
struct ClockTally
{
    qint64 balances = 0; // balances it changed or moved on
    qint64 resets = 0;
    qint64 rollovers = 0;
    qint64 expiries = 0;
    struct Feature
    {
        qint64 resets = 0;
        qint64 rollovers = 0;
        qint64 expiries = 0;
        api::Decimal restored;   // what resets gave back (their entries' sum)
        api::Decimal rolledOver; // what became rollovers
        api::Decimal expired;    // what expiries took
    };
    std::map<QString, Feature> byFeature; // by feature id

    void add(const QString &featureId, const BalanceClock::Outcome &outcome);
    ClockTally &operator+=(const ClockTally &other);
};

class ClockApplier final
{
public:
    static constexpr qsizetype MaxRows = 1000;

    // Which balances: those due in every organization, in one scope, or of
    // some customers (of that scope). The scope's key is the ledger's source.
    struct Due
    {
        std::optional<Scope> scope;
        QList<qint64> customerPks;         // empty: no restriction
        std::optional<QString> customerId; // one customer by id (needs the scope)
        std::optional<QString> balanceId;  // the customer of this balance (likewise)
        QList<qint64> featurePks;          // only these features' balances; empty: all

        bool someCustomers() const { return !customerPks.isEmpty() || customerId || balanceId; }
    };

    // "Due at ?" for a balance found through its customer: no index on
    // due_at can serve it (COALESCE is not strict, so not even a partial
    // one), since during a sweep their range holds the whole backlog.
    static QString dueThroughCustomer(const QString &table);

    // " AND …" keeping the customers (table `c`) of `due`, but those of the
    // `except` scopes; its binds are appended.
    static QString customersOf(Dialect dialect, const Due &due, const QList<Scope> &except,
                               QVariantList &binds);

    // Brings at most MaxRows due balances to `nowMs`. `route` and the
    // scope's key are the ledger entries' source.
    static api::Result<ClockTally> apply(const QSqlDatabase &db, Dialect dialect, const Due &due,
                                         qint64 nowMs, const QString &route);

    // Reads every balance of `due` (some customers, whose rows the caller
    // holds locked) due at `nowMs`, in one statement, and runs the clock on
    // them; writes nothing. Their ledger entries are appended to `entries`.
    // A track batch writes them with its own (docs/performance.md, "The
    // billing clock").
    static api::Result<MovedBalances> advance(const QSqlDatabase &db, Dialect dialect,
                                              const Due &due, qint64 nowMs,
                                              QList<BalanceLedger::Entry> &entries);

    // PostgreSQL: locks these customers' rows in key order, as a track batch
    // does, so the clock and the calls of a customer take turns. SQLite:
    // nothing (the write transaction holds the one write lock).
    static api::Result<api::Done> lockCustomers(const QSqlDatabase &db, Dialect dialect,
                                                QList<qint64> customerPks);

    // Whether anything in `due` is due at `nowMs`: one index probe.
    static api::Result<bool> anyDue(const QSqlDatabase &db, Dialect dialect, const Due &due,
                                    qint64 nowMs);

    // What applying up to `untilMs` would do to one scope, written nowhere.
    static api::Result<ClockTally> preview(const QSqlDatabase &db, Dialect dialect,
                                           const Scope &scope, qint64 untilMs);
};

} // namespace md::engine
