// Sends the webhook outbox (docs/api.md, "Webhooks"; docs/operations.md,
// "Webhooks"). A dispatching thread leases endpoints from the database
// (engine's WebhookSendQueue), one lease per endpoint, so its deliveries
// leave in order, and records what each receiver answered; the posting is
// asynchronous, on one event loop (http::HttpPoster::Loop), signed per
// attempt with the endpoint's secrets (Standard Webhooks). A receiver that
// never answers holds its own connection and no thread, and the room is
// shared out: at most `perOrganization` endpoints of one organization in
// flight, at most `failing` endpoints whose last attempt failed, `inFlight`
// in all. So a slow or failing receiver delays no other endpoint's
// deliveries, and no organization delays another's.
#pragma once

#include "services/engine/Engine.h"
#include "services/engine/WebhookStarter.h"
#include "services/engine/webhooks/WebhookSendQueue.h"
#include "services/http/HttpPoster.h"

#include <QElapsedTimer>
#include <QHash>
#include <QString>
#include <QThread>

#include <atomic>
#include <condition_variable>
#include <list>
#include <memory>
#include <mutex>

namespace md::server {

class WebhookSender final
{
public:
    struct Options
    {
        // Endpoints this server sends to at once, one connection each.
        int inFlight = 64;
        // Of them, at most this many of one organization…
        int perOrganization = 4;
        // …and this many whose last attempt failed: receivers that hang or
        // fail leave the others their room.
        int failing = 16;
        qsizetype batch = 100;
        // How long an endpoint is this server's once leased: a server that
        // dies holding it holds it this long at most. A batch stops sending
        // at half of it, so a live sender never outlives its lease.
        std::chrono::milliseconds lease{60'000};
        // The longest the dispatcher waits with nothing due (deliveries made
        // on another server or by the console are found by looking).
        std::chrono::milliseconds idle{250};
        QString caFile; // --webhooks-ca-file
    };

    WebhookSender(engine::Engine &engine, Options options);
    // For EngineBackend: a sender with the default options, started.
    static engine::WebhookStarter starter();
    ~WebhookSender();
    Q_DISABLE_COPY_MOVE(WebhookSender)

    void start();
    // Stops after the attempts in flight; their outcomes are recorded.
    void stop();

    // Attempts so far, answered 2xx or not (/metrics).
    struct Attempts
    {
        quint64 delivered = 0;
        quint64 failed = 0;
    };
    Attempts attempts() const
    {
        return {m_delivered.load(std::memory_order_relaxed),
                m_failed.load(std::memory_order_relaxed)};
    }

private:
    // One leased endpoint's batch: made by the dispatcher, sent on the loop,
    // recorded by the dispatcher.
    struct Session
    {
        engine::WebhookSendQueue::Batch batch;
        std::optional<QString> refused; // by the server's rules as they are now
        QElapsedTimer leased;
        std::unique_ptr<http::HttpPoster> poster;
        QList<engine::WebhookSendQueue::Outcome> outcomes;
    };

    // The dispatcher: claims while there is room, records ended sessions.
    void dispatch();
    void claim();
    void record(const Session &session);
    // On the loop: a session's next delivery, or its end.
    void begin(const std::shared_ptr<Session> &session);
    void sendNext(const std::shared_ptr<Session> &session);
    void end(const std::shared_ptr<Session> &session);
    bool stopping();

    engine::Engine &m_engine;
    Options m_options;
    QString m_owner; // this server, in the leases it takes
    std::unique_ptr<http::HttpPoster::Loop> m_loop;
    std::unique_ptr<QThread> m_dispatcher;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stopping = false;
    QList<std::shared_ptr<Session>> m_ended; // by the loop, for the dispatcher
    // The dispatcher's count of what is in flight.
    int m_inFlight = 0;
    int m_failingInFlight = 0;
    QHash<qint64, int> m_organizationInFlight;
    // The loop's: connections kept for the endpoints last sent to, oldest first.
    std::list<std::pair<qint64, std::unique_ptr<http::HttpPoster>>> m_kept;
    std::atomic<quint64> m_delivered{0};
    std::atomic<quint64> m_failed{0};
};

} // namespace md::server
