#include "models/connection/ServerProbe.h"

#include "services/remote/RemoteBackend.h"

#include <QCoreApplication>

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

QString ServerProbe::said(const api::ApiError &error)
{
    if (error.status == 401)
        return QCoreApplication::translate(
            "ServerProbe", "The server did not accept this key. Paste the whole secret key "
                           "(sk_test_… or sk_live_…) and check that it has not been revoked or "
                           "expired.");
    return error.message;
}

} // namespace md::models
