// audit_log.list (docs/api.md, "audit_log.list"): every write through the
// API or the console, newest first, with who did it and the resource before
// and after, answered as a Page<AuditEntry>. Documented in docs/openapi.yaml
// under /v1/meterdesk.
#pragma once

#include "services/api/JsonValue.h"
#include "services/api/WireCodec.h"

#include <QString>

#include <optional>

namespace md::api {

struct AuditLogRequest
{
    std::optional<QString> resourceType; // product, reward, customer, organization, ...
    std::optional<QString> resourceId;   // only with resource_type
    std::optional<QString> actor;        // a key id ("key_12") or a name
    std::optional<qint64> since;         // entries at or after this time (ms)
    qint64 limit = 50;
    QString startCursor;

    static AuditLogRequest read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const AuditLogRequest &, const AuditLogRequest &) = default;
};

struct AuditActor
{
    QString kind;                 // "key": an API key; "console": the console or the CLI
    std::optional<QString> keyId; // "key_<n>" for a key; never key material
    QString name;                 // the key's name, or the operating-system user

    friend bool operator==(const AuditActor &, const AuditActor &) = default;
};

struct AuditEntry
{
    QString id; // "audit_<n>"
    qint64 at = 0;
    AuditActor actor;
    QString action; // e.g. "product.update", "reward.update", "customer.import"
    QString resourceType;
    QString resourceId;
    JsonValue before = JsonValue::null(); // the resource's wire JSON, null when new
    JsonValue after = JsonValue::null();

    static AuditEntry read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const AuditEntry &, const AuditEntry &) = default;
};

} // namespace md::api
