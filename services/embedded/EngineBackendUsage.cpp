// EngineBackend's usage methods for any feature (docs/api.md, "Usage of any feature").
#include "services/embedded/EngineBackend.h"
#include "services/embedded/EngineBackendCalls.h"

namespace md::embedded {

Reply<api::TrackTokensResponse> EngineBackend::track(const api::TrackRequest &request,
                                                     const std::optional<QString> &idempotencyKey)
{
    return runReceived<api::TrackTokensResponse>(
        request, [idempotencyKey](auto &s, const auto &k, const auto &r) {
            return s.track(k, r, idempotencyKey);
        });
}

Reply<api::CheckResponse> EngineBackend::check(const api::CheckRequest &request)
{
    return runReceived<api::CheckResponse>(
        request, [](auto &s, const auto &k, const auto &r) { return s.check(k, r); });
}

Reply<api::UsageBatchResponse> EngineBackend::usageBatch(const api::UsageBatchRequest &request)
{
    return runReceived<api::UsageBatchResponse>(
        request, [](auto &s, const auto &k, const auto &r) { return s.usageBatch(k, r); });
}

} // namespace md::embedded
