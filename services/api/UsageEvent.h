// Meterdesk's own read endpoints (not among the seven of docs/api.md), documented
// in docs/openapi.yaml under /v1/meterdesk: a recorded usage event.
#pragma once

#include "services/api/Decimal.h"
#include "services/api/WireCodec.h"

#include <QMap>

namespace md::api {

struct UsageEvent
{
    QString customerId;
    QString featureId;
    std::optional<QString> entityId;
    std::optional<QString> modelId;
    QMap<QString, qint64> tokens; // pool name (input_tokens, …) -> count
    Decimal value;
    JsonValue properties = JsonValue::object(); // as the call sent them
    qint64 timestamp = 0;

    static UsageEvent read(const JsonReader &reader);
    // The `tokens` object: pool name -> count.
    static QMap<QString, qint64> readTokens(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const UsageEvent &, const UsageEvent &) = default;
};

} // namespace md::api
