// Sends the webhook outbox (docs/api.md, "Webhooks"): a few threads, each
// leasing one endpoint at a time from the database (engine's
// WebhookSendQueue), posting its due deliveries in order over one kept
// connection (http::HttpPoster), signed per attempt with the endpoint's
// secrets (Standard Webhooks), and recording what each receiver answered.
// The number of threads bounds the deliveries in flight at once.
#pragma once

#include "services/engine/Engine.h"
#include "services/engine/WebhookStarter.h"
#include "services/http/HttpPoster.h"

#include <QString>
#include <QThread>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>

namespace md::server {

class WebhookSender final
{
public:
    struct Options
    {
        int threads = 4;
        qsizetype batch = 100;
        // How long an endpoint is this server's once leased: a server that
        // dies holding it holds it this long at most. A batch stops sending
        // at half of it, so a live sender never outlives its lease.
        std::chrono::milliseconds lease{60'000};
        // The longest a thread sleeps with nothing due (deliveries made on
        // another server or by the console are found by looking).
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
    void run(http::HttpPoster &poster);
    // One leased endpoint's due deliveries; false when none was due.
    bool sendOne(http::HttpPoster &poster);
    bool stopping();

    engine::Engine &m_engine;
    Options m_options;
    QString m_owner; // this server, in the leases it takes
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stopping = false;
    std::atomic<quint64> m_delivered{0};
    std::atomic<quint64> m_failed{0};
    std::vector<std::unique_ptr<QThread>> m_threads;
    std::vector<std::unique_ptr<http::HttpPoster>> m_posters; // one per thread
};

} // namespace md::server
