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

PageRequest PageRequest::read(const JsonReader &reader)
{
    reader.object();
    PageRequest request;
    const JsonReader search = reader.field("search"_L1);
    request.search = search.optString();
    if (request.search && request.search->size() > PageRequest::MaxSearch)
        search.fail(u"must be at most %1 characters, got %2"_s.arg(PageRequest::MaxSearch)
                        .arg(request.search->size()));
    request.customerId = reader.field("customer_id"_L1).optIdentifier();
    request.featureId = reader.field("feature_id"_L1).optIdentifier();
    request.modelId = reader.field("model_id"_L1).optString();
    request.from = reader.field("from"_L1).optInteger();
    request.to = reader.field("to"_L1).optInteger();
    request.limit = reader.field("limit"_L1).optInteger(1, 200).value_or(50);
    request.startCursor = reader.field("start_cursor"_L1).optString().value_or(QString());
    return request;
}

QJsonObject PageRequest::toJson() const
{
    QJsonObject object{{u"limit"_s, limit}};
    if (search)
        object.insert(u"search"_s, *search);
    if (customerId)
        object.insert(u"customer_id"_s, *customerId);
    if (featureId)
        object.insert(u"feature_id"_s, *featureId);
    if (modelId)
        object.insert(u"model_id"_s, *modelId);
    if (from)
        object.insert(u"from"_s, *from);
    if (to)
        object.insert(u"to"_s, *to);
    if (!startCursor.isEmpty())
        object.insert(u"start_cursor"_s, startCursor);
    return object;
}

CustomerSummary CustomerSummary::read(const JsonReader &reader)
{
    reader.object();
    return {reader.field("id"_L1).string(), reader.field("name"_L1).string(),
            reader.field("email"_L1).string(), reader.field("created_at"_L1).integer()};
}

QJsonObject CustomerSummary::toJson() const
{
    return {{u"id"_s, id}, {u"name"_s, name}, {u"email"_s, email}, {u"created_at"_s, createdAt}};
}

CreditMarkup CreditMarkup::read(const JsonReader &reader)
{
    reader.object();
    return {reader.field("provider"_L1).string(), reader.field("model"_L1).nullableString(),
            reader.field("markup"_L1).decimal()};
}

