#include "services/api/UsageEvent.h"

namespace md::api {

using namespace Qt::StringLiterals;

QMap<QString, qint64> UsageEvent::readTokens(const JsonReader &reader)
{
    QMap<QString, qint64> tokens;
    for (const auto &[pool, count] : reader.members())
        tokens.insert(pool, count.integer());
    return tokens;
}

UsageEvent UsageEvent::read(const JsonReader &reader)
{
    reader.object();
    UsageEvent event;
    event.customerId = reader.field("customer_id"_L1).string();
    event.featureId = reader.field("feature_id"_L1).string();
    event.entityId = reader.field("entity_id"_L1).nullableString();
    event.modelId = reader.field("model_id"_L1).nullableString();
    event.tokens = readTokens(reader.field("tokens"_L1));
    event.value = reader.field("value"_L1).decimal();
    event.properties = reader.field("properties"_L1).object();
    event.timestamp = reader.field("timestamp"_L1).integer();
    return event;
}

void UsageEvent::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("customer_id"_L1, customerId)
        .field("feature_id"_L1, featureId)
        .field("entity_id"_L1, entityId)
        .field("model_id"_L1, modelId)
        .key("tokens"_L1)
        .beginObject();
    for (auto it = tokens.cbegin(); it != tokens.cend(); ++it)
        writer.key(it.key()).value(it.value());
    writer.endObject().field("value"_L1, value).key("properties"_L1);
    properties.write(writer);
    writer.field("timestamp"_L1, timestamp).endObject();
}

} // namespace md::api
