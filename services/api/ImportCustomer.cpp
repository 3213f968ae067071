#include "services/api/ImportCustomer.h"

#include "services/api/WireCodec.h"

namespace md::api {

namespace {

using namespace Qt::StringLiterals;

constexpr std::pair<QLatin1StringView, Processor> ProcessorWords[] = {
    {"stripe"_L1, Processor::Stripe},
    {"revenuecat"_L1, Processor::RevenueCat},
};
// A balance filter's billing behavior uses the words of a price's billing_method.
constexpr std::pair<QLatin1StringView, BillingMethod> BillingBehaviorWords[] = {
    {"prepaid"_L1, BillingMethod::Prepaid},
    {"usage_based"_L1, BillingMethod::UsageBased},
};

std::optional<Decimal> optNonNegative(const JsonReader &reader)
{
    return reader.isMissing() ? std::nullopt : std::optional(reader.nonNegativeDecimal());
}

template <typename T> QList<T> readOptList(const JsonReader &reader)
{
    return reader.isMissing() ? QList<T>() : readList<T>(reader);
}

} // namespace

QLatin1StringView toWire(Processor value)
{
    return wordOf(ProcessorWords, value);
}

ProcessorIdentity ProcessorIdentity::read(const JsonReader &reader)
{
    reader.object();
    ProcessorIdentity identity;
    identity.type = reader.field("type"_L1).word(ProcessorWords);
    identity.id = reader.field("id"_L1).string();
    return identity;
}

QJsonObject ProcessorIdentity::toJson() const
{
    return {{u"type"_s, QString(toWire(type))}, {u"id"_s, id}};
}

CustomerData CustomerData::read(const JsonReader &reader)
{
    reader.object();
    CustomerData data;
    data.name = reader.field("name"_L1).optString();
    data.email = reader.field("email"_L1).optString();
    data.fingerprint = reader.field("fingerprint"_L1).optString();
    data.createdAt = reader.field("created_at"_L1).optInteger();
    return data;
}

QJsonObject CustomerData::toJson() const
{
    QJsonObject object;
    if (name)
        object.insert(u"name"_s, *name);
    if (email)
        object.insert(u"email"_s, *email);
    if (fingerprint)
        object.insert(u"fingerprint"_s, *fingerprint);
    if (createdAt)
        object.insert(u"created_at"_s, *createdAt);
    return object;
}

BillableLink BillableLink::read(const JsonReader &reader)
{
    reader.object();
    BillableLink link;
    link.subscriptionId = reader.field("subscription_id"_L1).optString();
    link.scheduleId = reader.field("schedule_id"_L1).optString();
    return link;
}

QJsonObject BillableLink::toJson() const
{
    QJsonObject object;
    if (subscriptionId)
        object.insert(u"subscription_id"_s, *subscriptionId);
    if (scheduleId)
        object.insert(u"schedule_id"_s, *scheduleId);
    return object;
}

FeatureQuantity FeatureQuantity::read(const JsonReader &reader)
{
    reader.object();
    FeatureQuantity quantity;
    quantity.featureId = reader.field("feature_id"_L1).identifier();
    quantity.quantity = reader.field("quantity"_L1).nonNegativeDecimal();
    return quantity;
}

QJsonObject FeatureQuantity::toJson() const
{
    return {{u"feature_id"_s, featureId}, {u"quantity"_s, quantity.toJson()}};
}

ImportBalanceFilter ImportBalanceFilter::read(const JsonReader &reader)
{
    reader.object();
    ImportBalanceFilter filter;
    const JsonReader interval = reader.field("interval"_L1);
    if (!interval.isMissing())
        filter.interval = readResetInterval(interval);
    filter.billingBehavior = reader.field("billing_behavior"_L1).optWord(BillingBehaviorWords);
    return filter;
}

QJsonObject ImportBalanceFilter::toJson() const
{
    QJsonObject object;
    if (interval)
        object.insert(u"interval"_s, QString(toWire(*interval)));
    if (billingBehavior)
        object.insert(u"billing_behavior"_s,
                      QString(wordOf(BillingBehaviorWords, *billingBehavior)));
    return object;
}

ImportBalance ImportBalance::read(const JsonReader &reader)
{
    reader.object();
    ImportBalance balance;
    balance.featureId = reader.field("feature_id"_L1).identifier();
    balance.usage = optNonNegative(reader.field("usage"_L1));
    balance.balance = reader.field("balance"_L1).optDecimal();
    balance.nextResetAt = reader.field("next_reset_at"_L1).optInteger();
    const JsonReader filter = reader.field("filter"_L1);
    if (!filter.isMissing())
        balance.filter = ImportBalanceFilter::read(filter);
    return balance;
}

QJsonObject ImportBalance::toJson() const
{
    QJsonObject object{{u"feature_id"_s, featureId}};
    if (usage)
        object.insert(u"usage"_s, usage->toJson());
    if (balance)
        object.insert(u"balance"_s, balance->toJson());
    if (nextResetAt)
        object.insert(u"next_reset_at"_s, *nextResetAt);
    if (filter)
        object.insert(u"filter"_s, filter->toJson());
    return object;
}

ImportPlan ImportPlan::read(const JsonReader &reader)
{
    reader.object();
    ImportPlan plan;
    plan.planId = reader.field("plan_id"_L1).identifier();
    plan.version = reader.field("version"_L1).optInteger(1);
    plan.status = readOptPlanStatus(reader.field("status"_L1));
    plan.startedAt = reader.field("started_at"_L1).optInteger();
    plan.quantity = optNonNegative(reader.field("quantity"_L1));
    plan.featureQuantities = readOptList<FeatureQuantity>(reader.field("feature_quantities"_L1));
    plan.balances = readOptList<ImportBalance>(reader.field("balances"_L1));
    return plan;
}

QJsonObject ImportPlan::toJson() const
{
    QJsonObject object{{u"plan_id"_s, planId}};
    if (version)
        object.insert(u"version"_s, *version);
    if (status)
        object.insert(u"status"_s, QString(toWire(*status)));
    if (startedAt)
        object.insert(u"started_at"_s, *startedAt);
    if (quantity)
        object.insert(u"quantity"_s, quantity->toJson());
    if (!featureQuantities.isEmpty())
        object.insert(u"feature_quantities"_s, toJsonArray(featureQuantities));
    if (!balances.isEmpty())
        object.insert(u"balances"_s, toJsonArray(balances));
    return object;
}

Billable Billable::read(const JsonReader &reader)
{
    reader.object();
    Billable billable;
    billable.processor =
        reader.field("processor"_L1).optWord(ProcessorWords).value_or(Processor::Stripe);
    const JsonReader link = reader.field("link"_L1);
    if (!link.isMissing())
        billable.link = BillableLink::read(link);
    billable.billingCycleAnchor = reader.field("billing_cycle_anchor"_L1).optInteger();
    billable.plan = ImportPlan::read(reader.field("plan"_L1));
    return billable;
}

QJsonObject Billable::toJson() const
{
    QJsonObject object{{u"processor"_s, QString(toWire(processor))}, {u"plan"_s, plan.toJson()}};
    if (link)
        object.insert(u"link"_s, link->toJson());
    if (billingCycleAnchor)
        object.insert(u"billing_cycle_anchor"_s, *billingCycleAnchor);
    return object;
}

ImportCustomerRequest ImportCustomerRequest::read(const JsonReader &reader)
{
    reader.object();
    ImportCustomerRequest request;
    request.customerId = reader.field("customer_id"_L1).identifier();
    request.billables = readList<Billable>(reader.field("billables"_L1));
    request.processors = readOptList<ProcessorIdentity>(reader.field("processors"_L1));
    const JsonReader data = reader.field("customer_data"_L1);
    if (!data.isMissing())
        request.customerData = CustomerData::read(data);
    request.dryRun = reader.field("dry_run"_L1).optBoolean().value_or(false);
    return request;
}

QJsonObject ImportCustomerRequest::toJson() const
{
    QJsonObject object{{u"customer_id"_s, customerId},
                       {u"billables"_s, toJsonArray(billables)},
                       {u"dry_run"_s, dryRun}};
    if (!processors.isEmpty())
        object.insert(u"processors"_s, toJsonArray(processors));
    if (customerData)
        object.insert(u"customer_data"_s, customerData->toJson());
    return object;
}

FlashedPlan FlashedPlan::read(const JsonReader &reader)
{
    reader.object();
    FlashedPlan flashed;
    flashed.planId = reader.field("plan_id"_L1).string();
    flashed.processor = reader.field("processor"_L1).word(ProcessorWords);
    flashed.customerProductId = reader.field("customer_product_id"_L1).nullableString();
    flashed.status = readPlanStatus(reader.field("status"_L1));
    flashed.skipped = reader.field("skipped"_L1).boolean();
    flashed.expired = reader.field("expired"_L1).optBoolean();
    flashed.mismatch = reader.field("mismatch"_L1).optBoolean();
    flashed.reason = reader.field("reason"_L1).optString();
    return flashed;
}

QJsonObject FlashedPlan::toJson() const
{
    QJsonObject object{{u"plan_id"_s, planId},
                       {u"processor"_s, QString(toWire(processor))},
                       {u"customer_product_id"_s, nullable(customerProductId)},
                       {u"status"_s, QString(toWire(status))},
                       {u"skipped"_s, skipped}};
    if (expired)
        object.insert(u"expired"_s, *expired);
    if (mismatch)
        object.insert(u"mismatch"_s, *mismatch);
    if (reason)
        object.insert(u"reason"_s, *reason);
    return object;
}

ImportCustomerResponse ImportCustomerResponse::read(const JsonReader &reader)
{
    reader.object();
    ImportCustomerResponse response;
    response.customerId = reader.field("customer_id"_L1).string();
    response.flashed = readList<FlashedPlan>(reader.field("flashed"_L1));
    response.customer = readNullable<Customer>(reader.field("customer"_L1));
    return response;
}

QJsonObject ImportCustomerResponse::toJson() const
{
    return {{u"customer_id"_s, customerId},
            {u"flashed"_s, toJsonArray(flashed)},
            {u"customer"_s, nullable(customer)}};
}

} // namespace md::api
