#include "tests/support/HttpClient.h"

namespace md::test {

HttpClient::HttpClient(const QUrl &base, const QByteArray &secret, int timeoutMs)
    : m_base(base)
    , m_secret(secret)
    , m_timeoutMs(timeoutMs)
{}

HttpClient::Response HttpClient::post(const QByteArray &path, const QByteArray &body,
                                      const Headers &extra)
{
    return send("POST", path, body, extra);
}

HttpClient::Response HttpClient::send(const QByteArray &method, const QByteArray &path,
                                      const QByteArray &body, const Headers &extra)
{
    Response response;
    if (!ensureConnected(response.error))
        return response;
    QByteArray request = method + ' ' + path + " HTTP/1.1\r\nHost: " + m_base.host().toLatin1() +
                         "\r\nx-api-version: 2.4.0\r\nContent-Type: application/json\r\n";
    if (!m_secret.isEmpty())
        request += "Authorization: Bearer " + m_secret + "\r\n";
    for (const auto &[name, value] : extra)
        request += name + ": " + value + "\r\n";
    request += "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
    m_socket.write(request);

    while (!m_buffer.contains("\r\n\r\n"))
        if (!readMore(response.error))
            return response;
    const qsizetype headerEnd = m_buffer.indexOf("\r\n\r\n") + 4;
    const QByteArray head = m_buffer.left(headerEnd).toLower();
    qsizetype length = 0;
    if (const qsizetype at = head.indexOf("content-length:"); at >= 0)
        length = head.mid(at + 15, head.indexOf("\r\n", at) - at - 15).trimmed().toLongLong();
    while (m_buffer.size() < headerEnd + length)
        if (!readMore(response.error))
            return response;
    response.status = head.mid(9, 3).toInt();
    response.head = head;
    response.body = m_buffer.mid(headerEnd, length);
    m_buffer.remove(0, headerEnd + length);
    if (head.contains("connection: close"))
        m_socket.abort();
    return response;
}

bool HttpClient::ensureConnected(QByteArray &error)
{
    if (m_socket.state() == QAbstractSocket::ConnectedState)
        return true;
    m_socket.abort();
    m_buffer.clear();
    m_socket.connectToHost(m_base.host(), quint16(m_base.port()));
    if (!m_socket.waitForConnected(m_timeoutMs)) {
        error = m_socket.errorString().toUtf8();
        m_socket.abort();
        return false;
    }
    m_socket.setSocketOption(QAbstractSocket::LowDelayOption, 1);
    return true;
}

bool HttpClient::readMore(QByteArray &error)
{
    if (!m_socket.waitForReadyRead(m_timeoutMs)) {
        error = m_socket.errorString().toUtf8();
        m_socket.abort();
        m_buffer.clear();
        return false;
    }
    m_buffer += m_socket.readAll();
    return true;
}

} // namespace md::test
