#include "services/api/BillingPeriod.h"

#include <QDateTime>

namespace md::api {

qint64 BillingPeriod::shortestMs(ResetInterval interval)
{
    constexpr qint64 Day = 86'400'000;
    switch (interval) {
    case ResetInterval::Minute:
        return 60'000;
    case ResetInterval::Hour:
        return 3'600'000;
    case ResetInterval::Day:
        return Day;
    case ResetInterval::Week:
        return 7 * Day;
    case ResetInterval::Month:
        return 28 * Day;
    case ResetInterval::Quarter:
        return 89 * Day;
    case ResetInterval::SemiAnnual:
        return 181 * Day;
    case ResetInterval::Year:
        return 365 * Day;
    case ResetInterval::OneOff:
    case ResetInterval::Multiple:
        break;
    }
    return 0;
}

qint64 BillingPeriod::advance(ResetInterval interval, qint64 fromMs, qint64 count)
{
    const QDateTime from = QDateTime::fromMSecsSinceEpoch(fromMs, Qt::UTC);
    switch (interval) {
    case ResetInterval::Minute:
    case ResetInterval::Hour:
    case ResetInterval::Day:
    case ResetInterval::Week:
        return fromMs + count * shortestMs(interval);
    case ResetInterval::Month:
        return from.addMonths(int(count)).toMSecsSinceEpoch();
    case ResetInterval::Quarter:
        return from.addMonths(int(3 * count)).toMSecsSinceEpoch();
    case ResetInterval::SemiAnnual:
        return from.addMonths(int(6 * count)).toMSecsSinceEpoch();
    case ResetInterval::Year:
        return from.addYears(int(count)).toMSecsSinceEpoch();
    case ResetInterval::OneOff:
    case ResetInterval::Multiple:
        break;
    }
    return fromMs;
}

std::pair<qint64, qint64> BillingPeriod::containing(ResetInterval interval, qint64 anchorMs,
                                                    qint64 nowMs)
{
    const qint64 step = shortestMs(interval);
    if (step == 0 || nowMs < anchorMs)
        return {anchorMs, advance(interval, anchorMs)};
    // Counted from the anchor each time (anchor + n months, never month after
    // month), so the 31st stays the 31st, or the month's last day.
    qint64 n = std::max<qint64>(0, (nowMs - anchorMs) / step - 1);
    while (advance(interval, anchorMs, n + 1) <= nowMs)
        ++n;
    while (n > 0 && advance(interval, anchorMs, n) > nowMs)
        --n;
    return {advance(interval, anchorMs, n), advance(interval, anchorMs, n + 1)};
}

} // namespace md::api
