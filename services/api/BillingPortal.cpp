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

void BillingPortalRequest::write(JsonWriter &writer) const
{
    writer.beginObject();
    if (returnUrl)
        writer.field("return_url"_L1, *returnUrl);
    writer.endObject();
}

BillingPortalResponse BillingPortalResponse::read(const JsonReader &reader)
{
    reader.object();
    BillingPortalResponse response;
    response.customerId = reader.field("customer_id"_L1).string();
    response.url = reader.field("url"_L1).string();
    return response;
}

void BillingPortalResponse::write(JsonWriter &writer) const
{
    writer.beginObject().field("customer_id"_L1, customerId).field("url"_L1, url).endObject();
}

} // namespace md::api
