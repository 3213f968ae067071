// balances.adjust: a manual correction of one balance's remaining by a
// signed amount, written with its ledger entry (kind "adjustment") inside
// the caller's write transaction (ApiOperations wraps it with the audit log
// entry that keeps the reason). docs/ledger.md, "Adjustments".
#pragma once

#include "services/api/BalanceAdjustment.h"
#include "services/api/Result.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

class BalanceAdjuster final
{
public:
    // The balance's remaining now: 404 naming it when the scope has no such balance.
    static api::Result<api::Decimal> remaining(const QSqlDatabase &db, const Scope &scope,
                                               const QString &balanceId);
    static api::Result<api::LedgerEntry> adjust(const QSqlDatabase &db, Dialect dialect,
                                                const Scope &scope,
                                                const api::BalanceAdjustment &request,
                                                qint64 nowMs);
};

} // namespace md::engine
