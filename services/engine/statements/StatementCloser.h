// Statements, closed exactly once (docs/billing.md, "Statements"): each
// customer has one open billing period at a time, [statement_from,
// statement_due_at) on its row. When the period has ended, the clock's
// sweep (and clock.advance, and a read that catches a customer up) closes
// it: the customer's balances first brought to now, so every reset of the
// period has written its charge line, then one statement of the period's
// fixed prices and reset lines, immutable, and the next period opened,
// until the open one holds now (a catch-up after downtime closes each
// missed period, with nothing owed if nothing was). In the caller's write
// transaction; on PostgreSQL the customers are locked first and read
// again, and a statement is unique per customer and period start, so two
// servers never close one twice.
#pragma once

#include "services/api/Result.h"
#include "services/engine/clock/ClockApplier.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/KeyAllocator.h"

#include <QSqlDatabase>

namespace md::engine {

class StatementCloser final
{
public:
    // Customers a step takes, and statements it writes at most.
    static constexpr qsizetype MaxCustomers = 500;
    static constexpr qsizetype MaxStatements = 2000;

    struct Tally
    {
        qint64 opened = 0; // customers whose first period was opened
        qint64 closed = 0; // statements closed
        bool more = false; // the step stopped at a limit: more may be due
    };

    // The customers of `due` (a scope, some customers, or all but the
    // `except` scopes: sandboxes whose clock runs ahead) at `nowMs`.
    static api::Result<Tally> apply(const QSqlDatabase &db, Dialect dialect,
                                    const ClockApplier::Due &due, qint64 nowMs,
                                    const QList<Scope> &except = {});

    // Whether a customer of `due` has no open period or one that ended.
    static api::Result<bool> anyDue(const QSqlDatabase &db, Dialect dialect,
                                    const ClockApplier::Due &due, qint64 nowMs);
};

} // namespace md::engine
