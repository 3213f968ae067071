#include "services/api/Webhook.h"

#include "services/api/TextRule.h"

#include <QUrl>

namespace md::api {

using namespace Qt::StringLiterals;

namespace {

constexpr std::pair<QLatin1StringView, DeliveryStatus> DeliveryStatusWords[] = {
    {"pending"_L1, DeliveryStatus::Pending},
    {"succeeded"_L1, DeliveryStatus::Succeeded},
    {"failed"_L1, DeliveryStatus::Failed},
};

// What makes a URL one an endpoint can have at all; where it may point
// (https only, no private address) is the server's rule (engine/webhooks).
QString readUrl(const JsonReader &reader)
{
    const QString text = reader.string();
    if (!reader.ok())
        return text;
    const QUrl url(text, QUrl::StrictMode);
    if (text.size() > WebhookEndpoint::MaxUrl)
        reader.fail(u"is longer than %1 characters"_s.arg(WebhookEndpoint::MaxUrl));
    else if (!url.isValid() || (url.scheme() != "https"_L1 && url.scheme() != "http"_L1))
        reader.fail(u"must be an https:// URL"_s);
    else if (url.host().isEmpty())
        reader.fail(u"has no host"_s);
    else if (!url.userInfo().isEmpty())
        reader.fail(u"must not hold a user name or password (they would show in every list)"_s);
    else if (url.hasFragment())
        reader.fail(u"must not have a #fragment"_s);
    return text;
}

// One or more known event types, or "*", each once.
QStringList readEvents(const JsonReader &reader)
{
    const QStringList events = readStringList(reader);
    if (!reader.ok())
        return events;
    if (events.isEmpty())
        reader.fail(u"must name at least one event type, or \"*\" for all"_s);
    for (const QString &event : events) {
        if (event != "*"_L1 && !webhookEventTypes().contains(event)) {
            reader.fail(u"holds \"%1\", which is no event type; known are %2"_s.arg(
                event, webhookEventTypes().join(u", "_s)));
            break;
        }
        if (events.count(event) > 1) {
            reader.fail(u"holds \"%1\" twice"_s.arg(event));
            break;
        }
    }
    return events;
}

std::optional<QString> readDescription(const JsonReader &reader)
{
    const auto description = reader.optNullableString();
    if (description && reader.ok())
        if (const auto problem = freeTextProblem(*description, WebhookEndpoint::MaxDescription))
            reader.fail(*problem);
    return description;
}

} // namespace

const QStringList &webhookEventTypes()
{
    static const QStringList types{
        u"balances.usage_alert_triggered"_s,
        u"balances.limit_reached"_s,
        u"balances.reset"_s,
        u"balances.expired"_s,
        u"statement.closed"_s,
        u"track_queue.failed"_s,
        u"customer.imported"_s,
        u"product.updated"_s,
        u"reward.updated"_s,
        u"environment.promoted"_s,
        u"balance.adjusted"_s,
        u"balance.created"_s,
        u"webhook_endpoint.test"_s,
    };
    return types;
}

QLatin1StringView toWire(DeliveryStatus status)
{
    for (const auto &[word, value] : DeliveryStatusWords)
        if (value == status)
            return word;
    return {};
}

std::optional<DeliveryStatus> deliveryStatusFromWire(QStringView word)
{
    for (const auto &[text, value] : DeliveryStatusWords)
        if (word == text)
            return value;
    return std::nullopt;
}

WebhookEndpoint WebhookEndpoint::read(const JsonReader &reader)
{
    reader.object();
    WebhookEndpoint endpoint;
    endpoint.id = reader.field("id"_L1).string();
    endpoint.url = reader.field("url"_L1).string();
    endpoint.events = readStringList(reader.field("events"_L1));
    endpoint.description = reader.field("description"_L1).nullableString();
    endpoint.enabled = reader.field("enabled"_L1).boolean();
    endpoint.disabledReason = reader.field("disabled_reason"_L1).nullableString();
    endpoint.failingSince = reader.field("failing_since"_L1).nullableInteger();
    endpoint.pending = reader.field("pending"_L1).integer();
    endpoint.secret = reader.field("secret"_L1).optString();
    endpoint.createdAt = reader.field("created_at"_L1).integer();
    endpoint.updatedAt = reader.field("updated_at"_L1).integer();
    return endpoint;
}

void WebhookEndpoint::write(JsonWriter &writer) const
{
    writer.beginObject().field("id"_L1, id).field("url"_L1, url).key("events"_L1);
    writeStrings(writer, events);
    writer.field("description"_L1, description)
        .field("enabled"_L1, enabled)
        .field("disabled_reason"_L1, disabledReason)
        .field("failing_since"_L1, failingSince)
        .field("pending"_L1, pending);
    if (secret)
        writer.field("secret"_L1, *secret);
    writer.field("created_at"_L1, createdAt).field("updated_at"_L1, updatedAt).endObject();
}

WebhookEndpointCreate WebhookEndpointCreate::read(const JsonReader &reader)
{
    reader.object();
    WebhookEndpointCreate request;
    request.url = readUrl(reader.field("url"_L1));
    request.events = readEvents(reader.field("events"_L1));
    const JsonReader description = reader.field("description"_L1);
    if (!description.isMissing())
        request.description = readDescription(description).value_or(QString());
    if (request.description && request.description->isEmpty())
        request.description.reset();
    return request;
}

void WebhookEndpointCreate::write(JsonWriter &writer) const
{
    writer.beginObject().field("url"_L1, url).key("events"_L1);
    writeStrings(writer, events);
    if (description)
        writer.field("description"_L1, *description);
    writer.endObject();
}

WebhookEndpointUpdate WebhookEndpointUpdate::read(const JsonReader &reader)
{
    reader.object();
    WebhookEndpointUpdate request;
    request.id = reader.field("id"_L1).string();
    if (const JsonReader url = reader.field("url"_L1); !url.isMissing())
        request.url = readUrl(url);
    if (const JsonReader events = reader.field("events"_L1); !events.isMissing())
        request.events = readEvents(events);
    if (const JsonReader description = reader.field("description"_L1); !description.isMissing()) {
        auto text = readDescription(description);
        request.description = text && !text->isEmpty() ? text : std::nullopt;
    }
    request.enabled = reader.field("enabled"_L1).optBoolean();
    return request;
}

void WebhookEndpointUpdate::write(JsonWriter &writer) const
{
    writer.beginObject().field("id"_L1, id);
    if (url)
        writer.field("url"_L1, *url);
    if (events) {
        writer.key("events"_L1);
        writeStrings(writer, *events);
    }
    if (description)
        writer.field("description"_L1, *description);
    if (enabled)
        writer.field("enabled"_L1, *enabled);
    writer.endObject();
}

WebhookTarget WebhookTarget::read(const JsonReader &reader)
{
    reader.object();
    return {reader.field("id"_L1).string()};
}

void WebhookTarget::write(JsonWriter &writer) const
{
    writer.beginObject().field("id"_L1, id).endObject();
}

WebhookEndpointDeleted WebhookEndpointDeleted::read(const JsonReader &reader)
{
    reader.object();
    return {reader.field("id"_L1).string(), reader.field("deleted"_L1).boolean()};
}

void WebhookEndpointDeleted::write(JsonWriter &writer) const
{
    writer.beginObject().field("id"_L1, id).field("deleted"_L1, deleted).endObject();
}

WebhookDelivery WebhookDelivery::read(const JsonReader &reader)
{
    reader.object();
    WebhookDelivery delivery;
    delivery.id = reader.field("id"_L1).string();
    delivery.eventId = reader.field("event_id"_L1).string();
    delivery.endpointId = reader.field("endpoint_id"_L1).string();
    delivery.type = reader.field("type"_L1).string();
    delivery.status = reader.field("status"_L1).word(DeliveryStatusWords);
    delivery.attempts = reader.field("attempts"_L1).integer();
    delivery.lastStatusCode = reader.field("last_status_code"_L1).nullableInteger(100, 999);
    delivery.lastAnswer = reader.field("last_answer"_L1).nullableString();
    delivery.lastError = reader.field("last_error"_L1).nullableString();
    delivery.lastAttemptAt = reader.field("last_attempt_at"_L1).nullableInteger();
    delivery.nextAttemptAt = reader.field("next_attempt_at"_L1).nullableInteger();
    delivery.createdAt = reader.field("created_at"_L1).integer();
    delivery.payload = reader.field("payload"_L1).object();
    return delivery;
}

void WebhookDelivery::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("id"_L1, id)
        .field("event_id"_L1, eventId)
        .field("endpoint_id"_L1, endpointId)
        .field("type"_L1, type)
        .field("status"_L1, toWire(status))
        .field("attempts"_L1, attempts)
        .field("last_status_code"_L1, lastStatusCode)
        .field("last_answer"_L1, lastAnswer)
        .field("last_error"_L1, lastError)
        .field("last_attempt_at"_L1, lastAttemptAt)
        .field("next_attempt_at"_L1, nextAttemptAt)
        .field("created_at"_L1, createdAt)
        .key("payload"_L1);
    payload.write(writer);
    writer.endObject();
}

WebhookDeliveriesRequest WebhookDeliveriesRequest::read(const JsonReader &reader)
{
    reader.object();
    WebhookDeliveriesRequest request;
    request.endpointId = reader.field("endpoint_id"_L1).optString();
    request.status = reader.field("status"_L1).optWord(DeliveryStatusWords);
    const JsonReader type = reader.field("type"_L1);
    request.type = type.optString();
    if (request.type && reader.ok() && !webhookEventTypes().contains(*request.type))
        type.fail(u"is no event type; known are %1"_s.arg(webhookEventTypes().join(u", "_s)));
    request.limit = reader.field("limit"_L1).optInteger(1, 200).value_or(50);
    request.startCursor = reader.field("start_cursor"_L1).optString().value_or(QString());
    return request;
}

void WebhookDeliveriesRequest::write(JsonWriter &writer) const
{
    writer.beginObject().field("limit"_L1, limit);
    if (endpointId)
        writer.field("endpoint_id"_L1, *endpointId);
    if (status)
        writer.field("status"_L1, toWire(*status));
    if (type)
        writer.field("type"_L1, *type);
    if (!startCursor.isEmpty())
        writer.field("start_cursor"_L1, startCursor);
    writer.endObject();
}

} // namespace md::api
