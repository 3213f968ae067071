// A QTcpServer whose connections answer without TCP's 40 ms stalls: no Nagle
// delay on what we send, and quick ACKs of what we receive. Clients such as
// QNetworkAccessManager send a POST's headers and body in two segments with
// Nagle on, so the body waits for our ACK of the headers; delaying that ACK
// (the kernel's default) costs every request about 40 ms on loopback.
#pragma once

#include <QTcpServer>

namespace md::server {

class LowDelayTcpServer final : public QTcpServer
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LowDelayTcpServer)

public:
    using QTcpServer::QTcpServer;

protected:
    void incomingConnection(qintptr descriptor) override;
};

} // namespace md::server
