#include "models/UsageSeries.h"

#include "models/UsageEventModel.h"

#include <algorithm>

namespace md::models {

namespace {

QString keyOf(const api::UsageEvent &event, UsageSeries::GroupBy groupBy)
{
    switch (groupBy) {
    case UsageSeries::GroupBy::Customer:
        return event.customerId;
    case UsageSeries::GroupBy::Feature:
        return event.featureId;
    case UsageSeries::GroupBy::Model:
        return event.modelId.value_or(QString());
    }
    return {};
}

void add(UsageSeries::Point &point, const api::UsageEvent &event)
{
    point.cost = point.cost.plus(event.value).value_or(point.cost);
    point.tokens += UsageEventModel::totalTokens(event);
}

} // namespace

qint64 UsageSeries::periodFor(const QList<api::UsageEvent> &events)
{
    if (events.isEmpty())
        return Day;
    const auto [first, last] = std::minmax_element(
        events.cbegin(), events.cend(), [](const api::UsageEvent &a, const api::UsageEvent &b) {
            return a.timestamp < b.timestamp;
        });
    const qint64 span = last->timestamp - first->timestamp;
    for (const qint64 period : {Day, 7 * Day})
        if (span / period < 60)
            return period;
    return 30 * Day;
}

UsageSeries::Groups UsageSeries::build(const QList<api::UsageEvent> &events, GroupBy groupBy,
                                       int maxGroups, const QString &otherLabel, qint64 periodMs)
{
    QHash<QString, api::Decimal> totals;
    for (const api::UsageEvent &event : events) {
        api::Decimal &total = totals[keyOf(event, groupBy)];
        total = total.plus(event.value).value_or(total);
    }
    QStringList keys = totals.keys();
    std::sort(keys.begin(), keys.end(), [&](const QString &a, const QString &b) {
        return totals.value(b) < totals.value(a) || (totals.value(a) == totals.value(b) && a < b);
    });
    const QSet<QString> kept(keys.cbegin(),
                             keys.cbegin() + std::min<qsizetype>(maxGroups, keys.size()));
    Groups groups;
    for (const api::UsageEvent &event : events) {
        const QString key = keyOf(event, groupBy);
        const qint64 start = event.timestamp - event.timestamp % periodMs;
        add(groups[kept.contains(key) ? key : otherLabel][start], event);
    }
    return groups;
}

} // namespace md::models
