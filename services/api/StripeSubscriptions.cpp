#include "services/api/StripeSubscriptions.h"

#include "services/api/WireCodec.h"

namespace md::api {

using namespace Qt::StringLiterals;

StripeSubscriptionsRequest StripeSubscriptionsRequest::read(const JsonReader &reader)
{
    reader.object();
    StripeSubscriptionsRequest request;
    request.startingAfter = reader.field("starting_after"_L1).optString();
    request.limit = reader.field("limit"_L1).optInteger(1, MaxLimit).value_or(MaxLimit);
    return request;
}

void StripeSubscriptionsRequest::write(JsonWriter &writer) const
{
    writer.beginObject().field("limit"_L1, limit);
    if (startingAfter)
        writer.field("starting_after"_L1, *startingAfter);
    writer.endObject();
}

StripeItemInfo StripeItemInfo::read(const JsonReader &reader)
{
    reader.object();
    StripeItemInfo item;
    item.priceId = reader.field("price_id"_L1).string();
    item.productId = reader.field("product_id"_L1).string();
    item.meterdeskPlanId = reader.field("meterdesk_plan_id"_L1).string();
    item.lookupKey = reader.field("lookup_key"_L1).string();
    item.quantity = reader.field("quantity"_L1).integer();
    return item;
}

void StripeItemInfo::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("price_id"_L1, priceId)
        .field("product_id"_L1, productId)
        .field("meterdesk_plan_id"_L1, meterdeskPlanId)
        .field("lookup_key"_L1, lookupKey)
        .field("quantity"_L1, quantity)
        .endObject();
}

StripeSubscriptionInfo StripeSubscriptionInfo::read(const JsonReader &reader)
{
    reader.object();
    StripeSubscriptionInfo info;
    info.id = reader.field("id"_L1).string();
    info.customerId = reader.field("customer_id"_L1).string();
    info.status = reader.field("status"_L1).string();
    info.planStatus = readPlanStatus(reader.field("plan_status"_L1));
    info.startedAt = reader.field("started_at"_L1).integer();
    info.currentPeriodEnd = reader.field("current_period_end"_L1).nullableInteger();
    info.endsAt = reader.field("ends_at"_L1).nullableInteger();
    info.items = readList<StripeItemInfo>(reader.field("items"_L1));
    return info;
}

void StripeSubscriptionInfo::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("id"_L1, id)
        .field("customer_id"_L1, customerId)
        .field("status"_L1, status)
        .field("plan_status"_L1, toWire(planStatus))
        .field("started_at"_L1, startedAt)
        .field("current_period_end"_L1, currentPeriodEnd)
        .field("ends_at"_L1, endsAt)
        .key("items"_L1);
    writeList(writer, items);
    writer.endObject();
}

StripeProductName StripeProductName::read(const JsonReader &reader)
{
    reader.object();
    return {reader.field("id"_L1).string(), reader.field("name"_L1).string()};
}

void StripeProductName::write(JsonWriter &writer) const
{
    writer.beginObject().field("id"_L1, id).field("name"_L1, name).endObject();
}

StripeSubscriptionsPage StripeSubscriptionsPage::read(const JsonReader &reader)
{
    reader.object();
    StripeSubscriptionsPage page;
    page.data = readList<StripeSubscriptionInfo>(reader.field("data"_L1));
    page.hasMore = reader.field("has_more"_L1).boolean();
    page.products = readList<StripeProductName>(reader.field("products"_L1));
    return page;
}

void StripeSubscriptionsPage::write(JsonWriter &writer) const
{
    writer.beginObject().key("data"_L1);
    writeList(writer, data);
    writer.field("has_more"_L1, hasMore).key("products"_L1);
    writeList(writer, products);
    writer.endObject();
}

} // namespace md::api
