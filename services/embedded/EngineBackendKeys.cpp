// EngineBackend's API key methods (docs/api.md, "API keys").
#include "services/embedded/EngineBackend.h"
#include "services/embedded/EngineBackendCalls.h"

namespace md::embedded {

Reply<api::Page<api::ApiKey>> EngineBackend::listApiKeys()
{
    return run<api::Page<api::ApiKey>>(
        [](engine::ApiOperations &s, const engine::KeyContext &k) { return s.listApiKeys(k); });
}

Reply<api::ApiKey> EngineBackend::createApiKey(const api::ApiKeyCreate &request)
{
    return runReceived<api::ApiKey>(
        request, [](auto &s, const auto &k, const auto &r) { return s.createApiKey(k, r); });
}

Reply<api::ApiKey> EngineBackend::revokeApiKey(const api::ApiKeyTarget &request)
{
    return runReceived<api::ApiKey>(
        request, [](auto &s, const auto &k, const auto &r) { return s.revokeApiKey(k, r); });
}

Reply<api::ApiKey> EngineBackend::rollApiKey(const api::ApiKeyRoll &request)
{
    return runReceived<api::ApiKey>(
        request, [](auto &s, const auto &k, const auto &r) { return s.rollApiKey(k, r); });
}

} // namespace md::embedded
