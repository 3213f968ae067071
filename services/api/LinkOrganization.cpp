#include "services/api/LinkOrganization.h"

namespace md::api {

using namespace Qt::StringLiterals;

LinkOrganizationRequest LinkOrganizationRequest::read(const JsonReader &reader)
{
    reader.object();
    LinkOrganizationRequest request;
    request.organizationSlug = reader.field("organization_slug"_L1).identifier();
    const JsonReader test = reader.field("test_account_id"_L1);
    request.testAccountId = test.optIdentifier();
    request.liveAccountId = reader.field("live_account_id"_L1).optIdentifier();
    if (reader.ok() && !request.testAccountId && !request.liveAccountId)
        test.fail(u"at least one of test_account_id and live_account_id is required"_s);
    return request;
}

void LinkOrganizationRequest::write(JsonWriter &writer) const
{
    writer.beginObject().field("organization_slug"_L1, organizationSlug);
    if (testAccountId)
        writer.field("test_account_id"_L1, *testAccountId);
    if (liveAccountId)
        writer.field("live_account_id"_L1, *liveAccountId);
    writer.endObject();
}

LinkOrganizationResponse LinkOrganizationResponse::read(const JsonReader &reader)
{
    reader.object();
    LinkOrganizationResponse response;
    response.message = reader.field("message"_L1).string();
    response.organization = Organization::read(reader.field("organization"_L1));
    return response;
}

void LinkOrganizationResponse::write(JsonWriter &writer) const
{
    writer.beginObject().field("message"_L1, message).key("organization"_L1);
    organization.write(writer);
    writer.endObject();
}

} // namespace md::api
