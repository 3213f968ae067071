// The balances.list filter as SQL (docs/api.md, balances.list), shared by the
// listing and balances.totals: a WHERE clause over `from` (balances b and
// customer_products cp), its binds, and the checks that tell "nothing
// matches" from "no such customer, entity, feature or plan".
#pragma once

#include "services/api/ListBalances.h"
#include "services/api/Result.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

class BalanceWhere final
{
public:
    // Status comes from the clock (docs/api.md, "Balance rows"): a plan row
    // is expired with its customer product, a standalone row when its own
    // expires_at has passed. Takes two binds: the time, twice.
    static const QString ExpiredCondition;

    // The filter of `request` (its cursor and limit aside) at `nowMs`.
    // PostgreSQL compares amounts exactly (numeric); SQLite only has doubles,
    // so there `remaining_below` and `remaining_below_percent` take every
    // row that might pass, and the reader keeps those that do
    // (ListBalancesRequest::amountsPass).
    // With `keptStates`, status is balances.expired, the state the clock
    // last applied (migration 18), which the indexes hold: for a caller that
    // knows nothing in the scope is due (BalanceSums::statesKept).
    static BalanceWhere of(const Scope &scope, const api::ListBalancesRequest &request,
                           qint64 nowMs, Dialect dialect, bool keptStates = false);

    QString sql;
    QVariantList binds;
    // `balances b LEFT JOIN customer_products cp`; filtered by a plan, the
    // plan's customer products first, so that a page reads that plan's rows
    // in listing order instead of walking the organization's
    // (docs/performance.md, "Flat at any size").
    QString from;
    // The customer, as `from` reaches it, and the listing's order: customers,
    // then balances.
    QString customerColumn;
    QString order;
    // The request's order (docs/api.md, balances.list): for any but
    // customer's, the key it sorts by, a double in both databases, which
    // migration 16's indexes walk; the balance key breaks ties.
    bool byCustomer = true;
    bool descending = false;
    QString sortKey;

    // When the filter matched nothing: 404 naming the first id that does
    // not exist, or Done when they all do.
    api::Result<api::Done> checkNamedIds(const QSqlDatabase &db) const;

private:
    struct Check
    {
        QString sql;
        QVariantList binds;
        api::ApiError notFound;
    };
    QList<Check> m_checks;
};

} // namespace md::engine
