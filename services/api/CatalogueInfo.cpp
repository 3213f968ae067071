#include "services/api/CatalogueInfo.h"

namespace md::api {

using namespace Qt::StringLiterals;

ModelInfo ModelInfo::read(const JsonReader &reader)
{
    reader.object();
    // Pools a model has no price of its own for may be null or left out.
    const auto price = [&](QLatin1StringView key) {
        return reader.field(key).optNullableDecimal();
    };
    return {reader.field("id"_L1).string(),
            reader.field("name"_L1).string(),
            reader.field("input"_L1).decimal(),
            reader.field("output"_L1).decimal(),
            price("cache_read"_L1),
            price("cache_write"_L1),
            price("reasoning"_L1),
            price("input_audio"_L1),
            price("output_audio"_L1)};
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

} // namespace md::api
