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
JsonValue readRawArray(const JsonReader &reader)
{
    reader.array();
    return reader.raw().isArray() ? reader.raw() : JsonValue::array();
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

void Subscription::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("planId"_L1, planId)
        .field("autoEnable"_L1, autoEnable)
        .field("addOn"_L1, addOn)
        .field("status"_L1, toWire(status))
        .field("pastDue"_L1, pastDue)
        .field("canceledAt"_L1, canceledAt)
        .field("expiresAt"_L1, expiresAt)
        .field("trialEndsAt"_L1, trialEndsAt)
        .field("startedAt"_L1, startedAt)
        .field("currentPeriodStart"_L1, currentPeriodStart)
        .field("currentPeriodEnd"_L1, currentPeriodEnd)
        .field("quantity"_L1, quantity)
        .endObject();
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

void CustomerFlag::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("id"_L1, id)
        .field("plan_id"_L1, planId)
        .field("expires_at"_L1, expiresAt)
        .field("feature_id"_L1, featureId)
        .endObject();
}

CustomerConfig CustomerConfig::read(const JsonReader &reader)
{
    reader.object();
    CustomerConfig config;
    config.disablePooledBalance = reader.field("disable_pooled_balance"_L1).boolean();
    config.disableOverageBilling = reader.field("disable_overage_billing"_L1).boolean();
    return config;
}

void CustomerConfig::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("disable_pooled_balance"_L1, disablePooledBalance)
        .field("disable_overage_billing"_L1, disableOverageBilling)
        .endObject();
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
    customer.billingControls = BillingControls::read(reader.field("billingControls"_L1));
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

void Customer::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("id"_L1, id)
        .field("name"_L1, name)
        .field("email"_L1, email)
        .field("createdAt"_L1, createdAt)
        .field("fingerprint"_L1, fingerprint)
        .field("stripeId"_L1, stripeId)
        .key("processors"_L1)
        .beginObject();
    for (auto it = processors.cbegin(); it != processors.cend(); ++it)
        writer.key(it.key()).beginObject().field("id"_L1, it.value()).endObject();
    writer.endObject().field("env"_L1, toWire(env)).key("metadata"_L1);
    metadata.write(writer);
    writer.field("sendEmailReceipts"_L1, sendEmailReceipts).key("billingControls"_L1);
    billingControls.write(writer);
    writer.key("subscriptions"_L1);
    writeList(writer, subscriptions);
    writer.key("purchases"_L1);
    purchases.write(writer);
    writer.key("licenses"_L1);
    licenses.write(writer);
    writer.key("balances"_L1).beginObject();
    for (auto it = balances.cbegin(); it != balances.cend(); ++it) {
        writer.key(it.key());
        it.value().writeCamel(writer);
    }
    writer.endObject().key("flags"_L1).beginObject();
    for (auto it = flags.cbegin(); it != flags.cend(); ++it) {
        writer.key(it.key());
        it.value().write(writer);
    }
    writer.endObject().key("config"_L1);
    config.write(writer);
    writer.endObject();
}

} // namespace md::api
