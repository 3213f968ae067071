// The kept sums of balances (migration 18; docs/performance.md, "Totals from
// kept sums"): per feature, plan and state, the rows and their amounts, and
// how many customers hold rows of each kind, written by triggers in the
// transaction of every write to balances. balances.totals and the count of
// balances.pages read them instead of every row when the filter names
// nothing finer than feature, plan and status, and the clock has applied
// every state change due in the scope (else they scan, as before).
#pragma once

#include "services/api/BalanceTotals.h"
#include "services/api/Result.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>
#include <QStringList>

#include <optional>

namespace md::engine {

class BalanceSums final
{
public:
    // Whether the sums hold the answer's shape: a filter of feature, plan and
    // status only, and for totals groups by feature or plan.
    static bool answers(const api::ListBalancesRequest &filter);
    static bool answers(const api::BalanceTotalsRequest &request);

    // From one snapshot: the totals, or nullopt when something in the scope
    // is due by `nowMs` that the clock has not applied (a state the sums do
    // not know yet). Asks answers() first.
    static api::Result<std::optional<api::BalanceTotals>>
    totals(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
           const api::BalanceTotalsRequest &request, qint64 nowMs);
    // The filter's row count, the same way.
    static api::Result<std::optional<qint64>> count(const QSqlDatabase &db, Dialect dialect,
                                                    const Scope &scope,
                                                    const api::ListBalancesRequest &filter,
                                                    qint64 nowMs);

    // Whether balances.expired is every row's state at `nowMs` in the scope:
    // nothing there is due that the clock has not applied.
    static api::Result<bool> statesKept(const QSqlDatabase &db, const Scope &scope, qint64 nowMs);

    // Made again from the balances, of one scope or of every one.
    static api::Result<api::Done> rebuild(const QSqlDatabase &db, Dialect dialect,
                                          const std::optional<Scope> &scope = std::nullopt);
    // Rows that differ from the balances, and balances whose kept state is
    // not their clock's, one sentence each.
    static api::Result<QStringList> differences(const QSqlDatabase &db, Dialect dialect);
};

} // namespace md::engine
