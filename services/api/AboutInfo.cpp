#include "services/api/AboutInfo.h"

namespace md::api {

using namespace Qt::StringLiterals;

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

} // namespace md::api
