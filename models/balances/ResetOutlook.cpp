#include "models/balances/ResetOutlook.h"

#include "models/common/AmountFormat.h"
#include "services/api/BillingPeriod.h"

namespace md::models {

bool ResetOutlook::resets(const api::BalanceRow &row)
{
    return row.reset && row.reset->resetsAt && row.reset->interval != api::ResetInterval::OneOff;
}

QString ResetOutlook::atTheReset(const api::BalanceRow &row, const QLocale &locale)
{
    if (!resets(row))
        return {};
    if (row.unlimited)
        return tr("usage back to 0");
    const api::Decimal grant = row.includedGrant.runningSum(row.prepaidGrant);
    QString then = tr("%1 back, usage back to 0").arg(formatAmount(grant, locale));
    if (row.remaining.isNegative())
        then += tr("; the overage of %1 is forgiven")
                    .arg(formatAmount(row.remaining.negated(), locale));
    return then;
}

api::Decimal ResetOutlook::carried(const api::BalanceRow &row)
{
    if (!resets(row) || !row.reset->rollover || row.unlimited || row.remaining <= api::Decimal())
        return {};
    const std::optional<api::Decimal> &max = row.reset->rollover->max;
    return max ? std::min(row.remaining, *max) : row.remaining;
}

QString ResetOutlook::rollsOver(const api::BalanceRow &row, const QLocale &locale)
{
    if (!resets(row) || !row.reset->rollover || row.unlimited)
        return {};
    const api::RolloverRule &rule = *row.reset->rollover;
    const qint64 until =
        api::BillingPeriod::advance(rule.duration, *row.reset->resetsAt, rule.length);
    const api::Decimal amount = carried(row);
    QString text = amount.isZero()
                       ? tr("nothing unused now; what is left at the reset is kept for %1")
                             .arg(lengthName(rule.length, rule.duration))
                       : tr("%1 unused now carries over, kept until %2 (%3)")
                             .arg(formatAmount(amount, locale), formatTimestamp(until, locale),
                                  lengthName(rule.length, rule.duration));
    if (rule.max)
        text += tr("; at most %1 held, the soonest to expire giving way first")
                    .arg(formatAmount(*rule.max, locale));
    return text;
}

QString ResetOutlook::lengthName(qint64 length, api::ResetInterval duration)
{
    const int n = int(length);
    switch (duration) {
    case api::ResetInterval::Minute:
        return tr("%n minute(s)", nullptr, n);
    case api::ResetInterval::Hour:
        return tr("%n hour(s)", nullptr, n);
    case api::ResetInterval::Day:
        return tr("%n day(s)", nullptr, n);
    case api::ResetInterval::Week:
        return tr("%n week(s)", nullptr, n);
    case api::ResetInterval::Month:
        return tr("%n month(s)", nullptr, n);
    case api::ResetInterval::Quarter:
        return tr("%n quarter(s)", nullptr, n);
    case api::ResetInterval::SemiAnnual:
        return tr("%n half-year(s)", nullptr, n);
    case api::ResetInterval::Year:
        return tr("%n year(s)", nullptr, n);
    case api::ResetInterval::OneOff:
    case api::ResetInterval::Multiple:
        break;
    }
    return {};
}

} // namespace md::models
