// A trial balance of the ledger (docs/ledger.md, `meterdesk-server workspace
// verify`): every balance derived again from its ledger rows and compared
// with what the balance holds, and the sums kept beside the rows (usage
// days, balance sums, revenue months) counted again, read on one snapshot. The crash and
// concurrency tests run it after every run.
#pragma once

#include "services/api/Decimal.h"
#include "services/api/Result.h"
#include "services/engine/sql/Dialect.h"

#include <QSqlDatabase>
#include <QStringList>

namespace md::engine {

class LedgerVerifier final
{
public:
    struct Report
    {
        qint64 balances = 0;
        qint64 entries = 0;
        QStringList differences; // one sentence each, naming the balance
        bool balanced() const { return differences.isEmpty(); }
    };

    static api::Result<Report> verify(const QSqlDatabase &db, Dialect dialect);

    // Opening rows for balances that have none: those made before the
    // ledger existed (migration 6 calls it once).
    static api::Result<api::Done> openExisting(const QSqlDatabase &db, Dialect dialect);
};

} // namespace md::engine
