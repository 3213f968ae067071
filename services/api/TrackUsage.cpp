#include "services/api/TrackUsage.h"

#include "services/api/WireCodec.h"

namespace md::api {

namespace {

using namespace Qt::StringLiterals;

constexpr std::pair<QLatin1StringView, OverageBehavior> OverageWords[] = {
    {"cap"_L1, OverageBehavior::Cap},
    {"overflow"_L1, OverageBehavior::Overflow},
};

} // namespace

TrackTokensRequest TrackRequest::asCall() const
{
    TrackTokensRequest call;
    call.customerId = customerId;
    call.featureId = featureId;
    call.value = value;
    call.entityId = entityId;
    call.properties = properties;
    call.timestamp = timestamp;
    call.overageBehavior = overageBehavior;
    call.async = async;
    return call;
}

TrackRequest TrackRequest::fromCall(const TrackTokensRequest &call)
{
    TrackRequest request;
    request.customerId = call.customerId;
    request.featureId = call.featureId.value_or(QString());
    request.value = call.value.value_or(Decimal());
    request.entityId = call.entityId;
    request.properties = call.properties;
    request.timestamp = call.timestamp;
    request.overageBehavior = call.overageBehavior;
    request.async = call.async;
    return request;
}

TrackRequest TrackRequest::read(const JsonReader &reader)
{
    reader.object();
    TrackRequest request;
    request.customerId = reader.field("customer_id"_L1).identifier();
    request.featureId = reader.field("feature_id"_L1).identifier();
    request.value = reader.field("value"_L1).optDecimal().value_or(Decimal::fromInteger(1));
    request.entityId = reader.field("entity_id"_L1).optIdentifier();
    const JsonReader properties = reader.field("properties"_L1);
    if (!properties.isMissing())
        request.properties = properties.object();
    request.timestamp = reader.field("timestamp"_L1).optInteger(1);
    request.overageBehavior =
        reader.field("overage_behavior"_L1).optWord(OverageWords).value_or(OverageBehavior::Cap);
    request.async = reader.field("async"_L1).optBoolean().value_or(false);
    return request;
}

void TrackRequest::write(JsonWriter &writer) const
{
    writer.beginObject();
    writeFields(writer);
    writer.endObject();
}

void TrackRequest::writeFields(JsonWriter &writer) const
{
    writer.field("customer_id"_L1, customerId)
        .field("feature_id"_L1, featureId)
        .field("value"_L1, value)
        .field("overage_behavior"_L1, toWire(overageBehavior))
        .field("async"_L1, async);
    if (entityId)
        writer.field("entity_id"_L1, *entityId);
    if (timestamp)
        writer.field("timestamp"_L1, *timestamp);
    if (properties) {
        writer.key("properties"_L1);
        properties->write(writer);
    }
}

QByteArray callText(const TrackTokensRequest &call)
{
    return call.value ? toJsonText(TrackRequest::fromCall(call)) : toJsonText(call);
}

Result<TrackTokensRequest> readCallText(QByteArrayView text)
{
    const JsonReader reader = JsonReader::fromBody(text);
    if (reader.ok() && reader.field("model_id"_L1).isMissing()) {
        auto track = decode<TrackRequest>(reader);
        if (!track)
            return track.error();
        return track.value().asCall();
    }
    return decode<TrackTokensRequest>(reader);
}

CheckRequest CheckRequest::read(const JsonReader &reader)
{
    reader.object();
    CheckRequest request;
    request.customerId = reader.field("customer_id"_L1).identifier();
    request.featureId = reader.field("feature_id"_L1).identifier();
    const JsonReader required = reader.field("required_balance"_L1);
    if (!required.isMissing())
        request.requiredBalance = required.nonNegativeDecimal();
    request.entityId = reader.field("entity_id"_L1).optIdentifier();
    return request;
}

void CheckRequest::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("customer_id"_L1, customerId)
        .field("feature_id"_L1, featureId)
        .field("required_balance"_L1, requiredBalance);
    if (entityId)
        writer.field("entity_id"_L1, *entityId);
    writer.endObject();
}

CheckResponse CheckResponse::read(const JsonReader &reader)
{
    reader.object();
    CheckResponse response;
    response.allowed = reader.field("allowed"_L1).boolean();
    response.balance = readNullable<BalanceSummary>(reader.field("balance"_L1));
    return response;
}

void CheckResponse::write(JsonWriter &writer) const
{
    writer.beginObject().field("allowed"_L1, allowed).key("balance"_L1);
    writeNullable(writer, balance);
    writer.endObject();
}

} // namespace md::api
