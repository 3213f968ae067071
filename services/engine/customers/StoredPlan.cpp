#include "services/engine/customers/StoredPlan.h"

#include "services/api/BillingPeriod.h"
#include "services/api/WireCodec.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/sql/StoredJson.h"

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;
using api::Decimal;

// A plan still in force from its processor: importing it again skips it.
bool StoredPlan::inForce(const QString &status)
{
    return status == "active"_L1 || status == "trialing"_L1 || status == "past_due"_L1;
}

// The interval a plan's subscription renews on: its first recurring price
// (an item with a price and an interval), else its first item that resets,
// else a month (docs/api.md, "Imported subscriptions").
api::ResetInterval StoredPlan::renewalInterval(const QList<api::ProductItem> &items)
{
    const auto repeats = [](const api::ProductItem &item) {
        return item.interval && *item.interval != api::ResetInterval::OneOff &&
               *item.interval != api::ResetInterval::Multiple;
    };
    for (const api::ProductItem &item : items)
        if (repeats(item) && (item.price || item.tiers))
            return *item.interval;
    for (const api::ProductItem &item : items)
        if (repeats(item))
            return *item.interval;
    return api::ResetInterval::Month;
}

api::BillingMethod StoredPlan::billingMethodOf(const api::ProductItem &item)
{
    return item.usageModel == api::UsageModel::Prepaid ? api::BillingMethod::Prepaid
                                                       : api::BillingMethod::UsageBased;
}

bool StoredPlan::matches(const api::ImportBalance &reported, const api::ProductItem &item)
{
    if (reported.featureId != item.featureId)
        return false;
    if (!reported.filter)
        return true;
    if (reported.filter->interval &&
        *reported.filter->interval != item.interval.value_or(api::ResetInterval::OneOff))
        return false;
    return !reported.filter->billingBehavior ||
           *reported.filter->billingBehavior == billingMethodOf(item);
}

// The balance price of a priced plan item, or none.
std::optional<api::Price> StoredPlan::priceOf(const api::ProductItem &item)
{
    if (!item.price && !item.tiers)
        return std::nullopt;
    api::Price price;
    price.amount = item.price;
    price.tiers = item.tiers;
    if (item.tiers)
        price.tierBehavior = api::TierBehavior::Graduated;
    price.billingUnits = item.billingUnits.value_or(Decimal::fromInteger(1));
    price.billingMethod = billingMethodOf(item);
    return price;
}

api::Result<StoredPlan> StoredPlan::find(const QSqlDatabase &db, const Scope &scope,
                                         const api::ImportPlan &plan, const QString &path)
{
    QString sql =
        u"SELECT pk, items, free_trial FROM products WHERE org_pk = ? AND env = ? AND id = ?"_s;
    QVariantList binds{scope.orgPk, scope.envWord(), plan.planId};
    if (plan.version) {
        sql += u" AND version = ?"_s;
        binds << *plan.version;
    }
    auto rows = queryRows(db, sql + u" ORDER BY version DESC LIMIT 1"_s, binds);
    if (!rows)
        return rows.error();
    if (rows.value().isEmpty())
        return ApiError::notFound(
            api::ErrorCode::ProductNotFound,
            plan.version
                ? u"%1: plan \"%2\" has no version %3"_s.arg(path, plan.planId).arg(*plan.version)
                : u"%1: plan \"%2\" does not exist"_s.arg(path, plan.planId));
    auto items = decodeStored(rows.value().first().at(1), u"items of plan %1"_s.arg(plan.planId),
                              &api::readList<api::ProductItem>);
    if (!items)
        return items.error();
    StoredPlan found{rows.value().first().at(0).toLongLong(), items.value(), std::nullopt};
    if (!rows.value().first().at(2).isNull()) {
        auto trial = decodeStored<api::FreeTrial>(rows.value().first().at(2),
                                                  u"free trial of plan %1"_s.arg(plan.planId));
        if (!trial)
            return trial.error();
        found.freeTrial = trial.value();
    }
    return found;
}

std::optional<qint64> StoredPlan::trialEndOf(api::PlanStatus status, qint64 startedAt) const
{
    if (status != api::PlanStatus::Trialing || !freeTrial)
        return std::nullopt;
    const api::ResetInterval unit =
        freeTrial->duration == api::TrialDuration::Day     ? api::ResetInterval::Day
        : freeTrial->duration == api::TrialDuration::Month ? api::ResetInterval::Month
                                                           : api::ResetInterval::Year;
    // Past 100,000 days, months or years a trial never ends in practice;
    // held there so the calendar's arithmetic stays in range.
    return api::BillingPeriod::advance(unit, startedAt,
                                       std::min<qint64>(freeTrial->length, 100000));
}

} // namespace md::engine
