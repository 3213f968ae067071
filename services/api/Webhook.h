// Webhooks on the wire (docs/api.md, "Webhooks"): endpoints an environment's
// events are sent to, and the deliveries of those events with their attempts.
#pragma once

#include "services/api/JsonValue.h"
#include "services/api/WireCodec.h"

#include <QStringList>

#include <optional>

namespace md::api {

// Every event type an endpoint may subscribe to, in the order docs/api.md
// lists them; "*" in an endpoint's events subscribes to all of them.
const QStringList &webhookEventTypes();

struct WebhookEndpoint
{
    static constexpr qsizetype MaxUrl = 2048;
    static constexpr qsizetype MaxDescription = 500;

    QString id; // "we_…"
    QString url;
    QStringList events;
    std::optional<QString> description;
    bool enabled = true;
    // Why it was disabled: by a person, or after failing for five days.
    std::optional<QString> disabledReason;
    // The first failed attempt since the last success; null while healthy.
    std::optional<qint64> failingSince;
    qint64 pending = 0; // deliveries still to be sent
    // whsec_…: only in the answers of create and rotate_secret.
    std::optional<QString> secret;
    qint64 createdAt = 0;
    qint64 updatedAt = 0;

    static WebhookEndpoint read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const WebhookEndpoint &, const WebhookEndpoint &) = default;
};

struct WebhookEndpointCreate
{
    QString url;
    QStringList events;
    std::optional<QString> description;

    static WebhookEndpointCreate read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const WebhookEndpointCreate &, const WebhookEndpointCreate &) = default;
};

// Only what is given changes; `description: null` clears it.
struct WebhookEndpointUpdate
{
    QString id;
    std::optional<QString> url;
    std::optional<QStringList> events;
    std::optional<std::optional<QString>> description;
    std::optional<bool> enabled;

    static WebhookEndpointUpdate read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const WebhookEndpointUpdate &, const WebhookEndpointUpdate &) = default;
};

// `{ id }`: the endpoint or delivery a route acts on.
struct WebhookTarget
{
    QString id;

    static WebhookTarget read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const WebhookTarget &, const WebhookTarget &) = default;
};

struct WebhookEndpointDeleted
{
    QString id;
    bool deleted = true;

    static WebhookEndpointDeleted read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const WebhookEndpointDeleted &,
                           const WebhookEndpointDeleted &) = default;
};

enum class DeliveryStatus { Pending, Succeeded, Failed };
QLatin1StringView toWire(DeliveryStatus status);
std::optional<DeliveryStatus> deliveryStatusFromWire(QStringView word);

struct WebhookDelivery
{
    // The answer's first bytes kept (docs/api.md): enough to see why.
    static constexpr qsizetype MaxAnswerBytes = 1024;

    QString id;      // "wd_…"
    QString eventId; // "msg_…": the webhook-id header, the same on every attempt
    QString endpointId;
    QString type;
    DeliveryStatus status = DeliveryStatus::Pending;
    qint64 attempts = 0;
    std::optional<qint64> lastStatusCode; // the receiver's HTTP status
    std::optional<QString> lastAnswer;    // its first bytes
    std::optional<QString> lastError;     // no answer: why (refused, timed out, …)
    std::optional<qint64> lastAttemptAt;
    std::optional<qint64> nextAttemptAt; // null once succeeded or failed
    qint64 createdAt = 0;
    JsonValue payload; // the event as sent: { type, timestamp, data }

    static WebhookDelivery read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const WebhookDelivery &, const WebhookDelivery &) = default;
};

struct WebhookDeliveriesRequest
{
    std::optional<QString> endpointId;
    std::optional<DeliveryStatus> status;
    std::optional<QString> type;
    qint64 limit = 50;
    QString startCursor;

    static WebhookDeliveriesRequest read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const WebhookDeliveriesRequest &,
                           const WebhookDeliveriesRequest &) = default;
};

} // namespace md::api
