#include "models/revenue/RevenueHistory.h"

#include "models/common/WhenDone.h"

#include "services/api/BillingPeriod.h"

#include <memory>

namespace md::models {

RevenueHistory::RevenueHistory(backend::BillingBackend *backend, QObject *parent)
    : QObject(parent)
    , m_backend(backend)
{}

QList<std::pair<qint64, qint64>> RevenueHistory::monthsUpTo(qint64 nowMs, int count)
{
    const qint64 current =
        api::BillingPeriod::containing(api::ResetInterval::Month, 0, nowMs).first;
    QList<std::pair<qint64, qint64>> months;
    for (int back = count - 1; back >= 0; --back) {
        const qint64 start = api::BillingPeriod::advance(api::ResetInterval::Month, current, -back);
        months.append({start, api::BillingPeriod::advance(api::ResetInterval::Month, start)});
    }
    return months;
}

void RevenueHistory::load(qint64 nowMs)
{
    const quint64 generation = ++m_generation;
    const auto ranges = monthsUpTo(nowMs, Months);
    auto pending = std::make_shared<QList<Month>>(ranges.size());
    auto left = std::make_shared<int>(int(ranges.size()));
    auto failed = std::make_shared<bool>(false);
    for (qsizetype i = 0; i < ranges.size(); ++i) {
        api::RevenueSummaryRequest request;
        request.from = ranges.at(i).first;
        request.to = ranges.at(i).second;
        request.groupBy = api::RevenueGroupBy::Product;
        // An open period counts in the month it began, which may be an
        // earlier one (a plan renewing mid-month), so every month asks.
        request.includeOpen = true;
        request.openMaxAgeMs = OpenMaxAgeMs;
        (*pending)[i].start = request.from;
        (*pending)[i].end = request.to;
        (*pending)[i].open = i == ranges.size() - 1;
        whenFinished(m_backend->revenueSummary(request), this,
                     [this, generation, pending, left, failed,
                      i](const api::Result<api::RevenueSummary> &summary) {
                         if (generation != m_generation || *failed)
                             return;
                         if (!summary) {
                             *failed = true;
                             Q_EMIT this->failed(summary.error());
                             return;
                         }
                         Month &month = (*pending)[i];
                         for (const api::RevenueGroup &group : summary.value().groups)
                             month.byProduct.insert(group.key, group.total);
                         month.total = summary.value().total;
                         if (--*left == 0) {
                             m_months = *pending;
                             Q_EMIT loaded();
                         }
                     });
    }
}

QStringList RevenueHistory::products() const
{
    QMap<QString, api::Decimal> year;
    for (const Month &month : m_months)
        for (auto it = month.byProduct.cbegin(); it != month.byProduct.cend(); ++it)
            year[it.key()] = year[it.key()].runningSum(it.value());
    QStringList names = year.keys();
    std::stable_sort(names.begin(), names.end(), [&year](const QString &a, const QString &b) {
        return year.value(b) < year.value(a);
    });
    return names;
}

} // namespace md::models
