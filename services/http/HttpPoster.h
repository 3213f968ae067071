// An HTTP/1.1 client for one thing: POSTing webhook deliveries (docs/api.md,
// "Webhooks"). Boost.Beast over OpenSSL, as the server is. Posts are
// asynchronous, on one event loop (HttpPoster::Loop) that any number of
// posters share, so a receiver that never answers holds its own connection
// and no thread (docs/operations.md, "Webhooks"). A poster keeps one
// connection alive to the origin it last posted to, verifies certificates
// against the system store (and an extra CA file, for tests), refuses
// addresses its caller refuses (checked on the resolved address of every new
// connection), follows no redirect, gives each post one deadline for
// connecting and answering, and keeps an answer's first bytes whatever its
// length.
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

    // The thread the posters of one sender run on, and what they share (the
    // options, TLS settings). A host name is resolved on a thread of its own,
    // so a slow name server holds only the post that asked it.
    class Loop final
    {
    public:
        explicit Loop(Options options);
        ~Loop();
        Q_DISABLE_COPY_MOVE(Loop)

        void start();
        // Returns once the work handed to it has run (posts under way end
        // first, by their deadline at the latest).
        void stop();
        // Runs `work` on the loop's thread.
        void post(std::function<void()> work);

    private:
        friend class HttpPoster;
        struct Impl;
        std::unique_ptr<Impl> d;
    };

    // Used on the loop's thread only, and destroyed there or once it has stopped.
    explicit HttpPoster(Loop &loop);
    ~HttpPoster();
    Q_DISABLE_COPY_MOVE(HttpPoster)

    // One post at a time; `done` is called on the loop's thread, later,
    // once the post is answered, fails or reaches its deadline.
    void post(const QUrl &url, const Headers &headers, const QByteArray &body,
              std::function<void(Answer)> done);
    // A connection is kept for the next post to the same origin.
    bool connected() const;

private:
    struct Impl;
    std::shared_ptr<Impl> m_impl;
};

} // namespace md::http
