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

QJsonObject TrackTokensRequest::toJson() const
{
    QJsonObject object{{u"customer_id"_s, customerId},
                       {u"model_id"_s, modelId},
                       {u"input_tokens"_s, inputTokens},
                       {u"output_tokens"_s, outputTokens},
                       {u"overage_behavior"_s, QString(toWire(overageBehavior))},
                       {u"async"_s, async}};
    const auto insertCount = [&object](const QString &key, const std::optional<qint64> &count) {
        if (count)
            object.insert(key, *count);
    };
    insertCount(u"cache_read_tokens"_s, cacheReadTokens);
    insertCount(u"cache_write_tokens"_s, cacheWriteTokens);
    insertCount(u"reasoning_tokens"_s, reasoningTokens);
    insertCount(u"audio_input_tokens"_s, audioInputTokens);
    insertCount(u"audio_output_tokens"_s, audioOutputTokens);
    insertCount(u"timestamp"_s, timestamp);
    if (entityId)
        object.insert(u"entity_id"_s, *entityId);
    if (featureId)
        object.insert(u"feature_id"_s, *featureId);
    if (properties)
        object.insert(u"properties"_s, *properties);
    return object;
}

Deduction Deduction::read(const JsonReader &reader)
{
    reader.object();
    Deduction deduction;
    deduction.balanceId = reader.field("balance_id"_L1).string();
    deduction.featureId = reader.field("feature_id"_L1).string();
    deduction.planId = reader.field("plan_id"_L1).nullableString();
    deduction.reset = readNullable<Reset>(reader.field("reset"_L1));
    deduction.value = reader.field("value"_L1).nonNegativeDecimal();
    return deduction;
}

QJsonObject Deduction::toJson() const
{
    return {{u"balance_id"_s, balanceId},
            {u"feature_id"_s, featureId},
            {u"plan_id"_s, nullable(planId)},
            {u"reset"_s, nullable(reset)},
            {u"value"_s, value.toJson()}};
}

TrackTokensResponse TrackTokensResponse::read(const JsonReader &reader)
{
    reader.object();
    TrackTokensResponse response;
    response.customerId = reader.field("customer_id"_L1).string();
    response.value = reader.field("value"_L1).nonNegativeDecimal();
    response.balance = readNullable<BalanceSummary>(reader.field("balance"_L1));
    response.entityId = reader.field("entity_id"_L1).optString();
    response.eventName = reader.field("event_name"_L1).optString();
    for (const auto &[featureId, summary] : reader.field("balances"_L1).members())
        response.balances.insert(featureId, readNullable<BalanceSummary>(summary));
    response.deductions = readList<Deduction>(reader.field("deductions"_L1));
    return response;
}

QJsonObject TrackTokensResponse::toJson() const
{
    QJsonObject summaries;
    for (auto it = balances.cbegin(); it != balances.cend(); ++it)
        summaries.insert(it.key(), nullable(it.value()));
    QJsonObject object{{u"customer_id"_s, customerId},
                       {u"value"_s, value.toJson()},
                       {u"balance"_s, nullable(balance)},
                       {u"balances"_s, summaries},
                       {u"deductions"_s, toJsonArray(deductions)}};
    if (entityId)
        object.insert(u"entity_id"_s, *entityId);
    if (eventName)
        object.insert(u"event_name"_s, *eventName);
    return object;
}

} // namespace md::api
