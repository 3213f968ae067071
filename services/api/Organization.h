// A tenant organization of a platform (docs/api.md, Organizations), and an
// organization as Meterdesk's own /v1/meterdesk routes list it (docs/openapi.yaml).
#pragma once

#include "services/api/WireCodec.h"

namespace md::api {

struct Organization
{
    QString id;
    QString slug;

    static Organization read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const Organization &, const Organization &) = default;
};

struct OrganizationInfo
{
    QString id;
    QString slug;
    QString name;
    std::optional<QString> masterOrgId;
    std::optional<QString> testAccountId;
    std::optional<QString> liveAccountId;

    static OrganizationInfo read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const OrganizationInfo &, const OrganizationInfo &) = default;
};

} // namespace md::api
