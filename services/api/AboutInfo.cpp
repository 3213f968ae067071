#include "services/api/AboutInfo.h"

namespace md::api {

using namespace Qt::StringLiterals;

AboutInfo AboutInfo::read(const JsonReader &reader)
{
    reader.object();
    AboutInfo about{reader.field("version"_L1).string(),
                    CatalogueInfo::read(reader.field("catalogue"_L1)),
                    QueueCounts::read(reader.field("track_queue"_L1)), std::nullopt, std::nullopt};
    // A server before issue 39 does not say; the console then offers everything.
    if (const JsonReader scopes = reader.field("scopes"_L1); !scopes.isMissing())
        about.scopes = readStringList(scopes);
    if (const JsonReader key = reader.field("key_id"_L1); !key.isMissing())
        about.keyId = key.nullableString();
    return about;
}

void AboutInfo::write(JsonWriter &writer) const
{
    writer.beginObject().field("version"_L1, version).key("catalogue"_L1);
    catalogue.write(writer);
    writer.key("track_queue"_L1);
    trackQueue.write(writer);
    if (scopes) {
        writer.key("scopes"_L1);
        writeStrings(writer, *scopes);
    }
    writer.field("key_id"_L1, keyId);
    writer.endObject();
}

} // namespace md::api
