#include "services/api/ProcessorsVerify.h"

#include "services/api/WireCodec.h"

namespace md::api {

using namespace Qt::StringLiterals;

ProcessorsVerifyRequest ProcessorsVerifyRequest::read(const JsonReader &reader)
{
    reader.object();
    ProcessorsVerifyRequest request;
    const JsonReader ids = reader.field("customer_ids"_L1);
    if (ids.isMissing())
        return request;
    const QList<JsonReader> items = ids.array();
    if (items.size() > MaxCustomers)
        ids.fail(u"at most %1 customers at a time, got %2"_s.arg(MaxCustomers).arg(items.size()));
    QStringList list;
    for (const JsonReader &id : items)
        list.append(id.identifier());
    request.customerIds = list;
    return request;
}

void ProcessorsVerifyRequest::write(JsonWriter &writer) const
{
    writer.beginObject();
    if (customerIds) {
        writer.key("customer_ids"_L1).beginArray();
        for (const QString &id : *customerIds)
            writer.value(id);
        writer.endArray();
    }
    writer.endObject();
}

ProcessorDrift ProcessorDrift::read(const JsonReader &reader)
{
    reader.object();
    ProcessorDrift drift;
    drift.customerId = reader.field("customer_id"_L1).string();
    drift.subscriptionId = reader.field("subscription_id"_L1).string();
    drift.planId = reader.field("plan_id"_L1).string();
    drift.field = reader.field("field"_L1).string();
    drift.meterdesk = reader.field("meterdesk"_L1).string();
    drift.processor = reader.field("processor"_L1).string();
    return drift;
}

void ProcessorDrift::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("customer_id"_L1, customerId)
        .field("subscription_id"_L1, subscriptionId)
        .field("plan_id"_L1, planId)
        .field("field"_L1, field)
        .field("meterdesk"_L1, meterdesk)
        .field("processor"_L1, processor)
        .endObject();
}

ProcessorsVerifyResponse ProcessorsVerifyResponse::read(const JsonReader &reader)
{
    reader.object();
    ProcessorsVerifyResponse response;
    response.checked = reader.field("checked"_L1).integer();
    response.differences = readList<ProcessorDrift>(reader.field("differences"_L1));
    return response;
}

void ProcessorsVerifyResponse::write(JsonWriter &writer) const
{
    writer.beginObject().field("checked"_L1, checked).key("differences"_L1);
    writeList(writer, differences);
    writer.endObject();
}

} // namespace md::api
