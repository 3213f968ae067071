#include "services/api/FailedEvent.h"

namespace md::api {

using namespace Qt::StringLiterals;

FailedEvent FailedEvent::read(const JsonReader &reader)
{
    reader.object();
    FailedEvent event;
    event.id = reader.field("id"_L1).string();
    event.customerId = reader.field("customer_id"_L1).string();
    event.modelId = reader.field("model_id"_L1).string();
    event.featureId = reader.field("feature_id"_L1).nullableString();
    event.idempotencyKey = reader.field("idempotency_key"_L1).nullableString();
    event.request = reader.field("request"_L1).object();
    const JsonReader error = reader.field("error"_L1);
    error.object();
    event.error =
        ApiError::received(int(error.field("status"_L1).integer(400, 599)),
                           error.field("code"_L1).string(), error.field("message"_L1).string());
    event.receivedAt = reader.field("received_at"_L1).integer();
    event.failedAt = reader.field("failed_at"_L1).integer();
    return event;
}

void FailedEvent::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("id"_L1, id)
        .field("customer_id"_L1, customerId)
        .field("model_id"_L1, modelId)
        .field("feature_id"_L1, featureId)
        .field("idempotency_key"_L1, idempotencyKey)
        .key("request"_L1);
    request.write(writer);
    writer.key("error"_L1)
        .beginObject()
        .field("status"_L1, error.status)
        .field("code"_L1, error.code)
        .field("message"_L1, error.message)
        .endObject()
        .field("received_at"_L1, receivedAt)
        .field("failed_at"_L1, failedAt)
        .endObject();
}

FailedEventIds FailedEventIds::read(const JsonReader &reader)
{
    reader.object();
    FailedEventIds request;
    const JsonReader ids = reader.field("ids"_L1);
    request.ids = readStringList(ids);
    if (reader.ok() && (request.ids.isEmpty() || request.ids.size() > MaxIds))
        ids.fail(u"give 1 to %1 ids, got %2"_s.arg(MaxIds).arg(request.ids.size()));
    return request;
}

void FailedEventIds::write(JsonWriter &writer) const
{
    writer.beginObject().key("ids"_L1);
    writeStrings(writer, ids);
    writer.endObject();
}

FailedEventOutcome FailedEventOutcome::read(const JsonReader &reader)
{
    reader.object();
    return {readStringList(reader.field("done"_L1)), readStringList(reader.field("not_found"_L1))};
}

void FailedEventOutcome::write(JsonWriter &writer) const
{
    writer.beginObject().key("done"_L1);
    writeStrings(writer, done);
    writer.key("not_found"_L1);
    writeStrings(writer, notFound);
    writer.endObject();
}

QueueCounts QueueCounts::read(const JsonReader &reader)
{
    reader.object();
    return {reader.field("pending"_L1).integer(), reader.field("failed"_L1).integer()};
}

void QueueCounts::write(JsonWriter &writer) const
{
    writer.beginObject().field("pending"_L1, pending).field("failed"_L1, failed).endObject();
}

} // namespace md::api
