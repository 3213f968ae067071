// How many rows each customer holds, per state, of any feature and of each
// (migration 19, PostgreSQL only; docs/performance.md, "Totals from kept
// sums"): balances.pages finds where its pages end from these counts,
// instead of stepping over every key.
#pragma once

#include "services/api/Result.h"
#include "services/engine/balances/BalanceCursor.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QList>
#include <QSqlDatabase>
#include <QStringList>

#include <optional>

namespace md::engine {

class BalanceCustomerRows final
{
public:
    static bool kept(Dialect dialect) { return dialect == Dialect::Postgres; }

    struct Walk
    {
        qint64 count = 0;
        // The last row of each full page, in order, as a cursor into its
        // customer's rows (BalanceCursor::rowsOfCustomer).
        QList<BalanceCursor> pageEnds;
    };
    // In customer order, the rows of one state and one feature or any:
    // their count and where each page of `pageSize` ends, from one
    // snapshot, reading no balance row.
    static api::Result<Walk> walk(const QSqlDatabase &db, const Scope &scope,
                                  const std::optional<QString> &featureId, bool expired,
                                  bool descending, qint64 pageSize);

    // Made again from the balances, of one scope or of every one.
    static api::Result<api::Done> rebuild(const QSqlDatabase &db,
                                          const std::optional<Scope> &scope = std::nullopt);
    // Kept counts that differ from the balances, one sentence each.
    static api::Result<QStringList> differences(const QSqlDatabase &db);
};

} // namespace md::engine
