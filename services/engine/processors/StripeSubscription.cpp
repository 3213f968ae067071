#include "services/engine/processors/StripeSubscription.h"

#include <QJsonArray>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;

namespace {

std::optional<qint64> optSeconds(const QJsonObject &object, QLatin1StringView key)
{
    const QJsonValue value = object.value(key);
    if (!value.isDouble())
        return std::nullopt;
    return qint64(value.toDouble()) * 1000;
}

// `price`, or the legacy `plan`: its id, product, metadata and lookup key.
StripeSubscription::Item itemOf(const QJsonObject &item)
{
    QJsonObject price = item.value("price"_L1).toObject();
    if (price.isEmpty())
        price = item.value("plan"_L1).toObject();
    const QJsonValue product = price.value("product"_L1);
    return {price.value("id"_L1).toString(),
            product.isObject() ? product.toObject().value("id"_L1).toString() : product.toString(),
            price.value("metadata"_L1).toObject().value("meterdesk_plan_id"_L1).toString(),
            price.value("lookup_key"_L1).toString(),
            item.value("quantity"_L1).isDouble() ? qint64(item.value("quantity"_L1).toDouble())
                                                 : 1};
}

} // namespace

api::Result<StripeSubscription> StripeSubscription::read(const QJsonObject &object)
{
    StripeSubscription subscription;
    subscription.id = object.value("id"_L1).toString();
    const QJsonValue customer = object.value("customer"_L1);
    subscription.customer =
        customer.isObject() ? customer.toObject().value("id"_L1).toString() : customer.toString();
    subscription.status = object.value("status"_L1).toString();
    const auto started = optSeconds(object, "start_date"_L1);
    if (subscription.id.isEmpty() || subscription.customer.isEmpty() ||
        subscription.status.isEmpty() || !started)
        return ApiError{502, api::ErrorCode::ProcessorRefused,
                        u"Stripe's subscription %1 lacks its id, customer, status or "
                        "start_date"_s.arg(subscription.id)};
    subscription.startedAt = *started;
    subscription.billingCycleAnchor =
        optSeconds(object, "billing_cycle_anchor"_L1).value_or(*started);
    subscription.trialEnd = optSeconds(object, "trial_end"_L1);
    subscription.cancelAt = optSeconds(object, "cancel_at"_L1);
    subscription.canceledAt = optSeconds(object, "canceled_at"_L1);
    subscription.cancelAtPeriodEnd = object.value("cancel_at_period_end"_L1).toBool();
    const QJsonArray items = object.value("items"_L1).toObject().value("data"_L1).toArray();
    for (const QJsonValue &item : items)
        subscription.items.append(itemOf(item.toObject()));
    // Since API version 2025-03-31 the period is each item's.
    const QJsonObject periodHolder = object.contains("current_period_start"_L1) || items.isEmpty()
                                         ? object
                                         : items.first().toObject();
    subscription.currentPeriodStart = optSeconds(periodHolder, "current_period_start"_L1);
    subscription.currentPeriodEnd = optSeconds(periodHolder, "current_period_end"_L1);
    return subscription;
}

api::PlanStatus StripeSubscription::planStatus() const
{
    if (status == "active"_L1)
        return api::PlanStatus::Active;
    if (status == "trialing"_L1)
        return api::PlanStatus::Trialing;
    if (status == "canceled"_L1)
        return api::PlanStatus::Canceled;
    if (status == "incomplete_expired"_L1)
        return api::PlanStatus::Expired;
    return api::PlanStatus::PastDue; // past_due, unpaid, incomplete, paused
}

std::optional<qint64> StripeSubscription::endsAt() const
{
    if (cancelAt)
        return cancelAt;
    return cancelAtPeriodEnd ? currentPeriodEnd : std::nullopt;
}

const StripeSubscription::Item *StripeSubscription::itemFor(const QString &planId) const
{
    for (const Item &item : items)
        if (item.meterdeskPlanId == planId ||
            (item.meterdeskPlanId.isEmpty() && item.lookupKey == planId))
            return &item;
    return items.size() == 1 ? &items.first() : nullptr;
}

} // namespace md::engine
