// balances.totals over the store (docs/api.md, "balances.totals"): the
// balances.list filter added up where the rows are, from one snapshot, by
// feature, plan (every version of a product together), customer or reset
// month, exactly: from the kept sums when they hold the answer
// (BalanceSums), else from every row, in Int128 nano-units over one scan on
// SQLite and in numeric on PostgreSQL.
#pragma once

#include "services/api/BalanceTotals.h"
#include "services/api/Result.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"
#include "services/engine/sql/StopCheck.h"

#include <QSqlDatabase>

namespace md::engine {

class BalanceTotaller final
{
public:
    static api::Result<api::BalanceTotals> totals(const QSqlDatabase &db, Dialect dialect,
                                                  const Scope &scope,
                                                  const api::BalanceTotalsRequest &request,
                                                  qint64 nowMs, const StopCheck &stop = {});
    // The same from every row, whatever the request: what the kept sums must
    // agree with (tst_balancesums).
    static api::Result<api::BalanceTotals> fromEveryRow(const QSqlDatabase &db, Dialect dialect,
                                                        const Scope &scope,
                                                        const api::BalanceTotalsRequest &request,
                                                        qint64 nowMs, const StopCheck &stop = {});
};

} // namespace md::engine
