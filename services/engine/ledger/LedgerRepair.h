// Brings back in balance a workspace damaged by the adjustment fault of
// issue 34 (docs/operations.md, "Repairing an old workspace"): before it was
// fixed, balances.adjust accepted a balance whose plan had expired, added
// the amount to the stored remaining and wrote a ledger entry after the
// balance's expiry, so the ledger no longer ended at zero. Nothing is
// deleted (the ledger is append-only): each such balance gets one
// compensating `adjustment` entry by the route `workspace.repair` that takes
// its ledger back to zero, and its stored remaining gets back what it held
// at expiry. LedgerVerifier then accepts the entries between the expiry and
// the repair.
#pragma once

#include "services/api/Result.h"
#include "services/engine/sql/Dialect.h"

#include <QSqlDatabase>
#include <QStringList>

namespace md::engine {

class LedgerRepair final
{
public:
    static inline const QString Route = QStringLiteral("workspace.repair");

    struct Report
    {
        QStringList repaired; // one sentence per balance
    };

    // One write transaction; repairing a sound workspace writes nothing.
    static api::Result<Report> repair(const QSqlDatabase &db, Dialect dialect, qint64 nowMs);
};

} // namespace md::engine
