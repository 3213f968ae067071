#include "services/engine/clock/BalanceClock.h"

#include "services/api/BillingPeriod.h"

#include <algorithm>
#include <limits>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::Decimal;

namespace {

constexpr qint64 Never = std::numeric_limits<qint64>::max();

bool periodic(const ClockedBalance &b)
{
    return b.interval != api::ResetInterval::OneOff && b.interval != api::ResetInterval::Multiple;
}

// Events at or after the plan's end are the plan's expiry's (written with
// it), and nothing happens to a balance the clock expired.
qint64 cut(const ClockedBalance &b, qint64 at)
{
    if (b.expired || (b.planEndsAt && at >= *b.planEndsAt))
        return Never;
    return at;
}

qint64 nextRolloverExpiry(const ClockedBalance &b)
{
    qint64 first = Never;
    for (const api::Rollover &r : b.rollovers)
        first = std::min(first, r.expiresAt);
    return cut(b, first);
}

qint64 ownExpiry(const ClockedBalance &b)
{
    return b.standalone && b.expiresAt ? cut(b, *b.expiresAt) : Never;
}

qint64 nextResetOf(const ClockedBalance &b)
{
    return periodic(b) && b.resetsAt ? cut(b, *b.resetsAt) : Never;
}

class Stepper
{
public:
    explicit Stepper(ClockedBalance balance) { m_out.balance = std::move(balance); }

    void run(qint64 nowMs)
    {
        ClockedBalance &b = m_out.balance;
        for (;;) {
            const qint64 rollover = nextRolloverExpiry(b);
            const qint64 own = ownExpiry(b);
            const qint64 reset = nextResetOf(b);
            const qint64 at = std::min({rollover, own, reset});
            if (at == Never || at > nowMs)
                return;
            // At one instant: old rollovers go first, then the balance's own
            // end, and only a balance still running resets.
            if (rollover == at)
                expireRollovers(at);
            else if (own == at)
                expire(at);
            else
                resetAt(at, std::min({rollover, own, nowMs + 1}));
        }
    }

    BalanceClock::Outcome take() { return std::move(m_out); }

private:
    void note(const QString &kind, qint64 at, Decimal amount, Decimal usage, Decimal carried = {})
    {
        m_out.events.append({kind, at, amount, BalanceClock::held(m_out.balance), usage, carried});
    }

    void expireRollovers(qint64 at)
    {
        ClockedBalance &b = m_out.balance;
        Decimal gone;
        const auto due = [at](const api::Rollover &r) { return r.expiresAt <= at; };
        for (const api::Rollover &r : std::as_const(b.rollovers))
            if (due(r))
                gone = gone.runningSum(r.balance);
        b.rollovers.removeIf(due);
        ++m_out.expiries;
        if (!gone.isZero())
            note(u"expiry"_s, at, gone.negated(), Decimal());
    }

    void expire(qint64 at)
    {
        ClockedBalance &b = m_out.balance;
        const Decimal held = BalanceClock::held(b);
        // The stored remaining keeps what it held, for the record; the entry
        // gives everything up (docs/ledger.md), rollovers with it.
        b.rollovers.clear();
        b.expired = true;
        ++m_out.expiries;
        m_out.events.append({u"expiry"_s, at, held.negated(), Decimal(), Decimal(), Decimal()});
    }

    // `nextOther`: when the next other event falls (or just past now), so a
    // run of resets that change nothing is stepped over at once.
    void resetAt(qint64 at, qint64 nextOther)
    {
        ClockedBalance &b = m_out.balance;
        const Decimal grant = b.includedGrant.runningSum(b.prepaidGrant);
        const bool idle =
            b.usage.isZero() && (b.unlimited || b.remaining == grant) && !carriesOver();
        if (idle) {
            b.resetsAt = BalanceClock::nextReset(b.interval, b.intervalCount, b.anchor,
                                                 std::max(at, nextOther - 1));
            return;
        }
        if (carriesOver())
            rollOver(at);
        const Decimal before = BalanceClock::held(b);
        const Decimal usage = b.usage;
        ++m_out.resets;
        b.usage = Decimal();
        if (b.unlimited) {
            note(u"reset"_s, at, Decimal(), usage.negated());
        } else if (const Decimal change = grant.runningSum(b.remaining.negated());
                   change.isAmount()) {
            b.remaining = grant; // an overage was the period's: billed, then forgiven
            note(u"reset"_s, at, BalanceClock::held(b).runningSum(before.negated()),
                 usage.negated());
        } else {
            // From near −10^20 back to a grant near 10^20 is more than one
            // amount: the entry to zero, then the grant.
            const Decimal was = b.remaining;
            b.remaining = Decimal();
            note(u"reset"_s, at, was.negated(), usage.negated());
            b.remaining = grant;
            note(u"reset"_s, at, grant, Decimal());
        }
        b.resetsAt = BalanceClock::nextReset(b.interval, b.intervalCount, b.anchor, at);
    }

