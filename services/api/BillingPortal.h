// billing_portal request and response (docs/api.md, billing_portal).
#pragma once

#include "services/api/WireCodec.h"

namespace md::api {

struct BillingPortalRequest
{
    std::optional<QString> returnUrl; // where the portal's back button leads; optional

    static BillingPortalRequest read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const BillingPortalRequest &, const BillingPortalRequest &) = default;
};

struct BillingPortalResponse
{
    QString customerId;
    QString url;

    static BillingPortalResponse read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const BillingPortalResponse &, const BillingPortalResponse &) = default;
};

} // namespace md::api
