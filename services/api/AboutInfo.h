// Meterdesk's own read endpoints (not among the seven of docs/api.md), documented
// in docs/openapi.yaml under /v1/meterdesk: what the console talks to.
#pragma once

#include "services/api/CatalogueInfo.h"
#include "services/api/FailedEvent.h"

namespace md::api {

// What the console talks to: the engine's version and its price catalogue.
struct AboutInfo
{
    QString version;
    CatalogueInfo catalogue;
    // The asking key's environment: async calls waiting, and failed ones.
    QueueCounts trackQueue;
    // What the asking key may do ("*": everything), so the console disables
    // what it may not; none from a server that does not say.
    std::optional<QStringList> scopes;
    // The asking key's id (key_…), so a console knows which key is its own;
    // none for the embedded console, which uses no key.
    std::optional<QString> keyId;

    static AboutInfo read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const AboutInfo &, const AboutInfo &) = default;
};

} // namespace md::api