    bool carriesOver() const
    {
        const ClockedBalance &b = m_out.balance;
        return b.rollover && !b.unlimited && b.remaining > Decimal();
    }

    // The unused remaining becomes a rollover; then the rollovers are held
    // to `max`, the soonest to expire giving way first (Autumn's rule).
    void rollOver(qint64 at)
    {
        ClockedBalance &b = m_out.balance;
        const api::RolloverRule &rule = *b.rollover;
        // What a balance holds stays an amount (below 10^20): the grant comes
        // back on top of the rollovers, so only what leaves room carries.
        api::Int128 room = Decimal::MaxRaw - 1 - b.includedGrant.raw() - b.prepaidGrant.raw();
        for (const api::Rollover &r : std::as_const(b.rollovers))
            room -= r.balance.raw();
        const Decimal carried =
            Decimal::fromRaw(std::clamp<api::Int128>(room, 0, b.remaining.raw()));
        b.remaining = b.remaining.runningSum(carried.negated());
        const qint64 expires = api::BillingPeriod::advance(rule.duration, at, rule.length);
        const auto place =
            std::upper_bound(b.rollovers.begin(), b.rollovers.end(), expires,
                             [](qint64 t, const api::Rollover &r) { return t < r.expiresAt; });
        if (!carried.isZero())
            b.rollovers.insert(place, api::Rollover{carried, carried, expires});
        Decimal trimmed;
        if (rule.max) {
            Decimal total;
            for (const api::Rollover &r : std::as_const(b.rollovers))
                total = total.runningSum(r.balance);
            for (api::Rollover &r : b.rollovers) {
                if (total <= *rule.max)
                    break;
                const Decimal over = total.runningSum(rule.max->negated());
                const Decimal cutHere = std::min(over, r.balance);
                r.balance = r.balance.runningSum(cutHere.negated());
                total = total.runningSum(cutHere.negated());
                trimmed = trimmed.runningSum(cutHere);
            }
            b.rollovers.removeIf([](const api::Rollover &r) { return r.balance.isZero(); });
        }
        ++m_out.rollovers;
        note(u"rollover"_s, at, trimmed.negated(), Decimal(), carried);
    }

    BalanceClock::Outcome m_out;
};

} // namespace

BalanceClock::Outcome BalanceClock::advance(ClockedBalance balance, qint64 nowMs)
{
    std::stable_sort(
        balance.rollovers.begin(), balance.rollovers.end(),
        [](const api::Rollover &a, const api::Rollover &b) { return a.expiresAt < b.expiresAt; });
    Stepper stepper(std::move(balance));
    stepper.run(nowMs);
    return stepper.take();
}

std::optional<qint64> BalanceClock::dueAt(const ClockedBalance &balance)
{
    const qint64 at =
        std::min({nextRolloverExpiry(balance), ownExpiry(balance), nextResetOf(balance)});
    return at == Never ? std::nullopt : std::optional(at);
}

qint64 BalanceClock::nextReset(api::ResetInterval interval, qint64 count, qint64 anchorMs,
                               qint64 afterMs)
{
    const qint64 every = std::max<qint64>(1, count);
    if (anchorMs > afterMs)
        return anchorMs;
    // Counted from the anchor each time (anchor + n months), so the 31st
    // comes back after a short month; jump close first, then step.
    const qint64 shortest = api::BillingPeriod::shortestMs(interval) * every;
    qint64 n = shortest > 0 ? std::max<qint64>(1, (afterMs - anchorMs) / shortest) : 1;
    while (n > 1 && api::BillingPeriod::advance(interval, anchorMs, (n - 1) * every) > afterMs)
        --n;
    while (api::BillingPeriod::advance(interval, anchorMs, n * every) <= afterMs)
        ++n;
    return api::BillingPeriod::advance(interval, anchorMs, n * every);
}

Decimal BalanceClock::held(const ClockedBalance &balance)
{
    Decimal held = balance.remaining;
    for (const api::Rollover &r : balance.rollovers)
        held = held.runningSum(r.balance);
    return held;
}

} // namespace md::engine
