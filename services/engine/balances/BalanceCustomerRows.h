// How many rows each customer holds, per state, of any feature and of each
// (migration 19, PostgreSQL only; docs/performance.md, "Totals from kept
// sums"): balances.pages finds where its pages start from these counts and
// looks into the balances only there, instead of stepping over every key.
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

class BalanceWhere;

class BalanceCustomerRows final
{
public:
    static bool kept(Dialect dialect) { return dialect == Dialect::Postgres; }

    struct Walk
    {
        qint64 count = 0;
        QList<BalanceCursor> pageEnds; // the last row of each full page, in order
    };
    // In customer order (descending when `where` is), the rows of one state
    // and one feature or any: their count and the last row of each page of
    // `pageSize`, from one snapshot. `where` is BalanceWhere::of's for the
    // same filter, with kept states.
    static api::Result<Walk> walk(const QSqlDatabase &db, const Scope &scope,
                                  const std::optional<QString> &featureId, bool expired,
                                  const BalanceWhere &where, qint64 pageSize);

    // Made again from the balances, of one scope or of every one.
    static api::Result<api::Done> rebuild(const QSqlDatabase &db,
                                          const std::optional<Scope> &scope = std::nullopt);
    // Kept counts that differ from the balances, one sentence each.
    static api::Result<QStringList> differences(const QSqlDatabase &db);
};

} // namespace md::engine
