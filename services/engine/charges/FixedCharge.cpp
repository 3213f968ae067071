#include "services/engine/charges/FixedCharge.h"

#include "services/engine/charges/Money.h"
#include "services/engine/charges/UsageCharge.h"

#include <algorithm>

namespace md::engine {

using namespace Qt::StringLiterals;

api::Result<std::optional<FixedCharge>> FixedCharges::forPeriod(const api::ProductItem &item,
                                                                const Subscription &subscription,
                                                                qint64 periodStart,
                                                                qint64 periodEnd, int minorDigits)
{
    if (!isFixed(item) || subscription.quantity <= 0)
        return std::optional<FixedCharge>();
    // Owed when the period starts, or when the plan does within it; the
    // plan must be on then, out of its trial. A one-off item is owed in the
    // period the plan started in, trial or not.
    const bool oneOff = !item.interval.has_value();
    const qint64 owedAt =
        oneOff ? subscription.startedAt : std::max(periodStart, subscription.startedAt);
    if (owedAt < periodStart || owedAt >= periodEnd)
        return std::optional<FixedCharge>();
    if (subscription.expiresAt && *subscription.expiresAt <= owedAt)
        return std::optional<FixedCharge>();
    if (!oneOff && subscription.trialEndsAt && *subscription.trialEndsAt > owedAt)
        return std::optional<FixedCharge>(); // the period began within the trial
    FixedCharge charge;
    charge.unitPrice = *item.price;
    charge.quantity = subscription.quantity;
    const auto exact = item.price->mulDiv(subscription.quantity, 1);
    const bool fits = exact && exact->isAmount();
    charge.exact = fits ? *exact : Money::largestLine();
    charge.amount = UsageCharges::rounded(charge.exact, minorDigits);
    if (!fits || charge.amount > Money::largestLine()) {
        charge.capped = true;
        charge.exact = charge.amount = Money::largestLine();
    }
    return std::optional(charge);
}

} // namespace md::engine
