#include "models/usage/UsageSeries.h"

#include "models/usage/UsageEventModel.h"

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
    // An event without a model counts units of its feature, not dollars.
    api::Decimal &sum = event.modelId ? point.cost : point.units;
    sum = sum.plus(event.value).value_or(sum);
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
    QHash<QString, Point> totals;
    for (const api::UsageEvent &event : events)
        add(totals[keyOf(event, groupBy)], event);
    QStringList keys = totals.keys();
    const auto size = [&](const QString &key) {
        return std::pair(totals.value(key).cost, totals.value(key).units);
    };
    std::sort(keys.begin(), keys.end(), [&](const QString &a, const QString &b) {
        return size(b) < size(a) || (size(a) == size(b) && a < b);
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
