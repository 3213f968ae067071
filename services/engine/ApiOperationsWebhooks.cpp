// ApiOperations' webhook routes (docs/api.md, "Webhooks"), apart from the
// rest because they are a family of their own.
#include "services/engine/ApiOperations.h"

#include "services/engine/AuditedWrite.h"
#include "services/engine/sql/StoredJson.h"
#include "services/engine/webhooks/WebhookDeliveries.h"
#include "services/engine/webhooks/WebhookEndpoints.h"
#include "services/engine/webhooks/WebhookOutbox.h"

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

const QString ReadScope = u"webhooks:read"_s;
const QString WriteScope = u"webhooks:write"_s;

// An endpoint as the audit log keeps it: never its secret.
api::JsonValue described(api::WebhookEndpoint endpoint)
{
    endpoint.secret.reset();
    endpoint.pending = 0; // the queue moves without anyone changing the endpoint
    return jsonOf(endpoint);
}

// A change of one endpoint, audited (AuditedWrite), on the endpoints of the
// key's environment. `id`: the endpoint before, none for a new one;
// `always`: recorded even when the entry shows no change (a new secret).
// After the commit the outbox's endpoint cache forgets them: a list read
// before it would be kept a second.
template <typename T, typename Write, typename After>
api::Result<T> endpointChange(Engine &engine, const KeyContext &key, const QString &action,
                              const std::optional<QString> &id, Write write, After after,
                              bool always = false)
{
    const auto endpointsOf = [&](const QSqlDatabase &db) {
        return WebhookEndpoints(db, engine.dialect(), key.scope, engine.now());
    };
    return AuditedWrite::run<T>(
        engine, key, {action, u"webhook_endpoint"_s, id.value_or(QString())},
        [&](const QSqlDatabase &db) -> api::Result<api::JsonValue> {
            if (!id)
                return api::JsonValue::null();
            auto was = endpointsOf(db).get(*id);
            if (!was)
                return was.error();
            return described(was.value());
        },
        [&](const QSqlDatabase &db) {
            WebhookEndpoints endpoints = endpointsOf(db);
            return write(endpoints);
        },
        after, {always, [&](const QSqlDatabase &db) { WebhookOutbox::forget(db, key.scope); }});
}

std::pair<QString, api::JsonValue> endpointAfter(const api::WebhookEndpoint &endpoint)
{
    return {endpoint.id, described(endpoint)};
}

} // namespace

api::Result<api::Page<api::WebhookEndpoint>>
ApiOperations::listWebhookEndpoints(const KeyContext &key)
{
    if (const auto denied = key.missingScope(ReadScope))
        return *denied;
    return m_engine.withConnection([&](const QSqlDatabase &db) {
        return WebhookEndpoints(db, m_engine.dialect(), key.scope, m_engine.now()).list();
    });
}

api::Result<api::WebhookEndpoint>
ApiOperations::createWebhookEndpoint(const KeyContext &key,
                                     const api::WebhookEndpointCreate &request)
{
    if (const auto denied = key.missingScope(WriteScope))
        return *denied;
    return endpointChange<api::WebhookEndpoint>(
        m_engine, key, u"webhook_endpoint.create"_s, std::nullopt,
        [&](WebhookEndpoints &endpoints) {
            return endpoints.create(request, m_engine.webhookPolicy());
        },
        endpointAfter);
}

api::Result<api::WebhookEndpoint>
ApiOperations::updateWebhookEndpoint(const KeyContext &key,
                                     const api::WebhookEndpointUpdate &request)
{
    if (const auto denied = key.missingScope(WriteScope))
        return *denied;
    return endpointChange<api::WebhookEndpoint>(
        m_engine, key, u"webhook_endpoint.update"_s, request.id,
        [&](WebhookEndpoints &endpoints) {
            return endpoints.update(request, m_engine.webhookPolicy());
        },
        endpointAfter);
}

api::Result<api::WebhookEndpointDeleted>
ApiOperations::deleteWebhookEndpoint(const KeyContext &key, const api::WebhookTarget &request)
{
    if (const auto denied = key.missingScope(WriteScope))
        return *denied;
    return endpointChange<api::WebhookEndpointDeleted>(
        m_engine, key, u"webhook_endpoint.delete"_s, request.id,
        [&](WebhookEndpoints &endpoints) { return endpoints.remove(request.id); },
        [](const api::WebhookEndpointDeleted &deleted) {
            return std::pair{deleted.id, api::JsonValue::null()};
        });
}

api::Result<api::WebhookEndpoint>
ApiOperations::rotateWebhookSecret(const KeyContext &key, const api::WebhookTarget &request)
{
    if (const auto denied = key.missingScope(WriteScope))
        return *denied;
    return endpointChange<api::WebhookEndpoint>(
        m_engine, key, u"webhook_endpoint.rotate_secret"_s, request.id,
        [&](WebhookEndpoints &endpoints) { return endpoints.rotateSecret(request.id); },
        endpointAfter, true);
}

api::Result<api::WebhookDelivery> ApiOperations::sendTestWebhook(const KeyContext &key,
                                                                 const api::WebhookTarget &request)
{
    if (const auto denied = key.missingScope(WriteScope))
        return *denied;
    return m_engine.withConnection(
        [&](const QSqlDatabase &db) -> api::Result<api::WebhookDelivery> {
            WriteTransaction transaction(db, m_engine.dialect());
            if (auto begun = transaction.begin(); !begun)
                return begun.error();
            const qint64 now = m_engine.now();
            auto pk = WebhookEndpoints(db, m_engine.dialect(), key.scope, now).keyOf(request.id);
            if (!pk)
                return pk.error();
            auto event = WebhookOutbox(db, m_engine.dialect(), key.scope, now)
                             .addFor(pk.value(), u"webhook_endpoint.test"_s,
                                     api::JsonValue::object(
                                         {{"endpoint_id"_L1, api::JsonValue::string(request.id)}}));
            if (!event)
                return event.error();
            auto delivery = queryRows(db, u"SELECT pk FROM webhook_deliveries WHERE event_pk = ?"_s,
                                      {event.value()});
            if (!delivery)
                return delivery.error();
            // The outbox gives a disabled endpoint nothing; the event goes with the rollback.
            if (delivery.value().isEmpty())
                return api::ApiError::invalidInputs(
                    u"id"_s, u"names a disabled endpoint, which is sent nothing; enable it"
                             " (webhook_endpoints.update) first"_s);
            if (auto committed = transaction.commit(); !committed)
                return committed.error();
            return WebhookDeliveries(db, key.scope, now)
                .read(delivery.value().value(0).value(0).toLongLong());
        });
}

api::Result<api::Page<api::WebhookDelivery>>
ApiOperations::listWebhookDeliveries(const KeyContext &key,
                                     const api::WebhookDeliveriesRequest &request)
{
    if (const auto denied = key.missingScope(ReadScope))
        return *denied;
    return m_engine.withConnection([&](const QSqlDatabase &db) {
        return WebhookDeliveries(db, key.scope, m_engine.now()).list(request);
    });
}

api::Result<api::WebhookDelivery> ApiOperations::redeliverWebhook(const KeyContext &key,
                                                                  const api::WebhookTarget &request)
{
    if (const auto denied = key.missingScope(WriteScope))
        return *denied;
    return m_engine.withConnection([&](const QSqlDatabase &db) {
        return WebhookDeliveries(db, key.scope, m_engine.now()).redeliver(request.id);
    });
}

} // namespace md::engine
