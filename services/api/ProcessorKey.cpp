#include "services/api/ProcessorKey.h"

namespace md::api {

using namespace Qt::StringLiterals;

ProcessorKeyConnect ProcessorKeyConnect::read(const JsonReader &reader)
{
    reader.object();
    return {reader.field("secret"_L1).string()};
}

void ProcessorKeyConnect::write(JsonWriter &writer) const
{
    writer.beginObject().field("secret"_L1, secret).endObject();
}

ProcessorKeyInfo ProcessorKeyInfo::read(const JsonReader &reader)
{
    reader.object();
    ProcessorKeyInfo info;
    info.env = reader.field("env"_L1).string();
    info.hint = reader.field("hint"_L1).string();
    info.connectedAt = reader.field("connected_at"_L1).integer();
    return info;
}

void ProcessorKeyInfo::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("env"_L1, env)
        .field("hint"_L1, hint)
        .field("connected_at"_L1, connectedAt)
        .endObject();
}

} // namespace md::api
