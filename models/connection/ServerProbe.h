// The connection dialog's Test button: asks a billing server who a key is,
// without opening a connection. It owns the client until the answer comes,
// so a view never builds a backend itself (docs/architecture.md).
#pragma once

#include "services/backend/BillingBackend.h"

#include <QUrl>

#include <memory>

namespace md::models {

class ServerProbe final
{
public:
    ServerProbe();
    ~ServerProbe();
    Q_DISABLE_COPY_MOVE(ServerProbe)

    // Answers the key's organization and environment, or why not (within
    // ten seconds). Starting another probe abandons the one in flight.
    QFuture<api::Result<backend::ConnectionInfo>> probe(const QUrl &server, const QString &apiKey);
    // Why a server refused a connection, in the console's words: a refused
    // key says what to paste, not which header to send.
    static QString said(const api::ApiError &error);

private:
    std::unique_ptr<backend::BillingBackend> m_client;
};

} // namespace md::models
