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

QJsonObject LinkOrganizationRequest::toJson() const
{
    QJsonObject object{{u"organization_slug"_s, organizationSlug}};
    if (testAccountId)
        object.insert(u"test_account_id"_s, *testAccountId);
    if (liveAccountId)
        object.insert(u"live_account_id"_s, *liveAccountId);
    return object;
}

LinkOrganizationResponse LinkOrganizationResponse::read(const JsonReader &reader)
{
    reader.object();
    LinkOrganizationResponse response;
    response.message = reader.field("message"_L1).string();
    response.organization = Organization::read(reader.field("organization"_L1));
    return response;
}

QJsonObject LinkOrganizationResponse::toJson() const
{
    return {{u"message"_s, message}, {u"organization"_s, organization.toJson()}};
}

} // namespace md::api
