#include "services/api/CallQuote.h"

namespace md::api {

using namespace Qt::StringLiterals;

CallQuote CallQuote::read(const JsonReader &reader)
{
    reader.object();
    CallQuote quote;
    quote.modelId = reader.field("model_id"_L1).string();
    quote.featureId = reader.field("feature_id"_L1).optNullableString();
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
