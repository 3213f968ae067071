// Meterdesk's own read endpoints (not among the seven of docs/api.md), documented
// in docs/openapi.yaml under /v1/meterdesk: a customer as the console lists it.
#pragma once

#include "services/api/WireCodec.h"

namespace md::api {

struct CustomerSummary
{
    QString id;
    QString name;
    QString email;
    qint64 createdAt = 0;

    static CustomerSummary read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const CustomerSummary &, const CustomerSummary &) = default;
};

} // namespace md::api
