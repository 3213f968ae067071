// One request as the server read it and the answer a handler gives it. The
// handler may answer from any thread, once; an answer for a connection that
// has gone meanwhile is dropped, never written.
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QHostAddress>
#include <QList>

#include <functional>
#include <utility>

namespace md::http {

using HttpHeaders = QList<std::pair<QByteArray, QByteArray>>;

struct HttpRequest
{
    QByteArray method;
    QByteArray path;     // as sent, percent-encoded, without the query
    QByteArray query;    // after '?', empty when none
    HttpHeaders headers; // names in lower case, in the order sent
    QByteArray body;
    QHostAddress peer;

    // The first value of a field, or an empty array.
    QByteArray header(QByteArrayView name) const;
    qsizetype headerCount(QByteArrayView name) const;
};

struct HttpResponse
{
    int status = 200;
    QByteArray contentType; // none for 204
    QByteArray body;
    HttpHeaders headers;
    // Close the connection after this answer even if the client keeps it alive.
    bool close = false;
};

class HttpResponder final
{
public:
    using Send = std::function<void(HttpResponse)>;
    explicit HttpResponder(Send send)
        : m_send(std::move(send))
    {}

    // Thread-safe; the first call counts.
    void send(HttpResponse response) const { m_send(std::move(response)); }

private:
    Send m_send;
};

inline QByteArray HttpRequest::header(QByteArrayView name) const
{
    for (const auto &[key, value] : headers)
        if (key == name)
            return value;
    return {};
}

inline qsizetype HttpRequest::headerCount(QByteArrayView name) const
{
    qsizetype count = 0;
    for (const auto &entry : headers)
        count += entry.first == name ? 1 : 0;
    return count;
}

} // namespace md::http
