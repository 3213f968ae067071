// RemoteBackend's usage methods for any feature (docs/api.md, "Usage of any feature").
#include "services/remote/RemoteBackend.h"

namespace md::remote {

using namespace Qt::StringLiterals;

backend::Reply<api::TrackTokensResponse>
RemoteBackend::track(const api::TrackRequest &request, const std::optional<QString> &idempotencyKey)
{
    return postTrack(u"/v1/meterdesk/balances.track"_s, api::toJsonText(request),
                     request.customerId, request.async, idempotencyKey);
}

backend::Reply<api::CheckResponse> RemoteBackend::check(const api::CheckRequest &request)
{
    return call<api::CheckResponse>(u"/v1/meterdesk/balances.check"_s, api::toJsonText(request));
}

backend::Reply<api::UsageBatchResponse>
RemoteBackend::usageBatch(const api::UsageBatchRequest &request)
{
    return call<api::UsageBatchResponse>(u"/v1/meterdesk/usage.batch"_s, api::toJsonText(request));
}

} // namespace md::remote
