#include "models/connection/ServerProbe.h"

#include "services/remote/RemoteBackend.h"

namespace md::models {

ServerProbe::ServerProbe() = default;
ServerProbe::~ServerProbe() = default;

QFuture<api::Result<backend::ConnectionInfo>> ServerProbe::probe(const QUrl &server,
                                                                 const QString &apiKey)
{
    remote::RemoteBackend::Options options;
    options.timeoutMs = 10000; // a person is waiting on the button
    m_client = std::make_unique<remote::RemoteBackend>(server, apiKey, options);
    return m_client->connectionInfo();
}

} // namespace md::models
