#include "services/api/Organization.h"

namespace md::api {

using namespace Qt::StringLiterals;

Organization Organization::read(const JsonReader &reader)
{
    reader.object();
    Organization organization;
    organization.id = reader.field("id"_L1).string();
    organization.slug = reader.field("slug"_L1).string();
    return organization;
}

void Organization::write(JsonWriter &writer) const
{
    writer.beginObject().field("id"_L1, id).field("slug"_L1, slug).endObject();
}

} // namespace md::api
