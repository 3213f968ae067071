#include "services/api/BillingPortal.h"

namespace md::api {

using namespace Qt::StringLiterals;

BillingPortalRequest BillingPortalRequest::read(const JsonReader &reader)
{
    reader.object();
    BillingPortalRequest request;
    request.returnUrl = reader.field("return_url"_L1).optString();
    return request;
}

QJsonObject BillingPortalRequest::toJson() const
{
    QJsonObject object;
    if (returnUrl)
        object.insert(u"return_url"_s, *returnUrl);
    return object;
}

BillingPortalResponse BillingPortalResponse::read(const JsonReader &reader)
{
    reader.object();
    BillingPortalResponse response;
    response.customerId = reader.field("customer_id"_L1).string();
    response.url = reader.field("url"_L1).string();
    return response;
}

QJsonObject BillingPortalResponse::toJson() const
{
    return {{u"customer_id"_s, customerId}, {u"url"_s, url}};
}

} // namespace md::api
