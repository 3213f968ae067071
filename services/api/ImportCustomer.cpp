#include "services/api/ImportCustomer.h"

#include "services/api/TextRule.h"
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

void ProcessorIdentity::write(JsonWriter &writer) const
{
    writer.beginObject().field("type"_L1, toWire(type)).field("id"_L1, id).endObject();
}

CustomerData CustomerData::read(const JsonReader &reader)
{
    reader.object();
    CustomerData data;
    data.name = reader.field("name"_L1).optFreeText(MaxNameLength);
    data.email = reader.field("email"_L1).optString();
    data.fingerprint = reader.field("fingerprint"_L1).optString();
    data.createdAt = reader.field("created_at"_L1).optInteger();
    return data;
}

void CustomerData::write(JsonWriter &writer) const
{
    writer.beginObject();
    if (name)
        writer.field("name"_L1, *name);
    if (email)
        writer.field("email"_L1, *email);
    if (fingerprint)
        writer.field("fingerprint"_L1, *fingerprint);
    if (createdAt)
        writer.field("created_at"_L1, *createdAt);
    writer.endObject();
}

BillableLink BillableLink::read(const JsonReader &reader)
{
    reader.object();
    BillableLink link;
    link.subscriptionId = reader.field("subscription_id"_L1).optString();
    link.scheduleId = reader.field("schedule_id"_L1).optString();
    return link;
}

void BillableLink::write(JsonWriter &writer) const
{
    writer.beginObject();
    if (subscriptionId)
        writer.field("subscription_id"_L1, *subscriptionId);
    if (scheduleId)
        writer.field("schedule_id"_L1, *scheduleId);
    writer.endObject();
}

FeatureQuantity FeatureQuantity::read(const JsonReader &reader)
{
    reader.object();
    FeatureQuantity quantity;
    quantity.featureId = reader.field("feature_id"_L1).identifier();
    quantity.quantity = reader.field("quantity"_L1).nonNegativeDecimal();
    return quantity;
}

void FeatureQuantity::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("feature_id"_L1, featureId)
        .field("quantity"_L1, quantity)
        .endObject();
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

void ImportBalanceFilter::write(JsonWriter &writer) const
{
    writer.beginObject();
    if (interval)
        writer.field("interval"_L1, toWire(*interval));
    if (billingBehavior)
        writer.field("billing_behavior"_L1, wordOf(BillingBehaviorWords, *billingBehavior));
    writer.endObject();
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

void ImportBalance::write(JsonWriter &writer) const
{
    writer.beginObject().field("feature_id"_L1, featureId);
    if (usage)
        writer.field("usage"_L1, *usage);
    if (balance)
        writer.field("balance"_L1, *balance);
    if (nextResetAt)
        writer.field("next_reset_at"_L1, *nextResetAt);
    if (filter) {
        writer.key("filter"_L1);
        filter->write(writer);
    }
    writer.endObject();
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

void ImportPlan::write(JsonWriter &writer) const
{
    writer.beginObject().field("plan_id"_L1, planId);
    if (version)
        writer.field("version"_L1, *version);
    if (status)
        writer.field("status"_L1, toWire(*status));
    if (startedAt)
        writer.field("started_at"_L1, *startedAt);
    if (quantity)
        writer.field("quantity"_L1, *quantity);
    if (!featureQuantities.isEmpty()) {
        writer.key("feature_quantities"_L1);
        writeList(writer, featureQuantities);
    }
    if (!balances.isEmpty()) {
        writer.key("balances"_L1);
        writeList(writer, balances);
    }
    writer.endObject();
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

void Billable::write(JsonWriter &writer) const
{
    writer.beginObject().field("processor"_L1, toWire(processor)).key("plan"_L1);
    plan.write(writer);
    if (link) {
        writer.key("link"_L1);
        link->write(writer);
    }
    if (billingCycleAnchor)
        writer.field("billing_cycle_anchor"_L1, *billingCycleAnchor);
    writer.endObject();
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

void ImportCustomerRequest::write(JsonWriter &writer) const
{
    writer.beginObject().field("customer_id"_L1, customerId).key("billables"_L1);
    writeList(writer, billables);
    writer.field("dry_run"_L1, dryRun);
    if (!processors.isEmpty()) {
        writer.key("processors"_L1);
        writeList(writer, processors);
    }
    if (customerData) {
        writer.key("customer_data"_L1);
        customerData->write(writer);
    }
    writer.endObject();
}

ProcessorDifference ProcessorDifference::read(const JsonReader &reader)
{
    reader.object();
    ProcessorDifference difference;
    difference.field = reader.field("field"_L1).string();
    difference.requested = reader.field("requested"_L1).string();
    difference.processor = reader.field("processor"_L1).string();
    return difference;
}

void ProcessorDifference::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("field"_L1, field)
        .field("requested"_L1, requested)
        .field("processor"_L1, processor)
        .endObject();
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
    flashed.differences = readOptList<ProcessorDifference>(reader.field("differences"_L1));
    return flashed;
}

void FlashedPlan::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("plan_id"_L1, planId)
        .field("processor"_L1, toWire(processor))
        .field("customer_product_id"_L1, customerProductId)
        .field("status"_L1, toWire(status))
        .field("skipped"_L1, skipped);
    if (expired)
        writer.field("expired"_L1, *expired);
    if (mismatch)
        writer.field("mismatch"_L1, *mismatch);
    if (reason)
        writer.field("reason"_L1, *reason);
    if (!differences.isEmpty()) {
        writer.key("differences"_L1);
        writeList(writer, differences);
    }
    writer.endObject();
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

void ImportCustomerResponse::write(JsonWriter &writer) const
{
    writer.beginObject().field("customer_id"_L1, customerId).key("flashed"_L1);
    writeList(writer, flashed);
    writer.key("customer"_L1);
    writeNullable(writer, customer);
    writer.endObject();
}

} // namespace md::api
