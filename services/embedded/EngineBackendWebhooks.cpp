// EngineBackend's webhook methods (docs/api.md, "Webhooks").
#include "services/embedded/EngineBackend.h"
#include "services/embedded/EngineBackendCalls.h"

namespace md::embedded {

Reply<api::Page<api::WebhookEndpoint>> EngineBackend::listWebhookEndpoints()
{
    return run<api::Page<api::WebhookEndpoint>>(
        [](engine::ApiOperations &s, const engine::KeyContext &k) {
            return s.listWebhookEndpoints(k);
        });
}

Reply<api::WebhookEndpoint>
EngineBackend::createWebhookEndpoint(const api::WebhookEndpointCreate &request)
{
    return runReceived<api::WebhookEndpoint>(request, [](auto &s, const auto &k, const auto &r) {
        return s.createWebhookEndpoint(k, r);
    });
}

Reply<api::WebhookEndpoint>
EngineBackend::updateWebhookEndpoint(const api::WebhookEndpointUpdate &request)
{
    return runReceived<api::WebhookEndpoint>(request, [](auto &s, const auto &k, const auto &r) {
        return s.updateWebhookEndpoint(k, r);
    });
}

Reply<api::WebhookEndpointDeleted>
EngineBackend::deleteWebhookEndpoint(const api::WebhookTarget &request)
{
    return runReceived<api::WebhookEndpointDeleted>(
        request,
        [](auto &s, const auto &k, const auto &r) { return s.deleteWebhookEndpoint(k, r); });
}

Reply<api::WebhookEndpoint> EngineBackend::rotateWebhookSecret(const api::WebhookTarget &request)
{
    return runReceived<api::WebhookEndpoint>(
        request, [](auto &s, const auto &k, const auto &r) { return s.rotateWebhookSecret(k, r); });
}

Reply<api::WebhookDelivery> EngineBackend::sendTestWebhook(const api::WebhookTarget &request)
{
    return runReceived<api::WebhookDelivery>(
        request, [](auto &s, const auto &k, const auto &r) { return s.sendTestWebhook(k, r); });
}

Reply<api::Page<api::WebhookDelivery>>
EngineBackend::listWebhookDeliveries(const api::WebhookDeliveriesRequest &request)
{
    return runReceived<api::Page<api::WebhookDelivery>>(
        request,
        [](auto &s, const auto &k, const auto &r) { return s.listWebhookDeliveries(k, r); });
}

Reply<api::WebhookDelivery> EngineBackend::redeliverWebhook(const api::WebhookTarget &request)
{
    return runReceived<api::WebhookDelivery>(
        request, [](auto &s, const auto &k, const auto &r) { return s.redeliverWebhook(k, r); });
}

} // namespace md::embedded
