// A small blocking keep-alive HTTP/1.1 client for tests and benchmarks that
// drive meterdesk-server from many threads: one socket per client, no event
// loop, so thousands of calls cost the client little CPU. A dropped connection
// (the server was killed, say) is status 0; the next call reconnects.
#pragma once

#include <QByteArray>
#include <QList>
#include <QTcpSocket>
#include <QUrl>

#include <utility>

namespace md::test {

class HttpClient final
{
public:
    struct Response
    {
        int status = 0; // 0: no answer (connection refused or dropped)
        QByteArray body;
        QByteArray error; // why there was no answer
        QByteArray head;  // the status line and header fields, lower case
    };
    using Headers = QList<std::pair<QByteArray, QByteArray>>;

    HttpClient(const QUrl &base, const QByteArray &secret, int timeoutMs = 30000);
    Q_DISABLE_COPY_MOVE(HttpClient)

    // POST of a JSON body with the key as a bearer token and x-api-version 2.4.0.
    Response post(const QByteArray &path, const QByteArray &body, const Headers &extra = {});
    Response send(const QByteArray &method, const QByteArray &path, const QByteArray &body,
                  const Headers &extra = {});

private:
    bool ensureConnected(QByteArray &error);
    bool readMore(QByteArray &error);

    QUrl m_base;
    QByteArray m_secret;
    int m_timeoutMs;
    QTcpSocket m_socket;
    QByteArray m_buffer;
};

} // namespace md::test
