// The balance ledger's store (docs/ledger.md): a row for every change of a
// balance, added in the change's own transaction by the code that makes it
// (TrackBatch for usage, CustomerImporter for grants, imported usage and
// expiry, the workspace loader for opening balances). A balance holds its
// remaining plus its rollovers' balances; each row says how much that
// changed, what it became, and where the change came from. The schema
// refuses any change to a row once added (resources/migrations/0006_ledger.sql).
#pragma once

#include "services/api/Balance.h"
#include "services/api/Ledger.h"
#include "services/api/Page.h"
#include "services/api/Result.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"
#include "services/engine/sql/Sql.h"

#include <QSqlDatabase>

namespace md::engine {

class BalanceLedger final
{
public:
    struct Entry
    {
        Scope scope; // whose balance, and the key the change came with (keyPk)
        qint64 customerPk = 0;
        qint64 featurePk = 0;
        QString balanceId;
        QString kind; // usage, grant, reset, rollover, expiry, import … (docs/ledger.md)
        api::Decimal amount;
        api::Decimal balanceAfter;
        api::Decimal usage;
        std::optional<qint64> eventPk;
        // When the change took effect, when that is not the write's moment:
        // the clock dates each reset, rollover and expiry it catches up.
        std::optional<qint64> at;
    };

    // What a row holds: its remaining plus its rollovers' balances.
    static api::Decimal held(const api::BalanceRow &row);

    // The entry of a row that went from `before` (null: a new row) to `after`.
    static Entry change(const Scope &scope, const QString &kind, qint64 customerPk,
                        qint64 featurePk, const api::BalanceRow *before,
                        const api::BalanceRow &after);

    // A new plan balance: its grant, then the usage an import reports for
    // it, then its expiry when the plan arrives expired.
    static QList<Entry> planGrant(const Scope &scope, qint64 customerPk, qint64 featurePk,
                                  const QString &balanceId, api::Decimal granted,
                                  api::Decimal remaining, api::Decimal usage, bool expired);
    // A plan expiring: each of its balances gives up what it holds.
    static api::Result<QList<Entry>> expiriesOf(const QSqlDatabase &db, const Scope &scope,
                                                qint64 customerPk,
                                                const QVariant &customerProductPk);

    // Adds `entries`, all from `route` at `at`: one statement on PostgreSQL,
    // a prepared one per entry on SQLite.
    static api::Result<api::Done> write(const QSqlDatabase &db, Dialect dialect,
                                        const QString &route, qint64 at,
                                        const QList<Entry> &entries);
    // The same, each entry from its own route.
    static api::Result<api::Done> write(const QSqlDatabase &db, Dialect dialect,
                                        const QStringList &routes, qint64 at,
                                        const QList<Entry> &entries);
    // Writes one hand-made entry (an adjustment, a balance made) and
    // answers it as ledger.list lists it, with its id: the customer's
    // newest, as the write transaction holds the write lock (SQLite) or the
    // customer's row (PostgreSQL).
    static api::Result<api::LedgerEntry> writeOne(const QSqlDatabase &db, Dialect dialect,
                                                  const QString &route, qint64 at,
                                                  const Entry &entry, const QString &customerId,
                                                  const QString &featureId);

    // PostgreSQL: the entries' columns as arrays, for a statement that adds
    // them with unnest(): org_pk, env, customer_pk, feature_pk, balance_id,
    // at, kind, amount, balance_after, usage, route, key_pk (event_pk apart).
    static QVariantList arrays(const QList<Entry> &entries, const QString &route, qint64 at);
    // The same, each entry from its own route.
    static QVariantList arrays(const QList<Entry> &entries, const QStringList &routes, qint64 at);
    // The unnest() of arrays(), with its column names, then `more` arrays
    // (named event_ord); `numbered` adds each row's position, n.
    static QString unnestSql(const QString &more = QString(), bool numbered = false);

    static api::Result<api::Page<api::LedgerEntry>> list(const QSqlDatabase &db, const Scope &scope,
                                                         const api::LedgerRequest &request);
};

} // namespace md::engine
