// An HTTP/1.1 client for one thing: POSTing webhook deliveries (docs/api.md,
// "Webhooks: safe to point anywhere"). Boost.Beast over OpenSSL, as the
// server is. It keeps one connection alive to the origin it last posted to,
// verifies certificates against the system store (and an extra CA file, for
// tests), refuses addresses its caller refuses (checked on the resolved
// address of every new connection), follows no redirect, gives each post
// one deadline for connecting and answering, and keeps only the answer's
// first bytes. Not thread-safe: one per sending thread.
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QUrl>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

namespace md::http {

class HttpPoster final
{
public:
    struct Options
    {
        std::chrono::milliseconds deadline{10'000};
        qsizetype keptAnswerBytes = 1024;
        // Why a resolved address (text) may not be connected to; nullopt: it may.
        std::function<std::optional<QString>(const QString &address)> addressProblem;
        QString caFile; // PEM certificates trusted beside the system's
    };
    struct Answer
    {
        std::optional<int> status; // when the receiver answered
        QByteArray body;           // its first keptAnswerBytes
        QString error;             // no answer: why, in words
    };
    using Headers = QList<std::pair<QByteArray, QByteArray>>;

    explicit HttpPoster(Options options);
    ~HttpPoster();
    Q_DISABLE_COPY_MOVE(HttpPoster)

    Answer post(const QUrl &url, const Headers &headers, const QByteArray &body);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace md::http
