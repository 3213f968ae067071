// Usage events summed per period (a day, a week…) and per customer, feature or model, for the
// Usage page's chart. Costs stay exact decimals; only the chart converts
// them to doubles, to draw them.
#pragma once

#include "services/api/UsageEvent.h"

#include <QMap>

namespace md::models {

class UsageSeries final
{
public:
    enum class GroupBy { Customer, Feature, Model };
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

    // At most `maxGroups` groups: the largest by cost, then by units, the
    // rest summed as `otherLabel`.
    static Groups build(const QList<api::UsageEvent> &events, GroupBy groupBy, int maxGroups,
                        const QString &otherLabel, qint64 periodMs = Day);
    // A period that keeps a chart of these events under about 60 bars: a day,
    // a week or 30 days.
    static qint64 periodFor(const QList<api::UsageEvent> &events);
};

} // namespace md::models
