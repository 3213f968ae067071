// The Usage chart's bars: the per-day figures usage_events.totals answers,
// summed into periods (a day, a week or 30 days) per group. Costs stay
// exact decimals; only the chart converts them to doubles, to draw them.
#pragma once

#include "services/api/UsageTotals.h"

#include <QMap>
#include <QSet>

namespace md::models {

class UsageSeries final
{
public:
    struct Point
    {
        api::Decimal cost; // AI calls: credits, dollar for dollar
        qint64 tokens = 0;
        api::Decimal units; // other features' usage (balances.track): never added to cost
        friend bool operator==(const Point &, const Point &) = default;
    };
    static constexpr qint64 Day = 24 * 60 * 60 * 1000;
    // Group → start of the period (ms, periods counted from the epoch, UTC) → sums.
    using Groups = QMap<QString, QMap<qint64, Point>>;

    // The named groups by their key (`noneLabel` for the events of no
    // model), the rest as `otherLabel`.
    static Groups build(const api::UsageTotals &totals, const QString &noneLabel,
                        const QString &otherLabel, qint64 periodMs = Day);
    // A period that keeps a chart of these days under about 60 bars: a day,
    // a week or 30 days.
    static qint64 periodFor(const api::UsageTotals &totals);
    // The starts of the periods holding a day the filter's range covers only
    // in part (today, so far; the range's first day from its hour on).
    static QSet<qint64> partialPeriods(const api::UsageTotals &totals, qint64 periodMs = Day);
    static qint64 startOf(QDate day, qint64 periodMs);
};

} // namespace md::models
