// What time does to one balance (docs/api.md, "The billing clock"): its
// resets, what each carries over, its rollovers' expiries and its own, each
// at the moment it falls due, oldest first, as if the engine had been
// running throughout. Pure: ClockApplier reads and writes the rows; tests
// check the calendar and the amounts here on their own.
#pragma once

#include "services/api/Balance.h"
#include "services/api/Product.h"

#include <optional>

namespace md::engine {

// A balance as the clock needs it.
struct ClockedBalance
{
    api::Decimal includedGrant;
    api::Decimal prepaidGrant;
    api::Decimal remaining;
    api::Decimal usage;
    bool unlimited = false;
    api::ResetInterval interval = api::ResetInterval::OneOff;
    qint64 intervalCount = 1;
    std::optional<qint64> resetsAt;
    qint64 anchor = 0; // the calendar's origin: months keep its day
    bool standalone = false;
    std::optional<qint64> expiresAt;  // a standalone balance's own end
    std::optional<qint64> planEndsAt; // its plan's end: no reset from then on
    bool expired = false;             // the clock already expired it
    QList<api::Rollover> rollovers;   // soonest to expire first
    std::optional<api::RolloverRule> rollover;

    friend bool operator==(const ClockedBalance &, const ClockedBalance &) = default;
};

// One change the clock made, for the ledger (docs/ledger.md).
struct ClockEvent
{
    QString kind;              // reset, rollover or expiry
    qint64 at = 0;             // when it fell due
    api::Decimal amount;       // signed change of what the balance holds
    api::Decimal balanceAfter; // what it holds after
    api::Decimal usage;        // signed change of its usage counter
    api::Decimal carried;      // a rollover: the remaining it carried over

    friend bool operator==(const ClockEvent &, const ClockEvent &) = default;
};

class BalanceClock final
{
public:
    // The balance at `nowMs`, and what changed it on the way, in order.
    // Each boundary at or before now applies; nothing after it.
    struct Outcome
    {
        ClockedBalance balance;
        QList<ClockEvent> events;
        qint64 resets = 0;
        qint64 rollovers = 0;
        qint64 expiries = 0;
        bool changed() const { return resets + rollovers + expiries > 0; }
    };
    static Outcome advance(ClockedBalance balance, qint64 nowMs);

    // The first moment something falls due for it; nullopt: never.
    static std::optional<qint64> dueAt(const ClockedBalance &balance);

    // The first reset strictly after `afterMs` on the calendar counted from
    // `anchorMs` every `count` intervals (Jan 31, Feb 28, Mar 31 …).
    static qint64 nextReset(api::ResetInterval interval, qint64 count, qint64 anchorMs,
                            qint64 afterMs);

    // What the balance holds: its remaining plus its rollovers.
    static api::Decimal held(const ClockedBalance &balance);
};

} // namespace md::engine
