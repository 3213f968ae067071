// What a plan's fixed price comes to in one billing period (docs/billing.md,
// "A plan's fixed prices"): an item with a price and no feature is owed once
// per period of its subscription, times the subscription's quantity, for a
// period that began while the plan was on and out of its trial; a one-off
// item only in the period the plan started in. No proration.
#pragma once

#include "services/api/Customer.h"
#include "services/api/Decimal.h"
#include "services/api/Product.h"
#include "services/api/Result.h"

#include <optional>

namespace md::engine {

// A subscription as the rule needs it (customer_products' columns).
struct Subscription
{
    api::PlanStatus status = api::PlanStatus::Active;
    qint64 quantity = 1;
    qint64 startedAt = 0;
    std::optional<qint64> trialEndsAt;
    std::optional<qint64> expiresAt; // when the plan ended or ends
};

struct FixedCharge
{
    api::Decimal unitPrice;
    qint64 quantity = 0;
    api::Decimal exact;  // unitPrice × quantity
    api::Decimal amount; // rounded to the currency's minor unit
    bool capped = false; // more than the largest line, billed at it (Money)
};

class FixedCharges final
{
public:
    static bool isFixed(const api::ProductItem &item)
    {
        return item.featureId.isEmpty() && item.price.has_value();
    }

    // The charge for the period [periodStart, periodEnd), or nullopt when
    // the item owes nothing there; 500 past the range of amounts.
    static api::Result<std::optional<FixedCharge>> forPeriod(const api::ProductItem &item,
                                                             const Subscription &subscription,
                                                             qint64 periodStart, qint64 periodEnd,
                                                             int minorDigits);
};

} // namespace md::engine
