#include "services/engine/charges/UsageCharge.h"

#include "services/engine/charges/Money.h"

namespace md::engine {

using api::ApiError;
using api::Decimal;
using api::Int128;
using namespace Qt::StringLiterals;

namespace {

// Past the largest line (or past what an amount holds on the way there):
// billed at the largest line, and marked so its words say so.
UsageCharge capped(UsageCharge charge)
{
    charge.capped = true;
    charge.exact = charge.amount = Money::largestLine();
    charge.bands.clear();
    return charge;
}

} // namespace

Decimal UsageCharges::rounded(Decimal value, int digits)
{
    Int128 step = 1;
    for (int d = digits; d < Decimal::Scale; ++d)
        step *= 10;
    const Int128 raw = value.raw();
    const Int128 magnitude = raw < 0 ? -raw : raw;
    const Int128 down = magnitude / step * step;
    const Int128 away = 2 * (magnitude - down) >= step ? down + step : down;
    return Decimal::fromRaw(raw < 0 ? -away : away);
}

api::ChargeLine UsageCharges::line(const Row &row, const UsageCharge &charge)
{
    api::ChargeLine line;
    line.kind = api::ChargeKind::Usage;
    line.planId = row.planId;
    line.featureId = row.featureId;
    line.entityId = row.entityId;
    line.balanceId = row.balanceId;
    line.quantity = charge.pastGrant;
    line.billableUnits = charge.billableUnits;
    line.amount = charge.amount;
    if (charge.capped) {
        line.description =
            u"%1 %2 used, %3 included: %4 past it comes to more than the largest"
            " line, billed at %5"_s.arg(row.usage.toString(), row.featureId, row.grant.toString(),
                                        charge.pastGrant.toString(), charge.amount.toString());
        return line;
    }
    line.description = charge.pastGrant.isZero()
                           ? u"%1 %2 used of %3 included: nothing past it"_s.arg(
                                 row.usage.toString(), row.featureId, row.grant.toString())
                           : u"%1 %2 used, %3 included: %4 billed as %5 = %6"_s.arg(
                                 row.usage.toString(), row.featureId, row.grant.toString(),
                                 charge.pastGrant.toString(), charge.billableUnits.toString(),
                                 charge.amount.toString());
    return line;
}

api::ChargeLine UsageCharges::purchaseLine(const Row &row, bool creditSystem, Decimal bought,
                                           const UsageCharge &charge)
{
    api::ChargeLine line = UsageCharges::line(row, charge);
    line.kind = creditSystem ? api::ChargeKind::Credits : api::ChargeKind::Prepaid;
    line.quantity = charge.pastGrant;
    QString held = charge.pastGrant == bought ? QString()
                                              : u" (%1 bought, max_purchase %2)"_s.arg(
                                                    bought.toString(), charge.pastGrant.toString());
    if (charge.capped)
        held += u", more than the largest line"_s;
    line.description = u"%1 %2 bought%3: billed as %4 = %5"_s.arg(
        charge.pastGrant.toString(), row.featureId, held, charge.billableUnits.toString(),
        charge.amount.toString());
    return line;
}

api::Result<UsageCharge> UsageCharges::purchase(const api::Price &price, Decimal bought,
                                                int minorDigits)
{
    // Past max_purchase it was not bought: the rest was given.
    const Decimal within =
        price.maxPurchase && *price.maxPurchase < bought ? *price.maxPurchase : bought;
    // A purchase is "usage" of what was bought, past a grant of nothing.
    return charge(price, within, Decimal(), minorDigits);
}

api::Result<UsageCharge> UsageCharges::charge(const api::Price &price, Decimal usage, Decimal grant,
                                              int minorDigits)
{
    const Decimal units = price.billingUnits;
    if (units.raw() <= 0)
        return ApiError::invalidRequest(u"billing_units must be above 0 to price usage"_s);
    if (!price.amount && (!price.tiers || price.tiers->isEmpty()))
        return ApiError::invalidRequest(u"the price has neither an amount nor tiers"_s);
    UsageCharge charge;
    const auto past = usage.minus(grant);
    if (!past)
        return capped(charge);
    if (past->raw() <= 0)
        return charge; // within the grant: nothing owed
    charge.pastGrant = *past;
    // Whole billing units, rounded up: 1,001 calls in units of 1,000 are 2.
    charge.increments = (past->raw() + units.raw() - 1) / units.raw();
    const auto billable = units.mulDiv(charge.increments, 1);
    if (!billable)
        return capped(charge);
    charge.billableUnits = *billable;
    Decimal exact;
    const auto add = [&exact](std::optional<Decimal> part) {
        const auto next = part ? exact.plus(*part) : std::nullopt;
        if (next)
            exact = *next;
        return next.has_value();
    };
    if (!price.tiers || price.tiers->isEmpty()) {
        if (!add(price.amount->mulDiv(charge.increments, 1)))
            return capped(charge);
    } else {
        const bool volume = price.tierBehavior == api::TierBehavior::Volume;
        Decimal from; // the band's lower bound
        for (const api::Tier &tier : std::as_const(*price.tiers)) {
            if (tier.to && *tier.to <= from)
                return ApiError::invalidRequest(
                    u"the tiers' \"to\" bounds must rise: %1 follows %2"_s.arg(tier.to->toString(),
                                                                               from.toString()));
            const bool last = !tier.to || *tier.to >= charge.billableUnits;
            if (volume && !last) {
                from = *tier.to;
                continue;
            }
            UsageCharge::Band band;
            const Decimal top = last ? charge.billableUnits : *tier.to;
            band.units = volume ? charge.billableUnits : Decimal::fromRaw(top.raw() - from.raw());
            band.rate = tier.amount;
            band.flat = tier.flatAmount.value_or(Decimal());
            const auto rated = tier.amount.mulDiv(band.units.raw(), units.raw());
            const auto withFlat = rated ? rated->plus(band.flat) : std::nullopt;
            if (!withFlat || !add(withFlat))
                return capped(charge);
            band.amount = *withFlat;
            charge.bands.append(band);
            if (last)
                break;
            from = *tier.to;
        }
        if (charge.bands.isEmpty())
            return ApiError::invalidRequest(
                u"the tiers end at %1, below the %2 units to price"_s.arg(
                    from.toString(), charge.billableUnits.toString()));
    }
    charge.exact = exact;
    charge.amount = rounded(exact, minorDigits);
    if (charge.amount > Money::largestLine())
        return capped(charge);
    return charge;
}

} // namespace md::engine
