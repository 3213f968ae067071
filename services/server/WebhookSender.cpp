#include "services/server/WebhookSender.h"

#include "services/engine/webhooks/WebhookSendQueue.h"
#include "services/engine/webhooks/WebhookSignature.h"
#include "services/engine/webhooks/WebhookUrlRule.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QSysInfo>

namespace md::server {

using namespace Qt::StringLiterals;
using engine::WebhookSendQueue;

WebhookSender::WebhookSender(engine::Engine &engine, Options options)
    : m_engine(engine)
    , m_options(std::move(options))
    , m_owner(u"%1/%2/%3"_s.arg(QSysInfo::machineHostName())
                  .arg(QCoreApplication::applicationPid())
                  .arg(uint(QRandomGenerator::system()->generate()), 8, 16, QChar(u'0')))
{}

engine::WebhookStarter WebhookSender::starter()
{
    return [](engine::Engine &engine) -> std::shared_ptr<void> {
        auto sender = std::make_shared<WebhookSender>(engine, Options{});
        sender->start();
        return sender;
    };
}

WebhookSender::~WebhookSender()
{
    stop();
}

void WebhookSender::start()
{
    if (!m_threads.empty())
        return;
    http::HttpPoster::Options options;
    options.caFile = m_options.caFile;
    if (!m_engine.webhookPolicy().allowPrivate)
        options.addressProblem = engine::WebhookUrlRule::addressProblem;
    for (int i = 0; i < m_options.threads; ++i) {
        // Made here, before clients can take every file descriptor: a
        // poster holds its event queue's descriptors from the start.
        m_posters.push_back(std::make_unique<http::HttpPoster>(options));
        m_threads.emplace_back(
            QThread::create([this, poster = m_posters.back().get()] { run(*poster); }));
        m_threads.back()->setObjectName(u"meterdesk-webhooks-%1"_s.arg(i));
        m_threads.back()->start();
    }
}

void WebhookSender::stop()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    for (const auto &thread : m_threads)
        thread->wait();
    m_threads.clear();
    m_posters.clear();
}

bool WebhookSender::stopping()
{
    const std::lock_guard lock(m_mutex);
    return m_stopping;
}

void WebhookSender::run(http::HttpPoster &poster)
{
    while (!stopping()) {
        if (sendOne(poster))
            continue;
        std::unique_lock lock(m_mutex);
        m_wake.wait_for(lock, m_options.idle, [&] { return m_stopping; });
    }
}

bool WebhookSender::sendOne(http::HttpPoster &poster)
{
    // The bookkeeping runs where the engine wants its writes (on SQLite, on
    // the track writer's connection); only the posting happens here.
    auto claimed = m_engine.withWriterConnection([&](const QSqlDatabase &db) {
        return WebhookSendQueue(db, m_engine.dialect(), m_owner)
            .claim(m_engine.now(), m_options.lease, m_options.batch);
    });
    if (!claimed) {
        qWarning("webhooks: %s; retrying shortly", qPrintable(claimed.error().message));
        return false;
    }
    if (!claimed.value())
        return false;
    const WebhookSendQueue::Batch &batch = *claimed.value();
    QElapsedTimer leased;
    leased.start();
    QList<WebhookSendQueue::Outcome> outcomes;
    const QUrl url(batch.url);
    // The server's rules as they are now (it may have restarted without
    // --webhooks-allow-http since the endpoint was made).
    const auto refused = engine::WebhookUrlRule::urlProblem(batch.url, m_engine.webhookPolicy());
    for (const WebhookSendQueue::Item &item : batch.items) {
        if (leased.elapsed() > m_options.lease.count() / 2 || stopping())
            break;
        if (refused) {
            outcomes.append({false, std::nullopt, {}, u"the URL %1"_s.arg(*refused)});
            break;
        }
        // The timestamp is the attempt's: receivers refuse old ones.
        const qint64 seconds = QDateTime::currentSecsSinceEpoch();
        const http::HttpPoster::Answer answer = poster.post(
            url,
            {{"webhook-id", item.messageId.toLatin1()},
             {"webhook-timestamp", QByteArray::number(seconds)},
             {"webhook-signature",
              engine::WebhookSignature::header(batch.secrets, item.messageId, seconds, item.body)}},
            item.body);
        const bool delivered = answer.status && *answer.status >= 200 && *answer.status < 300;
        QString error = answer.error;
        if (answer.status && *answer.status >= 300 && *answer.status < 400)
            error = u"answered a redirect (%1), which webhooks do not follow; give the endpoint"
                    " the URL it redirects to"_s.arg(*answer.status);
        outcomes.append({delivered, answer.status, answer.body, error});
        (delivered ? m_delivered : m_failed).fetch_add(1, std::memory_order_relaxed);
        if (!delivered)
            break; // later events wait behind this one
    }
    if (auto finished = m_engine.withWriterConnection([&](const QSqlDatabase &db) {
            return WebhookSendQueue(db, m_engine.dialect(), m_owner)
                .finish(batch, outcomes, m_engine.now());
        });
        !finished)
        qWarning("webhooks: %s; the deliveries will be sent again",
                 qPrintable(finished.error().message));
    return true;
}

} // namespace md::server
