#include "services/api/TrackTokens.h"

#include "services/api/WireCodec.h"

namespace md::api {

namespace {

using namespace Qt::StringLiterals;

constexpr std::pair<QLatin1StringView, OverageBehavior> OverageBehaviorWords[] = {
    {"cap"_L1, OverageBehavior::Cap},
    {"overflow"_L1, OverageBehavior::Overflow},
};

} // namespace

QLatin1StringView toWire(OverageBehavior value)
{
    return wordOf(OverageBehaviorWords, value);
}

TrackTokensRequest TrackTokensRequest::read(const JsonReader &reader)
{
    reader.object();
    TrackTokensRequest request;
    // Empty is the price route's "no customer" (track_tokens answers 404 for
    // it); any other id is held to the id rule.
    const JsonReader customer = reader.field("customer_id"_L1);
    request.customerId = customer.string();
    if (reader.ok() && !request.customerId.isEmpty())
        customer.identifier();
    const JsonReader model = reader.field("model_id"_L1);
    request.modelId = model.string();
    if (reader.ok()) {
        const qsizetype slash = request.modelId.indexOf(u'/');
        if (slash <= 0 || slash + 1 == request.modelId.size())
            model.fail(u"expected \"<provider>/<model>\", got \"%1\""_s.arg(request.modelId));
    }
    request.inputTokens = reader.field("input_tokens"_L1).integer();
    request.outputTokens = reader.field("output_tokens"_L1).integer();
    request.cacheReadTokens = reader.field("cache_read_tokens"_L1).optInteger();
    request.cacheWriteTokens = reader.field("cache_write_tokens"_L1).optInteger();
    request.reasoningTokens = reader.field("reasoning_tokens"_L1).optInteger();
    request.audioInputTokens = reader.field("audio_input_tokens"_L1).optInteger();
    request.audioOutputTokens = reader.field("audio_output_tokens"_L1).optInteger();
    request.entityId = reader.field("entity_id"_L1).optIdentifier();
    request.featureId = reader.field("feature_id"_L1).optIdentifier();
    const JsonReader properties = reader.field("properties"_L1);
    if (!properties.isMissing())
        request.properties = properties.object();
    request.timestamp = reader.field("timestamp"_L1).optInteger(1);
    request.overageBehavior = reader.field("overage_behavior"_L1)
                                  .optWord(OverageBehaviorWords)
                                  .value_or(OverageBehavior::Cap);
    request.async = reader.field("async"_L1).optBoolean().value_or(false);
    return request;
}

void TrackTokensRequest::write(JsonWriter &writer) const
{
    writer.beginObject();
    writeFields(writer);
    writer.endObject();
}

void TrackTokensRequest::writeFields(JsonWriter &writer) const
{
    writer.field("customer_id"_L1, customerId)
        .field("model_id"_L1, modelId)
        .field("input_tokens"_L1, inputTokens)
        .field("output_tokens"_L1, outputTokens)
        .field("overage_behavior"_L1, toWire(overageBehavior))
        .field("async"_L1, async);
    const auto count = [&writer](QLatin1StringView key, const std::optional<qint64> &n) {
        if (n)
            writer.field(key, *n);
    };
    count("cache_read_tokens"_L1, cacheReadTokens);
    count("cache_write_tokens"_L1, cacheWriteTokens);
    count("reasoning_tokens"_L1, reasoningTokens);
    count("audio_input_tokens"_L1, audioInputTokens);
    count("audio_output_tokens"_L1, audioOutputTokens);
    count("timestamp"_L1, timestamp);
    if (entityId)
        writer.field("entity_id"_L1, *entityId);
    if (featureId)
        writer.field("feature_id"_L1, *featureId);
    if (properties) {
        writer.key("properties"_L1);
        properties->write(writer);
    }
}

Deduction Deduction::read(const JsonReader &reader)
{
    reader.object();
    Deduction deduction;
    deduction.balanceId = reader.field("balance_id"_L1).string();
    deduction.featureId = reader.field("feature_id"_L1).string();
    deduction.planId = reader.field("plan_id"_L1).nullableString();
    deduction.reset = readNullable<Reset>(reader.field("reset"_L1));
    deduction.value = reader.field("value"_L1).decimal();
    return deduction;
}

void Deduction::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("balance_id"_L1, balanceId)
        .field("feature_id"_L1, featureId)
        .field("plan_id"_L1, planId)
        .key("reset"_L1);
    writeNullable(writer, reset);
    writer.field("value"_L1, value).endObject();
}

TrackTokensResponse TrackTokensResponse::read(const JsonReader &reader)
{
    reader.object();
    TrackTokensResponse response;
    response.customerId = reader.field("customer_id"_L1).string();
    response.value = reader.field("value"_L1).decimal();
    response.balance = readNullable<BalanceSummary>(reader.field("balance"_L1));
    response.entityId = reader.field("entity_id"_L1).optString();
    response.eventName = reader.field("event_name"_L1).optString();
    for (const auto &[featureId, summary] : reader.field("balances"_L1).members())
        response.balances.insert(featureId, readNullable<BalanceSummary>(summary));
    response.deductions = readList<Deduction>(reader.field("deductions"_L1));
    return response;
}

void TrackTokensResponse::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("customer_id"_L1, customerId)
        .field("value"_L1, value)
        .key("balance"_L1);
    writeNullable(writer, balance);
    writer.key("balances"_L1).beginObject();
    for (auto it = balances.cbegin(); it != balances.cend(); ++it) {
        writer.key(it.key());
        writeNullable(writer, it.value());
    }
    writer.endObject().key("deductions"_L1);
    writeList(writer, deductions);
    if (entityId)
        writer.field("entity_id"_L1, *entityId);
    if (eventName)
        writer.field("event_name"_L1, *eventName);
    writer.endObject();
}

} // namespace md::api
