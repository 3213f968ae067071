// The access log (docs/operations.md, "Request log"): one JSON line per
// request, on standard error or appended to a file. A line holds what an
// operator needs to follow a request (its id, who, what, how it ended, how
// long it took) and never a key, a body or a secret. Lines are gathered in
// memory and written by a thread of their own every 100 ms, so a request
// costs no write of its own.
#pragma once

#include "services/api/Result.h"

#include <QByteArray>
#include <QString>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace md::server {

class RequestLog final
{
public:
    struct Entry
    {
        qint64 timeMs = 0; // when the request arrived
        QByteArray requestId;
        QString remote;
        QByteArray method;
        QByteArray route; // the route's path as docs/openapi.yaml writes it, or the path
        int status = 0;
        qint64 bytes = 0; // the answer's body
        qint64 micros = 0;
        QString keyId; // key_…, empty before a key was known
    };

    // `where`: "stderr" or a file path (appended to, made if missing).
    static api::Result<std::unique_ptr<RequestLog>> open(const QString &where);
    ~RequestLog(); // writes what is gathered
    Q_DISABLE_COPY_MOVE(RequestLog)

    void write(const Entry &entry);
    static QByteArray line(const Entry &entry);

private:
    explicit RequestLog(int fd, bool ownsFd);
    void flushLoop();
    void writeOut(const QByteArray &bytes);

    int m_fd = -1;
    bool m_ownsFd = false;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    QByteArray m_pending;
    bool m_stopping = false;
    std::thread m_flusher;
};

// The request's X-Request-Id when it is a usable one (1–128 of A–Z a–z 0–9
// . _ : -, and not shaped like a secret), else a new random one, 16 hex digits.
QByteArray requestIdOf(const QByteArray &sent);

} // namespace md::server