QJsonObject CreditMarkup::toJson() const
{
    return {
        {u"provider"_s, provider}, {u"model"_s, nullable(model)}, {u"markup"_s, markup.toJson()}};
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

QJsonObject FeatureInfo::toJson() const
{
    QJsonObject object{{u"id"_s, id}, {u"name"_s, name}, {u"type"_s, type}};
    if (type == "credit_system"_L1) {
        object.insert(u"default_markup"_s, nullable(defaultMarkup));
        object.insert(u"markups"_s, toJsonArray(markups));
    }
    return object;
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

QJsonObject OrganizationInfo::toJson() const
{
    return {{u"id"_s, id},
            {u"slug"_s, slug},
            {u"name"_s, name},
            {u"master_org_id"_s, nullable(masterOrgId)},
            {u"test_account_id"_s, nullable(testAccountId)},
            {u"live_account_id"_s, nullable(liveAccountId)}};
}

RewardEntry RewardEntry::read(const JsonReader &reader)
{
    const QJsonObject object = reader.object();
    const bool coupon = object.contains(u"coupon"_s);
    if (reader.ok() && coupon == object.contains(u"feature_grant"_s))
        reader.fail(u"a reward holds exactly one of \"coupon\" and \"feature_grant\""_s);
    const QString kind = coupon ? u"coupon"_s : u"feature_grant"_s;
    return {kind, reader.field(coupon ? "coupon"_L1 : "feature_grant"_L1).object()};
}

QJsonObject RewardEntry::toJson() const
{
    return {{kind, record}};
}

UsageEvent UsageEvent::read(const JsonReader &reader)
{
    reader.object();
    UsageEvent event;
    event.customerId = reader.field("customer_id"_L1).string();
    event.featureId = reader.field("feature_id"_L1).string();
    event.entityId = reader.field("entity_id"_L1).nullableString();
    event.modelId = reader.field("model_id"_L1).nullableString();
    event.tokens = reader.field("tokens"_L1).object();
    event.value = reader.field("value"_L1).decimal();
    event.properties = reader.field("properties"_L1).object();
    event.timestamp = reader.field("timestamp"_L1).integer();
    return event;
}

QJsonObject UsageEvent::toJson() const
{
    return {{u"customer_id"_s, customerId},
            {u"feature_id"_s, featureId},
            {u"entity_id"_s, nullable(entityId)},
            {u"model_id"_s, nullable(modelId)},
            {u"tokens"_s, tokens},
            {u"value"_s, value.toJson()},
            {u"properties"_s, properties},
            {u"timestamp"_s, timestamp}};
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

QJsonObject ModelInfo::toJson() const
{
    return {{u"id"_s, id},
            {u"name"_s, name},
            {u"input"_s, input.toJson()},
            {u"output"_s, output.toJson()},
            {u"cache_read"_s, nullable(cacheRead)},
            {u"cache_write"_s, nullable(cacheWrite)},
            {u"reasoning"_s, nullable(reasoning)},
            {u"input_audio"_s, nullable(inputAudio)},
            {u"output_audio"_s, nullable(outputAudio)}};
}

CatalogueInfo CatalogueInfo::read(const JsonReader &reader)
{
    reader.object();
    return {reader.field("source"_L1).string(), reader.field("generated"_L1).string(),
            reader.field("models"_L1).integer()};
}

QJsonObject CatalogueInfo::toJson() const
{
    return {{u"source"_s, source}, {u"generated"_s, generated}, {u"models"_s, models}};
}

AboutInfo AboutInfo::read(const JsonReader &reader)
{
    reader.object();
    return {reader.field("version"_L1).string(), CatalogueInfo::read(reader.field("catalogue"_L1))};
}

QJsonObject AboutInfo::toJson() const
{
    return {{u"version"_s, version}, {u"catalogue"_s, catalogue.toJson()}};
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

QJsonObject CallQuote::toJson() const
{
    QJsonArray poolArray;
    for (const Pool &pool : pools)
        poolArray.append(QJsonObject{{u"name"_s, pool.name},
                                     {u"tokens"_s, pool.tokens},
                                     {u"price_per_million"_s, pool.pricePerMillion.toJson()},
                                     {u"cost"_s, pool.cost.toJson()}});
    return {{u"model_id"_s, modelId},       {u"feature_id"_s, nullable(featureId)},
            {u"pools"_s, poolArray},        {u"base_cost"_s, baseCost.toJson()},
            {u"markup"_s, markup.toJson()}, {u"markup_source"_s, markupSource},
            {u"value"_s, value.toJson()},   {u"free"_s, free}};
}

template <typename T> Page<T> Page<T>::read(const JsonReader &reader)
{
    reader.object();
    Page page;
    page.list = readList<T>(reader.field("list"_L1));
    page.hasMore = reader.field("has_more"_L1).boolean();
    page.nextCursor = reader.field("next_cursor"_L1).nullableString();
    if (reader.ok() && page.hasMore != page.nextCursor.has_value())
        reader.field("next_cursor"_L1).fail(u"must be a string exactly when has_more is true"_s);
    return page;
}

template <typename T> QJsonObject Page<T>::toJson() const
{
    return {{u"list"_s, toJsonArray(list)},
            {u"has_more"_s, hasMore},
            {u"next_cursor"_s, nullable(nextCursor)}};
}

template struct Page<CustomerSummary>;
template struct Page<FeatureInfo>;
template struct Page<OrganizationInfo>;
template struct Page<RewardEntry>;
template struct Page<UsageEvent>;
template struct Page<Product>;
template struct Page<ModelInfo>;

} // namespace md::api
