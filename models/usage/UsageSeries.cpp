#include "models/usage/UsageSeries.h"

#include <QDateTime>

#include <algorithm>

namespace md::models {

namespace {

void add(UsageSeries::Point &point, const api::UsageFigures &figures)
{
    point.cost = point.cost.runningSum(figures.cost);
    point.units = point.units.runningSum(figures.units);
    point.tokens += figures.tokens;
}

void addDays(QMap<qint64, UsageSeries::Point> &points, const QList<api::UsageDay> &days,
             qint64 periodMs)
{
    for (const api::UsageDay &day : days)
        add(points[UsageSeries::startOf(day.day, periodMs)], day.figures);
}

} // namespace

qint64 UsageSeries::startOf(QDate day, qint64 periodMs)
{
    const qint64 ms = day.startOfDay(Qt::UTC).toMSecsSinceEpoch();
    return ms - ms % periodMs;
}

qint64 UsageSeries::periodFor(const api::UsageTotals &totals)
{
    QDate first;
    QDate last;
    const auto see = [&](const QList<api::UsageDay> &days) {
        if (days.isEmpty())
            return;
        if (!first.isValid() || days.first().day < first)
            first = days.first().day;
        if (!last.isValid() || days.last().day > last)
            last = days.last().day;
    };
    for (const api::UsageGroup &group : totals.groups)
        see(group.days);
    if (totals.other)
        see(totals.other->days);
    const qint64 span = first.isValid() ? first.daysTo(last) * Day : 0;
    for (const qint64 period : {Day, 7 * Day})
        if (span / period < 60)
            return period;
    return 30 * Day;
}

UsageSeries::Groups UsageSeries::build(const api::UsageTotals &totals, const QString &noneLabel,
                                       const QString &otherLabel, qint64 periodMs)
{
    Groups groups;
    for (const api::UsageGroup &group : totals.groups)
        addDays(groups[group.key.value_or(noneLabel)], group.days, periodMs);
    if (totals.other)
        addDays(groups[otherLabel], totals.other->days, periodMs);
    return groups;
}

QSet<qint64> UsageSeries::partialPeriods(const api::UsageTotals &totals, qint64 periodMs)
{
    QSet<qint64> periods;
    for (const QDate day : totals.partialDays)
        periods.insert(startOf(day, periodMs));
    return periods;
}

} // namespace md::models
