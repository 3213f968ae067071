// SQLite: the rows of a balances.list filter in one pass over the balances
// table, in storage order, for the scans that need every row (totals, page
// starts). Plan and status come from maps of the scope's customer products
// read first, so the pass joins nothing (docs/performance.md). Run inside a
// read transaction so the maps and the pass see one snapshot.
#pragma once

#include "services/api/ListBalances.h"
#include "services/api/Result.h"
#include "services/engine/sql/Scope.h"
#include "services/engine/sql/SqliteStatement.h"
#include "services/engine/sql/StopCheck.h"

#include <QHash>
#include <QSqlDatabase>

namespace md::engine {

class BalanceScan final
{
public:
    struct Plan
    {
        qint64 productPk = 0; // 0: no plan
        bool expired = false;
    };
    // Columns of row(): 0 customer_product_pk, 1 expires_at, 2 feature_pk,
    // 3 customer_pk, 4 pk, then `extraColumns` (SQL over the table "b", one
    // expression each).
    static constexpr int FeatureColumn = 2;
    static constexpr int CustomerColumn = 3;
    static constexpr int KeyColumn = 4;
    static constexpr int ExtraColumn = 5;

    // `stop` is asked at the first row and every 4,096 after it.
    static api::Result<BalanceScan> open(const QSqlDatabase &db, const Scope &scope,
                                         const api::ListBalancesRequest &filter, qint64 nowMs,
                                         const QStringList &extraColumns = {},
                                         const StopCheck &stop = {});

    // A pass reads the whole table through the connection's page cache: give
    // that memory back once done (a console keeps its memory bounded).
    static void releaseCache(const QSqlDatabase &db);

    // Moves to the next row of the filter: false after the last,
    // stoppedError() when asked to stop.
    api::Result<bool> next();
    SqliteStatement &row() const { return *m_row; }
    const Plan &plan() const { return m_plan; }
    // Product keys to plan ids (every version of a plan has its own key).
    const QHash<qint64, QString> &planIds() const { return m_planIds; }

private:
    BalanceScan() = default;
    bool amountsPass(const SqliteStatement &row) const;

    SqliteStatement *m_row = nullptr;
    QHash<qint64, Plan> m_plans;
    QHash<qint64, QString> m_planIds;
    Plan m_plan;
    qint64 m_now = 0;
    StopCheck m_stop;
    quint64 m_read = 0;
    bool m_wantActive = true;
    bool m_wantExpired = false;
    std::optional<std::optional<QString>> m_planFilter;
    // With remaining_below or remaining_below_percent: the filter, and where
    // the amounts it reads begin in row().
    std::optional<api::ListBalancesRequest> m_amounts;
    int m_amountColumn = 0;
};

} // namespace md::engine
