// Platform link of a tenant organization to a processor account
// (docs/api.md, platform link).
#pragma once

#include "services/api/Organization.h"

namespace md::api {

// At least one of testAccountId and liveAccountId is set; set ones are not empty.
struct LinkOrganizationRequest
{
    QString organizationSlug; // required, not empty
    std::optional<QString> testAccountId;
    std::optional<QString> liveAccountId;

    static LinkOrganizationRequest read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const LinkOrganizationRequest &,
                           const LinkOrganizationRequest &) = default;
};

struct LinkOrganizationResponse
{
    QString message;
    Organization organization;

    static LinkOrganizationResponse read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const LinkOrganizationResponse &,
                           const LinkOrganizationResponse &) = default;
};

} // namespace md::api
