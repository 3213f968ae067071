#include "services/api/FeatureInfo.h"

namespace md::api {

using namespace Qt::StringLiterals;

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
    feature.defaultMarkup = reader.field("default_markup"_L1).optNullableDecimal();
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

} // namespace md::api
