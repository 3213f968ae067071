#include "services/api/Extensions.h"

#include "services/api/WireCodec.h"

namespace md::api {

using namespace Qt::StringLiterals;

namespace {

std::optional<QString> optionalNullable(const JsonReader &reader)
{
    return reader.isMissing() ? std::nullopt : reader.nullableString();
}

} // namespace

CustomerSummary CustomerSummary::read(const JsonReader &reader)
{
    reader.object();
    return {reader.field("id"_L1).string(), reader.field("name"_L1).string(),
            reader.field("email"_L1).string(), reader.field("created_at"_L1).integer()};
}

void CustomerSummary::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("id"_L1, id)
        .field("name"_L1, name)
        .field("email"_L1, email)
        .field("created_at"_L1, createdAt)
        .endObject();
}

CreditMarkup CreditMarkup::read(const JsonReader &reader)
{
    reader.object();
    return {reader.field("provider"_L1).string(), reader.field("model"_L1).nullableString(),
            reader.field("markup"_L1).decimal()};
}

void CreditMarkup::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("provider"_L1, provider)
        .field("model"_L1, model)
        .field("markup"_L1, markup)
        .endObject();
}

FeatureInfo FeatureInfo::read(const JsonReader &reader)
{
    reader.object();
    FeatureInfo feature;
    feature.id = reader.field("id"_L1).string();
    feature.name = reader.field("name"_L1).string();
    feature.type = reader.field("type"_L1).string();
    const JsonReader markup = reader.field("default_markup"_L1);
    if (!markup.isMissing())
        feature.defaultMarkup = markup.nullableDecimal();
    if (const auto markups = reader.field("markups"_L1).optArray())
        for (const JsonReader &entry : *markups)
            feature.markups.append(CreditMarkup::read(entry));
    return feature;
}

void FeatureInfo::write(JsonWriter &writer) const
{
    writer.beginObject().field("id"_L1, id).field("name"_L1, name).field("type"_L1, type);
    if (type == "credit_system"_L1) {
        writer.field("default_markup"_L1, defaultMarkup).key("markups"_L1);
        writeList(writer, markups);
    }
    writer.endObject();
}

OrganizationInfo OrganizationInfo::read(const JsonReader &reader)
{
    reader.object();
    return {reader.field("id"_L1).string(),
            reader.field("slug"_L1).string(),
            reader.field("name"_L1).string(),
            reader.field("master_org_id"_L1).nullableString(),
            optionalNullable(reader.field("test_account_id"_L1)),
            optionalNullable(reader.field("live_account_id"_L1))};
}

void OrganizationInfo::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("id"_L1, id)
        .field("slug"_L1, slug)
        .field("name"_L1, name)
        .field("master_org_id"_L1, masterOrgId)
        .field("test_account_id"_L1, testAccountId)
        .field("live_account_id"_L1, liveAccountId)
        .endObject();
}

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

ModelInfo ModelInfo::read(const JsonReader &reader)
{
    reader.object();
    const auto optional = [&](QLatin1StringView key) {
        const JsonReader field = reader.field(key);
        return field.isMissing() ? std::nullopt : field.nullableDecimal();
    };
    return {reader.field("id"_L1).string(),     reader.field("name"_L1).string(),
            reader.field("input"_L1).decimal(), reader.field("output"_L1).decimal(),
            optional("cache_read"_L1),          optional("cache_write"_L1),
            optional("reasoning"_L1),           optional("input_audio"_L1),
            optional("output_audio"_L1)};
}

void ModelInfo::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("id"_L1, id)
        .field("name"_L1, name)
        .field("input"_L1, input)
        .field("output"_L1, output)
        .field("cache_read"_L1, cacheRead)
        .field("cache_write"_L1, cacheWrite)
        .field("reasoning"_L1, reasoning)
        .field("input_audio"_L1, inputAudio)
        .field("output_audio"_L1, outputAudio)
        .endObject();
}

CatalogueInfo CatalogueInfo::read(const JsonReader &reader)
{
    reader.object();
    return {reader.field("source"_L1).string(), reader.field("generated"_L1).string(),
            reader.field("models"_L1).integer()};
}

void CatalogueInfo::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("source"_L1, source)
        .field("generated"_L1, generated)
        .field("models"_L1, models)
        .endObject();
}

AboutInfo AboutInfo::read(const JsonReader &reader)
{
    reader.object();
    return {reader.field("version"_L1).string(), CatalogueInfo::read(reader.field("catalogue"_L1)),
            QueueCounts::read(reader.field("track_queue"_L1))};
}

void AboutInfo::write(JsonWriter &writer) const
{
    writer.beginObject().field("version"_L1, version).key("catalogue"_L1);
    catalogue.write(writer);
    writer.key("track_queue"_L1);
    trackQueue.write(writer);
    writer.endObject();
}

CallQuote CallQuote::read(const JsonReader &reader)
{
    reader.object();
    CallQuote quote;
    quote.modelId = reader.field("model_id"_L1).string();
    quote.featureId = optionalNullable(reader.field("feature_id"_L1));
    for (const JsonReader &pool : reader.field("pools"_L1).array()) {
        pool.object();
        quote.pools.append({pool.field("name"_L1).string(), pool.field("tokens"_L1).integer(),
                            pool.field("price_per_million"_L1).nonNegativeDecimal(),
                            pool.field("cost"_L1).nonNegativeDecimal()});
    }
    quote.baseCost = reader.field("base_cost"_L1).nonNegativeDecimal();
    quote.markup = reader.field("markup"_L1).decimal();
    quote.markupSource = reader.field("markup_source"_L1).string();
    quote.value = reader.field("value"_L1).nonNegativeDecimal();
    quote.free = reader.field("free"_L1).boolean();
    return quote;
}

void CallQuote::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("model_id"_L1, modelId)
        .field("feature_id"_L1, featureId)
        .key("pools"_L1)
        .beginArray();
    for (const Pool &pool : pools)
        writer.beginObject()
            .field("name"_L1, pool.name)
            .field("tokens"_L1, pool.tokens)
            .field("price_per_million"_L1, pool.pricePerMillion)
            .field("cost"_L1, pool.cost)
            .endObject();
    writer.endArray()
        .field("base_cost"_L1, baseCost)
        .field("markup"_L1, markup)
        .field("markup_source"_L1, markupSource)
        .field("value"_L1, value)
        .field("free"_L1, free)
        .endObject();
}

} // namespace md::api
