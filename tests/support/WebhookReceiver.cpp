#include "tests/support/WebhookReceiver.h"

#include <QTcpSocket>

#include <utility>

namespace md::test {

WebhookReceiver::WebhookReceiver(QObject *parent)
    : QObject(parent)
{
    connect(&m_server, &QTcpServer::newConnection, this, [this] {
        while (QTcpSocket *socket = m_server.nextPendingConnection()) {
            socket->setParent(this);
            m_buffers.insert(socket, {});
            connect(socket, &QTcpSocket::readyRead, this, [this, socket] { read(socket); });
            connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
                m_buffers.remove(socket);
                m_held.removeAll(socket);
                socket->deleteLater();
            });
        }
    });
}

WebhookReceiver::~WebhookReceiver()
{
    down();
}

bool WebhookReceiver::up()
{
    if (m_server.isListening())
        return true;
    if (!m_server.listen(QHostAddress::LocalHost, m_port))
        return false;
    m_port = m_server.serverPort();
    return true;
}

void WebhookReceiver::down()
{
    m_server.close();
    const auto sockets = m_buffers.keys();
    m_buffers.clear();
    m_held.clear();
    for (QTcpSocket *socket : sockets) {
        socket->disconnect(this);
        socket->abort();
        socket->deleteLater();
    }
}

QByteArray WebhookReceiver::url(const QByteArray &path) const
{
    return "http://127.0.0.1:" + QByteArray::number(m_port) + path;
}

void WebhookReceiver::release()
{
    m_holding = false;
    for (QTcpSocket *socket : std::exchange(m_held, {})) {
        answer(socket);
        socket->flush();
    }
}

QList<QByteArray> WebhookReceiver::ids() const
{
    QList<QByteArray> ids;
    for (const Request &request : m_requests)
        ids.append(request.id());
    return ids;
}

void WebhookReceiver::read(QTcpSocket *socket)
{
    QByteArray &buffer = m_buffers[socket];
    buffer += socket->readAll();
    for (;;) {
        const qsizetype end = buffer.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        Request request;
        const QList<QByteArray> lines = buffer.left(end).split('\n');
        request.path = lines.value(0).split(' ').value(1);
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const qsizetype colon = lines.at(i).indexOf(':');
            if (colon > 0)
                request.headers.insert(lines.at(i).left(colon).trimmed().toLower(),
                                       lines.at(i).mid(colon + 1).trimmed());
        }
        const qsizetype length = request.headers.value("content-length").toLongLong();
        if (buffer.size() < end + 4 + length)
            return;
        request.body = buffer.mid(end + 4, length);
        buffer.remove(0, end + 4 + length);
        m_requests.append(request);
        if (m_holding)
            m_held.append(socket);
        else
            answer(socket);
    }
}

void WebhookReceiver::answer(QTcpSocket *socket)
{
    const Answer given = m_queued.isEmpty() ? m_answer : m_queued.takeFirst();
    QByteArray reply = "HTTP/1.1 " + QByteArray::number(given.status) + " Answer\r\n";
    for (const auto &[name, value] : given.headers)
        reply += name + ": " + value + "\r\n";
    reply += "Content-Length: " + QByteArray::number(given.body.size()) + "\r\n\r\n" + given.body;
    socket->write(reply);
}

} // namespace md::test
