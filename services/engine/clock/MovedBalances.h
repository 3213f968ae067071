// Balances the billing clock moved on, to be written back: by ClockApplier
// in its own statements, or by a track batch inside the one statement that
// writes its calls (docs/performance.md, "The billing clock").
#pragma once

#include "services/api/Result.h"
#include "services/engine/clock/BalanceClock.h"
#include "services/engine/clock/ResetCharges.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/KeyAllocator.h"
#include "services/engine/sql/Sql.h"

#include <QSqlDatabase>

namespace md::engine {

class MovedBalances final
{
public:
    struct Balance
    {
        qint64 pk = 0;
        QString id;
        ClockedBalance after;          // what it is now
        bool rolloversChanged = false; // its rollovers are replaced
        bool hadRollovers = false;     // stored ones to replace
    };
    QList<Balance> list;
    QList<ResetCharges::Line> billed; // what their resets came to

    // Writes them: on PostgreSQL one statement for all, on SQLite a few a
    // row; `keys` gives SQLite's new rollovers theirs.
    api::Result<api::Done> write(const QSqlDatabase &db, Dialect dialect, KeyAllocator &keys) const;

    // PostgreSQL: the data-modifying WITH clauses that write them, for a
    // statement of the caller's (named clock_rows, clock_gone,
    // clock_carried), and their binds in order.
    static QString postgresWith();
    QVariantList postgresBinds() const;
};

} // namespace md::engine
