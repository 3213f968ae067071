#include "services/engine/controls/CallLimits.h"

#include <QDateTime>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;
using api::Decimal;

FeatureTotals FeatureTotals::of(const QList<api::BalanceRow> &rows)
{
    FeatureTotals totals;
    // Sums of a customer's rows may pass what one amount holds (Decimal.h):
    // they are added as sums, never dropped.
    for (const api::BalanceRow &row : rows) {
        totals.granted = totals.granted.runningSum(row.includedGrant).runningSum(row.prepaidGrant);
        totals.included = totals.included.runningSum(row.includedGrant);
        totals.remaining = totals.remaining.runningSum(row.remaining);
        totals.usage = totals.usage.runningSum(row.usage);
    }
    return totals;
}

Decimal FeatureTotals::overage() const
{
    return remaining.isNegative() ? remaining.negated() : Decimal();
}

api::Result<QList<LimitWindow>> CallLimits::windows(const QSqlDatabase &db, qint64 customerPk,
                                                    std::optional<qint64> entityPk,
                                                    qint64 featurePk,
                                                    const api::BillingControls &controls,
                                                    const QString &featureId, qint64 nowMs)
{
    QList<LimitWindow> windows;
    for (const api::UsageLimit &limit : controls.usageLimitsFor(featureId)) {
        auto start = BillingControlStore::windowStart(db, customerPk, limit, nowMs);
        if (!start)
            return start.error();
        auto used = BillingControlStore::windowUsage(db, customerPk, entityPk, featurePk, limit,
                                                     start.value());
        if (!used)
            return used.error();
        windows.append({limit, start.value(), used.value()});
    }
    return windows;
}

api::Result<std::optional<Decimal>> CallLimits::room(const QList<LimitWindow> &windows,
                                                     const QString &customerId,
                                                     const QString &featureId)
{
    std::optional<Decimal> room;
    for (const LimitWindow &window : windows) {
        const Decimal left = std::max(Decimal(), *window.limit.limit.minus(window.used));
        if (left.isZero())
            return ApiError{
                429, api::ErrorCode::UsageLimitReached,
                u"customer \"%1\" has used %2 of the %3 %4 allowed for \"%5\" this %6 (since %7); calls are refused until the next %6 or until the limit is raised"_s
                    .arg(customerId, window.used.toString(), window.limit.limit.toString(),
                         window.limit.anchor == api::LimitAnchor::Utc ? u"(UTC)"_s
                                                                      : u"(billing cycle)"_s,
                         featureId, QString(api::toWire(window.limit.interval)),
                         QDateTime::fromMSecsSinceEpoch(window.start, Qt::UTC)
                             .toString(Qt::ISODate))};
        room = room ? std::min(*room, left) : left;
    }
    return room;
}

std::optional<ApiError> CallLimits::spendRefusal(const api::BillingControls &controls,
                                                 const QString &customerId,
                                                 const QString &featureId,
                                                 const FeatureTotals &before,
                                                 const FeatureTotals &after)
{
    if (!(before.overage() < after.overage()))
        return std::nullopt; // the call owes nothing more
    for (const api::SpendLimit &limit : controls.spendLimitsFor(featureId)) {
        const Decimal cap =
            limit.limitType == api::SpendLimitType::Absolute
                ? limit.overageLimit
                : before.included.mulDiv(limit.overageLimit.raw(), 100 * Decimal::One)
                      .value_or(Decimal());
        if (cap < after.overage())
            return ApiError{
                402, api::ErrorCode::SpendLimitReached,
                u"the call would take customer \"%1\" to an overage of %2 on \"%3\", past its spend limit of %4; nothing was deducted. Raise the limit or add balance"_s
                    .arg(customerId, after.overage().toString(), featureId, cap.toString())};
    }
    return std::nullopt;
}

QList<BillingControlStore::FiredAlert>
CallLimits::crossed(const api::BillingControls &controls, const QString &featureId,
                    qint64 featurePk, const FeatureTotals &before, const FeatureTotals &after)
{
    // A percentage of every grant of the feature (the "balance" basis).
    const auto percent = [](Decimal part, Decimal whole) -> std::optional<Decimal> {
        if (!(Decimal() < whole))
            return std::nullopt;
        return part.mulDiv(100 * Decimal::One, whole.raw());
    };
    QList<BillingControlStore::FiredAlert> fired;
    for (const api::UsageAlert &alert : controls.usageAlertsFor(featureId)) {
        std::optional<Decimal> was;
        std::optional<Decimal> now;
        bool rising = true; // usage alerts fire going up, remaining ones going down
        switch (alert.thresholdType) {
        case api::ThresholdType::Usage:
            was = before.usage;
            now = after.usage;
            break;
        case api::ThresholdType::UsagePercentage:
            was = percent(before.usage, before.granted);
            now = percent(after.usage, after.granted);
            break;
        case api::ThresholdType::Remaining:
            was = before.remaining;
            now = after.remaining;
            rising = false;
            break;
        case api::ThresholdType::RemainingPercentage:
            was = percent(before.remaining, before.granted);
            now = percent(after.remaining, after.granted);
            rising = false;
            break;
        }
        if (!was || !now)
            continue;
        const bool crossedNow = rising ? (*was < alert.threshold && !(*now < alert.threshold))
                                       : (alert.threshold < *was && !(alert.threshold < *now));
        if (crossedNow)
            fired.append({featurePk, alert, *now});
    }
    return fired;
}

} // namespace md::engine
