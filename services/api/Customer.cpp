#include "services/api/Customer.h"

#include "services/api/WireCodec.h"

namespace md::api {

namespace {

using namespace Qt::StringLiterals;

constexpr std::pair<QLatin1StringView, PlanStatus> PlanStatusWords[] = {
    {"active"_L1, PlanStatus::Active},    {"trialing"_L1, PlanStatus::Trialing},
    {"past_due"_L1, PlanStatus::PastDue}, {"canceled"_L1, PlanStatus::Canceled},
    {"expired"_L1, PlanStatus::Expired},
};

// A JSON array kept as sent, after checking that it is one.
QJsonArray readRawArray(const JsonReader &reader)
{
    reader.array();
    return reader.raw().toArray();
}

} // namespace

QLatin1StringView toWire(PlanStatus value)
{
    return wordOf(PlanStatusWords, value);
}

PlanStatus readPlanStatus(const JsonReader &reader)
{
    return reader.word(PlanStatusWords);
}

std::optional<PlanStatus> readOptPlanStatus(const JsonReader &reader)
{
    return reader.optWord(PlanStatusWords);
}

Subscription Subscription::read(const JsonReader &reader)
{
    reader.object();
    Subscription subscription;
    subscription.planId = reader.field("planId"_L1).string();
    subscription.autoEnable = reader.field("autoEnable"_L1).boolean();
    subscription.addOn = reader.field("addOn"_L1).boolean();
    subscription.status = readPlanStatus(reader.field("status"_L1));
    subscription.pastDue = reader.field("pastDue"_L1).boolean();
    subscription.canceledAt = reader.field("canceledAt"_L1).nullableInteger();
    subscription.expiresAt = reader.field("expiresAt"_L1).nullableInteger();
    subscription.trialEndsAt = reader.field("trialEndsAt"_L1).nullableInteger();
    subscription.startedAt = reader.field("startedAt"_L1).integer();
    subscription.currentPeriodStart = reader.field("currentPeriodStart"_L1).integer();
    const JsonReader periodEnd = reader.field("currentPeriodEnd"_L1);
    subscription.currentPeriodEnd = periodEnd.integer();
    if (reader.ok() && subscription.currentPeriodEnd < subscription.currentPeriodStart)
        periodEnd.fail(u"must not be before currentPeriodStart"_s);
    subscription.quantity = reader.field("quantity"_L1).nonNegativeDecimal();
    return subscription;
}

QJsonObject Subscription::toJson() const
{
    return {{u"planId"_s, planId},
            {u"autoEnable"_s, autoEnable},
            {u"addOn"_s, addOn},
            {u"status"_s, QString(toWire(status))},
            {u"pastDue"_s, pastDue},
            {u"canceledAt"_s, nullable(canceledAt)},
            {u"expiresAt"_s, nullable(expiresAt)},
            {u"trialEndsAt"_s, nullable(trialEndsAt)},
            {u"startedAt"_s, startedAt},
            {u"currentPeriodStart"_s, currentPeriodStart},
            {u"currentPeriodEnd"_s, currentPeriodEnd},
            {u"quantity"_s, quantity.toJson()}};
}

CustomerFlag CustomerFlag::read(const JsonReader &reader)
{
    reader.object();
    CustomerFlag flag;
    flag.id = reader.field("id"_L1).string();
    flag.planId = reader.field("plan_id"_L1).nullableString();
    flag.expiresAt = reader.field("expires_at"_L1).nullableInteger();
    flag.featureId = reader.field("feature_id"_L1).string();
    return flag;
}

QJsonObject CustomerFlag::toJson() const
{
    return {{u"id"_s, id},
            {u"plan_id"_s, nullable(planId)},
            {u"expires_at"_s, nullable(expiresAt)},
            {u"feature_id"_s, featureId}};
}

CustomerConfig CustomerConfig::read(const JsonReader &reader)
{
    reader.object();
    CustomerConfig config;
    config.disablePooledBalance = reader.field("disable_pooled_balance"_L1).boolean();
    config.disableOverageBilling = reader.field("disable_overage_billing"_L1).boolean();
    return config;
}

QJsonObject CustomerConfig::toJson() const
{
    return {{u"disable_pooled_balance"_s, disablePooledBalance},
            {u"disable_overage_billing"_s, disableOverageBilling}};
}

Customer Customer::read(const JsonReader &reader)
{
    reader.object();
    Customer customer;
    customer.id = reader.field("id"_L1).string();
    customer.name = reader.field("name"_L1).string();
    customer.email = reader.field("email"_L1).string();
    customer.createdAt = reader.field("createdAt"_L1).integer();
    customer.fingerprint = reader.field("fingerprint"_L1).nullableString();
    customer.stripeId = reader.field("stripeId"_L1).nullableString();
    for (const auto &[name, processor] : reader.field("processors"_L1).members()) {
        processor.object();
        customer.processors.insert(name, processor.field("id"_L1).string());
    }
    customer.env = readEnvironment(reader.field("env"_L1));
    customer.metadata = reader.field("metadata"_L1).object();
    customer.sendEmailReceipts = reader.field("sendEmailReceipts"_L1).boolean();
    const JsonReader controls = reader.field("billingControls"_L1);
    controls.object();
    customer.autoTopups = readRawArray(controls.field("autoTopups"_L1));
    customer.subscriptions = readList<Subscription>(reader.field("subscriptions"_L1));
    customer.purchases = readRawArray(reader.field("purchases"_L1));
    customer.licenses = readRawArray(reader.field("licenses"_L1));
    for (const auto &[featureId, summary] : reader.field("balances"_L1).members())
        customer.balances.insert(featureId, BalanceSummary::readCamel(summary));
    for (const auto &[featureId, flag] : reader.field("flags"_L1).members())
        customer.flags.insert(featureId, CustomerFlag::read(flag));
    customer.config = CustomerConfig::read(reader.field("config"_L1));
    return customer;
}

QJsonObject Customer::toJson() const
{
    QJsonObject processorObjects;
    for (auto it = processors.cbegin(); it != processors.cend(); ++it)
        processorObjects.insert(it.key(), QJsonObject{{u"id"_s, it.value()}});
    QJsonObject balanceObjects;
    for (auto it = balances.cbegin(); it != balances.cend(); ++it)
        balanceObjects.insert(it.key(), it.value().toCamelJson());
    QJsonObject flagObjects;
    for (auto it = flags.cbegin(); it != flags.cend(); ++it)
        flagObjects.insert(it.key(), it.value().toJson());
    return {{u"id"_s, id},
            {u"name"_s, name},
            {u"email"_s, email},
            {u"createdAt"_s, createdAt},
            {u"fingerprint"_s, nullable(fingerprint)},
            {u"stripeId"_s, nullable(stripeId)},
            {u"processors"_s, processorObjects},
            {u"env"_s, QString(toWire(env))},
            {u"metadata"_s, metadata},
            {u"sendEmailReceipts"_s, sendEmailReceipts},
            {u"billingControls"_s, QJsonObject{{u"autoTopups"_s, autoTopups}}},
            {u"subscriptions"_s, toJsonArray(subscriptions)},
            {u"purchases"_s, purchases},
            {u"licenses"_s, licenses},
            {u"balances"_s, balanceObjects},
            {u"flags"_s, flagObjects},
            {u"config"_s, config.toJson()}};
}

} // namespace md::api
