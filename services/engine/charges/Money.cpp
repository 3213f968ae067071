#include "services/engine/charges/Money.h"

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

// Nano-units in a minor unit (10^7 for cents).
api::Int128 minorStep()
{
    api::Int128 step = 1;
    for (int d = Money::MinorDigits; d < api::Decimal::Scale; ++d)
        step *= 10;
    return step;
}

} // namespace

api::Decimal Money::amountOf(qint64 minor)
{
    return api::Decimal::fromRaw(api::Int128(minor) * minorStep());
}

api::Result<api::Decimal> Money::total(const QList<api::ChargeLine> &lines)
{
    api::Decimal total;
    for (const api::ChargeLine &line : lines) {
        const auto sum = total.sum(line.amount);
        if (!sum)
            return api::ApiError::internal(u"the charges leave the range of sums"_s);
        total = *sum;
    }
    return total;
}

api::Result<qint64> Money::minorOf(api::Decimal amount)
{
    const api::Int128 minor = amount.raw() / minorStep();
    if (minor > std::numeric_limits<qint64>::max() || minor < std::numeric_limits<qint64>::min())
        return api::ApiError::internal(
            u"the amount %1 is past the range of kept sums (2^63 minor units)"_s.arg(
                amount.toString()));
    return qint64(minor);
}

} // namespace md::engine
