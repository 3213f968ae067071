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

OrganizationInfo OrganizationInfo::read(const JsonReader &reader)
{
    reader.object();
    return {reader.field("id"_L1).string(),
            reader.field("slug"_L1).string(),
            reader.field("name"_L1).string(),
            reader.field("master_org_id"_L1).nullableString(),
            reader.field("test_account_id"_L1).optNullableString(),
            reader.field("live_account_id"_L1).optNullableString()};
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

} // namespace md::api
