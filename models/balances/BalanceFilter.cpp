#include "models/balances/BalanceFilter.h"

#include "models/balances/BalanceAdjustEdit.h"

#include <QCoreApplication>
#include <QJsonDocument>

namespace md::models {

using namespace Qt::StringLiterals;

QString BalanceFilter::setRemainingBelow(const QString &text, bool percent, const QLocale &locale)
{
    remainingBelow.reset();
    remainingBelowPercent.reset();
    const QString typed = text.trimmed();
    if (percent) {
        bool ok = false;
        const int p = locale.toInt(typed, &ok);
        if (!ok || p < 1 || p > 100)
            return QCoreApplication::translate(
                       "BalanceFilter",
                       "Remaining below: \"%1\" is not a percentage; type a whole number from 1 "
                       "to 100.")
                .arg(typed);
        remainingBelowPercent = p;
        return {};
    }
    const auto amount = BalanceAdjustEdit::amountFrom(typed, locale);
    if (!amount)
        return QCoreApplication::translate(
                   "BalanceFilter",
                   "Remaining below: \"%1\" is not an amount; write it like %2, without "
                   "thousands separators.")
            .arg(typed, locale.toString(12.5, 'f', 1));
    remainingBelow = amount;
    return {};
}

api::Result<api::ListBalancesRequest> BalanceFilter::request() const
{
    if (!active && !expired)
        return api::ApiError::invalidInputs(
            {}, QCoreApplication::translate("BalanceFilter", "Choose Active, Expired or both."));
    api::ListBalancesRequest request;
    request.limit = api::ListBalancesRequest::MaxLimit;
    request.statuses.clear();
    if (active)
        request.statuses.append(api::BalanceStatus::Active);
    if (expired)
        request.statuses.append(api::BalanceStatus::Expired);
    if (!customerId.isEmpty()) {
        request.customerId = customerId;
        if (!entityId.isEmpty())
            request.entityId = entityId;
    }
    if (!featureId.isEmpty())
        request.featureId = featureId;
    if (planMode == PlanMode::NoPlan)
        request.planId = std::optional<QString>();
    else if (planMode == PlanMode::Plan && !planId.isEmpty())
        request.planId = planId;
    if (resetsBefore)
        request.resetsBefore = resetsBefore->startOfDay().toMSecsSinceEpoch();
    request.remainingBelow = remainingBelow;
    if (remainingBelowPercent)
        request.remainingBelowPercent = *remainingBelowPercent;
    request.orderBy = orderBy;
    request.descending = descending;
    return request;
}

QJsonObject BalanceFilter::toJson() const
{
    QJsonObject json{{u"customer_id"_s, customerId},
                     {u"entity_id"_s, entityId},
                     {u"feature_id"_s, featureId},
                     {u"plan"_s, planMode == PlanMode::Any      ? u"any"_s
                                 : planMode == PlanMode::NoPlan ? u"none"_s
                                                                : u"plan"_s},
                     {u"plan_id"_s, planId},
                     {u"active"_s, active},
                     {u"expired"_s, expired}};
    if (resetsBefore)
        json.insert(u"resets_before"_s, resetsBefore->toString(Qt::ISODate));
    if (remainingBelow) // as text: a double would round it
        json.insert(u"remaining_below"_s, remainingBelow->toString());
    if (remainingBelowPercent)
        json.insert(u"remaining_below_percent"_s, *remainingBelowPercent);
    if (orderBy != api::BalanceOrder::Customer)
        json.insert(u"order_by"_s, QString(api::toWire(orderBy)));
    if (descending)
        json.insert(u"order"_s, u"desc"_s);
    return json;
}

QByteArray BalanceFilter::serialized() const
{
    return QJsonDocument(toJson()).toJson(QJsonDocument::Compact);
}

std::optional<BalanceFilter> BalanceFilter::fromSerialized(const QByteArray &bytes)
{
    const QJsonDocument document = QJsonDocument::fromJson(bytes);
    return document.isObject() ? fromJson(document.object()) : std::nullopt;
}

std::optional<BalanceFilter> BalanceFilter::fromJson(const QJsonObject &json)
{
    BalanceFilter filter;
    for (const char *key : {"customer_id", "entity_id", "feature_id", "plan_id"}) {
        const QJsonValue value = json.value(QLatin1StringView(key));
        if (!value.isUndefined() && !value.isString())
            return std::nullopt;
    }
    filter.customerId = json.value(u"customer_id"_s).toString();
    filter.entityId = json.value(u"entity_id"_s).toString();
    filter.featureId = json.value(u"feature_id"_s).toString();
    filter.planId = json.value(u"plan_id"_s).toString();
    const QString plan = json.value(u"plan"_s).toString(u"any"_s);
    if (plan == "any"_L1)
        filter.planMode = PlanMode::Any;
    else if (plan == "none"_L1)
        filter.planMode = PlanMode::NoPlan;
    else if (plan == "plan"_L1)
        filter.planMode = PlanMode::Plan;
    else
        return std::nullopt;
    filter.active = json.value(u"active"_s).toBool(true);
    filter.expired = json.value(u"expired"_s).toBool(false);
    if (const QJsonValue day = json.value(u"resets_before"_s); !day.isUndefined()) {
        filter.resetsBefore = QDate::fromString(day.toString(), Qt::ISODate);
        if (!filter.resetsBefore->isValid())
            return std::nullopt;
    }
    if (const QJsonValue below = json.value(u"remaining_below"_s); !below.isUndefined()) {
        filter.remainingBelow = api::Decimal::parse(below.toString());
        if (!below.isString() || !filter.remainingBelow)
            return std::nullopt;
    }
    if (const QJsonValue percent = json.value(u"remaining_below_percent"_s);
        !percent.isUndefined()) {
        const int p = percent.toInt(0);
        if (!percent.isDouble() || p < 1 || p > 100 || percent.toDouble() != p)
            return std::nullopt;
        filter.remainingBelowPercent = p;
    }
    const QString order = json.value(u"order_by"_s).toString(u"customer"_s);
    bool known = false;
    for (const auto by : {api::BalanceOrder::Customer, api::BalanceOrder::Remaining,
                          api::BalanceOrder::Usage, api::BalanceOrder::NextReset})
        if (order == api::toWire(by)) {
            filter.orderBy = by;
            known = true;
        }
    const QString direction = json.value(u"order"_s).toString(u"asc"_s);
    if (!known || (direction != "asc"_L1 && direction != "desc"_L1))
        return std::nullopt;
    filter.descending = direction == "desc"_L1;
    return filter;
}

} // namespace md::models
