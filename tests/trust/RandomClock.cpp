// Time passing in tst_randomops' model (RandomModel.h): the billing clock's
// rule applied on its own, independently of the engine's BalanceClock
// (docs/api.md, "The billing clock"): rollovers that end, a standalone
// balance's own end, and resets with what they carry over, each in time
// order, none at or after a plan's end; and what each reset bills.
#include "tests/trust/RandomModel.h"

#include <QDateTime>

#include <limits>

namespace md::test::randomops {

using namespace Qt::StringLiterals;
using api::Int128;

namespace {

// The reset calendar, on its own: `n` intervals after the anchor, months
// counted from the anchor each time (its day, or the month's last).
qint64 nthReset(const ModelBalance::Resets &resets, qint64 n)
{
    constexpr qint64 Minute = 60'000;
    const QDateTime anchor = QDateTime::fromMSecsSinceEpoch(resets.anchor, Qt::UTC);
    const qint64 k = n * resets.count;
    switch (resets.interval) {
    case api::ResetInterval::Minute:
        return resets.anchor + k * Minute;
    case api::ResetInterval::Hour:
        return resets.anchor + k * 60 * Minute;
    case api::ResetInterval::Day:
        return resets.anchor + k * 1440 * Minute;
    case api::ResetInterval::Week:
        return resets.anchor + k * 7 * 1440 * Minute;
    case api::ResetInterval::Month:
        return anchor.addMonths(int(k)).toMSecsSinceEpoch();
    case api::ResetInterval::Quarter:
        return anchor.addMonths(int(3 * k)).toMSecsSinceEpoch();
    case api::ResetInterval::SemiAnnual:
        return anchor.addMonths(int(6 * k)).toMSecsSinceEpoch();
    case api::ResetInterval::Year:
        return anchor.addYears(int(k)).toMSecsSinceEpoch();
    default:
        qFatal("no calendar for a one-off balance");
    }
}

// A reset's carry-over: the unused remaining becomes a rollover, then the
// rollovers are held to the rule's max, the soonest to expire giving way.
void carryOver(ModelBalance &row, qint64 at)
{
    const qint64 expires = nthReset({row.rule->duration, row.rule->length, at, at}, 1);
    // Only what keeps the balance below 10^20 once the grant is back.
    Int128 room = Decimal::MaxRaw - 1 - row.granted.raw();
    for (const ModelRollover &r : std::as_const(row.rollovers))
        room -= r.balance.raw();
    const Decimal carried = Decimal::fromRaw(std::clamp<Int128>(room, 0, row.remaining.raw()));
    const auto place = std::find_if(row.rollovers.begin(), row.rollovers.end(),
                                    [&](const ModelRollover &r) { return r.expiresAt > expires; });
    if (!carried.isZero())
        row.rollovers.insert(place, ModelRollover{carried, expires});
    row.remaining = Decimal();
    if (!row.rule->max)
        return;
    Int128 over = -row.rule->max->raw();
    for (const ModelRollover &r : std::as_const(row.rollovers))
        over += r.balance.raw();
    for (ModelRollover &r : row.rollovers) {
        if (over <= 0)
            break;
        const Int128 cut = std::min(over, r.balance.raw());
        r.balance = Decimal::fromRaw(r.balance.raw() - cut);
        over -= cut;
    }
    row.rollovers.removeIf([](const ModelRollover &r) { return r.balance.isZero(); });
}

// `billed`: what the row's resets bill (a sandbox row's), or null; `lines`
// each amount.
void passTime(ModelBalance &row, qint64 planEnd, qint64 nowMs, Decimal *billed, QStringList *lines)
{
    constexpr qint64 Never = std::numeric_limits<qint64>::max();
    for (;;) {
        qint64 rollover = Never;
        for (const ModelRollover &r : std::as_const(row.rollovers))
            rollover = std::min(rollover, r.expiresAt);
        const qint64 own = row.subscriptionId.isEmpty() && row.expiresAt ? *row.expiresAt : Never;
        const qint64 reset = row.resets ? row.resets->next : Never;
        const qint64 at = std::min({rollover, own, reset});
        if (row.clockExpired || at > nowMs || at >= planEnd)
            break;
        if (rollover == at) {
            row.rollovers.removeIf([at](const ModelRollover &r) { return r.expiresAt <= at; });
        } else if (own == at) {
            row.rollovers.clear();
            row.clockExpired = true;
        } else {
            // The usage past the grant is billed, and what was bought is
            // bought again (docs/billing.md).
            if (billed && row.price && !row.unlimited && row.usage > row.granted) {
                const Decimal past = Model::priced(
                    *row.price, Decimal::fromRaw(row.usage.raw() - row.granted.raw()));
                *billed = billed->runningSum(past);
                lines->append(u"%1 at %2: usage %3 past %4 = %5"_s.arg(row.id).arg(at).arg(
                    row.usage.toString(), row.granted.toString(), past.toString()));
            }
            if (billed && !Model::purchase(row).isZero()) {
                *billed = billed->runningSum(Model::purchase(row));
                lines->append(u"%1 at %2: renewal of %3 = %4"_s.arg(row.id).arg(at).arg(
                    row.prepaid.toString(), Model::purchase(row).toString()));
            }
            if (row.rule && !row.unlimited && row.remaining > Decimal())
                carryOver(row, at);
            if (!row.unlimited)
                row.remaining = row.granted;
            row.usage = Decimal();
            qint64 n = 1;
            while (nthReset(*row.resets, n) <= at)
                ++n;
            row.resets->next = nthReset(*row.resets, n);
        }
    }
}

} // namespace

void Model::passTime(qint64 nowMs, qint64 liveNowMs)
{
    constexpr qint64 Never = std::numeric_limits<qint64>::max();
    for (ModelBalance &row : balances) {
        qint64 planEnd = Never;
        if (!row.subscriptionId.isEmpty())
            if (const ModelSubscription *plan = subscription(row.customerId, row.subscriptionId))
                planEnd = plan->status == "expired"_L1 ? std::numeric_limits<qint64>::min()
                                                       : plan->expiresAt.value_or(Never);
        randomops::passTime(row, planEnd, nowMs, &billed[row.customerId],
                            &billedLines[row.customerId]);
    }
    for (auto &[row, planEnd] : live)
        randomops::passTime(row, planEnd, liveNowMs, nullptr, nullptr);
}

} // namespace md::test::randomops
