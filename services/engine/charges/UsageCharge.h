// What a usage-based balance row's usage comes to (docs/billing.md, "Usage
// past the grant"): the usage past the row's grant, rounded up to whole
// billing units, priced by the row's amount per billing unit or by its
// tiers (graduated: each band's units at the band's rate; volume: every
// unit at the rate of the band reached; a band's flat amount once it is
// reached), exact to the nano-unit, then rounded once to the currency's
// minor unit, half away from zero. A prepaid row's purchase is priced the
// same way, on what was bought within max_purchase (docs/billing.md,
// "Prepaid purchases and AI credits").
#pragma once

#include "services/api/Balance.h"
#include "services/api/ChargesPreview.h"
#include "services/api/Decimal.h"
#include "services/api/Result.h"

#include <QList>

namespace md::engine {

struct UsageCharge
{
    // One tier band the usage reached (for a line's words).
    struct Band
    {
        api::Decimal units;  // of the billable units, those in this band
        api::Decimal rate;   // the band's amount per billing unit
        api::Decimal flat;   // its flat amount, 0 when it has none
        api::Decimal amount; // units × rate / billing units + flat
    };
    api::Decimal pastGrant;     // usage past the grant, 0 when within it
    api::Decimal billableUnits; // pastGrant rounded up to whole billing units
    api::Int128 increments = 0; // billableUnits / billing units
    QList<Band> bands;          // tiered prices only, bands reached in order
    api::Decimal exact;         // the amount before rounding
    api::Decimal amount;        // rounded to the currency's minor unit
    // It came to more than the largest line (Money::largestLine), which
    // it is billed at.
    bool capped = false;
};

class UsageCharges final
{
public:
    // `usage` and `grant` as the row holds them (grant: included plus
    // prepaid). 400 invalid_request when the price cannot be applied (no
    // amount and no tiers, billing units not above 0, tiers out of order);
    // past the largest line, capped at it.
    static api::Result<UsageCharge> charge(const api::Price &price, api::Decimal usage,
                                           api::Decimal grant, int minorDigits);

    // What a prepaid purchase of `bought` comes to: within the price's
    // max_purchase, in whole billing units, at its amount or tiers.
    static api::Result<UsageCharge> purchase(const api::Price &price, api::Decimal bought,
                                             int minorDigits);

    // The row a line is of.
    struct Row
    {
        QString balanceId;
        QString featureId;
        std::optional<QString> planId;
        std::optional<QString> entityId;
        api::Decimal usage;
        api::Decimal grant;
    };
    // Its usage line, in words: "1425 calls used, 1000 included: 425 billed
    // as 430 = 0.86", or that nothing is past the grant.
    static api::ChargeLine line(const Row &row, const UsageCharge &charge);
    // Its purchase line: "500 credits bought: billed as 500 = 50.00", saying
    // so when max_purchase held the purchase back; kind credits for an AI
    // credit system's row, else prepaid.
    static api::ChargeLine purchaseLine(const Row &row, bool creditSystem, api::Decimal bought,
                                        const UsageCharge &charge);

    // `value` rounded to `digits` decimals (0 to 9), half away from zero.
    static api::Decimal rounded(api::Decimal value, int digits);
};

} // namespace md::engine
