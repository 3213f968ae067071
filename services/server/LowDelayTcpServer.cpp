#include "services/server/LowDelayTcpServer.h"

#include <QTcpSocket>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

namespace md::server {

namespace {

// Linux leaves quick-ACK mode on its own; arm it again whenever data arrived.
void armQuickAck(const QTcpSocket *socket)
{
#ifdef TCP_QUICKACK
    const int on = 1;
    ::setsockopt(int(socket->socketDescriptor()), IPPROTO_TCP, TCP_QUICKACK, &on, sizeof on);
#else
    Q_UNUSED(socket)
#endif
}

} // namespace

void LowDelayTcpServer::incomingConnection(qintptr descriptor)
{
    auto *socket = new QTcpSocket(this);
    if (!socket->setSocketDescriptor(descriptor)) {
        delete socket;
        return;
    }
    socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    armQuickAck(socket);
    // Connected before the HTTP server's own slot, so it runs first on each read.
    connect(socket, &QTcpSocket::readyRead, socket, [socket] { armQuickAck(socket); });
    addPendingConnection(socket);
}

} // namespace md::server
