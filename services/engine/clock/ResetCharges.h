// What a priced row's usage came to when the clock reset it (docs/
// billing.md, "Statements"): one charge line per reset whose usage went
// past the row's grant, and for a prepaid row the renewal of what was
// bought, worked out as the clock moves the row and written in the reset's
// transaction, so the statement of the period the reset closes (or, for a
// renewal, opens) has it whatever comes after. The sweep (ClockApplier) and
// a track batch's catch-up write the lines of the rows they move; an import
// writes a plan's first purchases.
#pragma once

#include "services/api/ChargesPreview.h"
#include "services/api/Result.h"
#include "services/engine/charges/Money.h"
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
        QVariant price;       // the stored JSON; null: no price
        api::Decimal grant;   // included plus prepaid
        api::Decimal prepaid; // what a prepaid row's grant bought
        bool unlimited = false;
        bool creditSystem = false;         // an AI credit system's row
        std::optional<qint64> trialEndsAt; // its plan's: nothing is bought before
        Money money;                       // its organization's currency
    };

    struct Line
    {
        Scope scope;
        qint64 customerPk = 0;
        qint64 at = 0; // the reset's moment
        QString balanceId;
        api::ChargeLine line;
        // A purchase, bought for the interval it starts: on the statement of
        // [start, end) when start <= at < end. Usage is billed as its
        // interval closes: start < at <= end.
        bool advance = false;

        bool within(qint64 start, qint64 end) const
        {
            return advance ? start <= at && at < end : start < at && at <= end;
        }
        // Of a period that ended by `start`.
        bool before(qint64 start) const { return advance ? at < start : at <= start; }
    };

    // The lines of `row`'s resets as the clock moved it from `before` to
    // `after`: `events`' usage past the grant, and a prepaid row's renewal
    // at every reset passed, those that changed nothing (and so made no
    // event) too. None for a row without a price.
    static api::Result<QList<Line>> of(const Row &row, const QList<ClockEvent> &events,
                                       const ClockedBalance &before, const ClockedBalance &after);

    // The purchase line of a prepaid row bought at `at` (none without a
    // prepaid price or with nothing bought).
    static api::Result<std::optional<Line>> purchase(const Row &row, qint64 at);

    static api::Result<api::Done> write(const QSqlDatabase &db, const QList<Line> &lines,
                                        KeyAllocator &keys);

    // The lines of these customers' resets in [fromMs, upToMs], by
    // customer, oldest first, usage before a purchase at one moment, then
    // as written: the caller keeps those `within` its periods.
    static api::Result<QList<Line>> read(const QSqlDatabase &db, Dialect dialect,
                                         const QList<qint64> &customerPks, qint64 fromMs,
                                         qint64 upToMs);
};

} // namespace md::engine
