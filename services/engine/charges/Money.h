// The currency and its minor unit (docs/billing.md, "Money is exact"):
// every organization bills in US dollars until one can say otherwise, and
// each line's amount is rounded to whole cents, so sums of lines are kept
// as 64-bit counts of cents, exactly.
#pragma once

#include "services/api/ChargesPreview.h"
#include "services/api/Decimal.h"
#include "services/api/Result.h"

namespace md::engine {

class Money final
{
public:
    static constexpr QLatin1StringView Currency{"usd"};
    static constexpr int MinorDigits = 2;

    // An amount already rounded to the minor unit as a count of them; 500
    // past 2^63 of them.
    static api::Result<qint64> minorOf(api::Decimal amount);
    static api::Decimal amountOf(qint64 minor);
    // The exact sum of lines' amounts (a preview's or a statement's total);
    // 500 past the range of sums.
    static api::Result<api::Decimal> total(const QList<api::ChargeLine> &lines);
};

} // namespace md::engine
