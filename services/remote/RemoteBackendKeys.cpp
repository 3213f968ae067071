// RemoteBackend's API key methods (docs/api.md, "API keys").
#include "services/remote/RemoteBackend.h"

namespace md::remote {

using namespace Qt::StringLiterals;

backend::Reply<api::Page<api::ApiKey>> RemoteBackend::listApiKeys()
{
    return call<api::Page<api::ApiKey>>(u"/v1/meterdesk/api_keys.list"_s, QByteArrayLiteral("{}"));
}

backend::Reply<api::ApiKey> RemoteBackend::createApiKey(const api::ApiKeyCreate &request)
{
    return call<api::ApiKey>(u"/v1/meterdesk/api_keys.create"_s, api::toJsonText(request));
}

backend::Reply<api::ApiKey> RemoteBackend::revokeApiKey(const api::ApiKeyTarget &request)
{
    return call<api::ApiKey>(u"/v1/meterdesk/api_keys.revoke"_s, api::toJsonText(request));
}

backend::Reply<api::ApiKey> RemoteBackend::rollApiKey(const api::ApiKeyRoll &request)
{
    return call<api::ApiKey>(u"/v1/meterdesk/api_keys.roll"_s, api::toJsonText(request));
}

} // namespace md::remote
