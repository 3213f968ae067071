// What a usage-based row's usage came to when the clock reset it
// (docs/billing.md, "Statements"): one charge line per reset whose usage
// went past the row's grant, worked out as the clock moves the row and
// written in the reset's transaction, so the statement of the period the
// reset closes has it whatever comes after. The sweep (ClockApplier) and a
// track batch's catch-up write the lines of the rows they move.
#pragma once

#include "services/api/ChargesPreview.h"
#include "services/api/Result.h"
#include "services/engine/clock/BalanceClock.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/KeyAllocator.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>
#include <QVariant>

namespace md::engine {

class ResetCharges final
{
public:
    // A row as billing needs it, read with the row the clock moves.
    struct Row
    {
        Scope scope;
        qint64 customerPk = 0;
        QString balanceId;
        QString featureId;
        std::optional<QString> planId;
        std::optional<QString> entityId;
        QVariant price;     // the stored JSON; null: no price
        api::Decimal grant; // included plus prepaid
        bool unlimited = false;
    };

    struct Line
    {
        Scope scope;
        qint64 customerPk = 0;
        qint64 at = 0; // the reset's moment
        QString balanceId;
        api::ChargeLine line;
    };

    // The lines of `events`' resets of `row` (none for a row without a
    // usage-based price, or a reset within the grant).
    static api::Result<QList<Line>> of(const Row &row, const QList<ClockEvent> &events);

    static api::Result<api::Done> write(const QSqlDatabase &db, const QList<Line> &lines,
                                        KeyAllocator &keys);

    // The lines of these customers' resets in (afterMs, upToMs], by
    // customer, oldest first.
    static api::Result<QList<Line>> read(const QSqlDatabase &db, Dialect dialect,
                                         const QList<qint64> &customerPks, qint64 afterMs,
                                         qint64 upToMs);
};

} // namespace md::engine
