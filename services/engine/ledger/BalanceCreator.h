// balances.create: a standalone balance made by hand (no plan, no reset),
// written with its `grant` ledger entry inside the caller's write
// transaction (ApiOperations wraps it with the audit entry that keeps the
// reason). docs/ledger.md, "Balances made by hand".
#pragma once

#include "services/api/BalanceCreation.h"
#include "services/api/Result.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

class BalanceCreator final
{
public:
    static api::Result<api::LedgerEntry> create(const QSqlDatabase &db, Dialect dialect,
                                                const Scope &scope,
                                                const api::BalanceCreation &request, qint64 nowMs);
};

} // namespace md::engine
