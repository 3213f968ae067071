#include "services/engine/charges/UsageCharge.h"

namespace md::engine {

using api::ApiError;
using api::Decimal;
using api::Int128;
using namespace Qt::StringLiterals;

namespace {

ApiError outOfRange()
{
    return ApiError::internal(u"the charge leaves the range of amounts (below 10^20)"_s);
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
    line.description = charge.pastGrant.isZero()
                           ? u"%1 %2 used of %3 included: nothing past it"_s.arg(
                                 row.usage.toString(), row.featureId, row.grant.toString())
                           : u"%1 %2 used, %3 included: %4 billed as %5 = %6"_s.arg(
                                 row.usage.toString(), row.featureId, row.grant.toString(),
                                 charge.pastGrant.toString(), charge.billableUnits.toString(),
                                 charge.amount.toString());
    return line;
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
        return outOfRange();
    if (past->raw() <= 0)
        return charge; // within the grant: nothing owed
    charge.pastGrant = *past;
    // Whole billing units, rounded up: 1,001 calls in units of 1,000 are 2.
    charge.increments = (past->raw() + units.raw() - 1) / units.raw();
    const auto billable = units.mulDiv(charge.increments, 1);
    if (!billable)
        return outOfRange();
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
            return outOfRange();
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
                return outOfRange();
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
    return charge;
}

} // namespace md::engine
