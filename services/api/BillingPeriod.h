// Calendar periods in UTC: a reset interval's next reset, and the period of
// a repeating interval that contains a moment, counted from an anchor
// (a subscription's start, say) so months keep the anchor's day.
#pragma once

#include "services/api/Balance.h"

#include <utility>

namespace md::api {

class BillingPeriod final
{
public:
    // `count` intervals after `fromMs` (a one-off interval never moves).
    static qint64 advance(ResetInterval interval, qint64 fromMs, qint64 count = 1);
    // [start, end) of the interval's period holding `nowMs`, the periods
    // counted from `anchorMs`; the first period when now is before the anchor.
    static std::pair<qint64, qint64> containing(ResetInterval interval, qint64 anchorMs,
                                                qint64 nowMs);
    // The shortest an interval can last (a month 28 days): n of them never
    // pass a boundary that n intervals would not. 0 for one-off.
    static qint64 shortestMs(ResetInterval interval);
};

} // namespace md::api
