#include "services/server/WebhookSender.h"

#include "services/api/StartedThread.h"
#include "services/engine/webhooks/WebhookSignature.h"
#include "services/engine/webhooks/WebhookUrlRule.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QRandomGenerator>
#include <QSysInfo>

#include <algorithm>

namespace md::server {

using namespace Qt::StringLiterals;
using engine::WebhookSendQueue;

namespace {

// Idle connections kept alive, to the endpoints last sent to.
constexpr std::size_t KeptConnections = 16;

} // namespace

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
    if (m_loop)
        return;
    http::HttpPoster::Options options;
    options.caFile = m_options.caFile;
    if (!m_engine.webhookPolicy().allowPrivate)
        options.addressProblem = engine::WebhookUrlRule::addressProblem;
    // Made here, before clients can take every file descriptor: the loop
    // holds its event queue's descriptors from the start.
    m_loop = std::make_unique<http::HttpPoster::Loop>(options);
    m_loop->start();
    m_dispatcher = api::startThread(u"meterdesk-webhooks"_s, [this] { dispatch(); });
}

void WebhookSender::stop()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    if (m_dispatcher) {
        m_dispatcher->wait(); // every session has ended and been recorded
        m_dispatcher.reset();
    }
    if (m_loop) {
        m_loop->post([this] { m_kept.clear(); });
        m_loop->stop();
        m_loop.reset();
    }
}

bool WebhookSender::stopping()
{
    const std::lock_guard lock(m_mutex);
    return m_stopping;
}

void WebhookSender::dispatch()
{
    for (;;) {
        QList<std::shared_ptr<Session>> ended;
        bool stop = false;
        {
            const std::lock_guard lock(m_mutex);
            ended.swap(m_ended);
            stop = m_stopping;
        }
        for (const auto &session : std::as_const(ended))
            record(*session);
        if (stop && m_inFlight == 0)
            return;
        if (!stop)
            claim();
        std::unique_lock lock(m_mutex);
        m_wake.wait_for(lock, m_options.idle,
                        [&] { return !m_ended.isEmpty() || m_stopping != stop; });
    }
}

void WebhookSender::claim()
{
    while (m_inFlight < m_options.inFlight && !stopping()) {
        WebhookSendQueue::Eligible eligible;
        eligible.failing = m_failingInFlight < m_options.failing;
        for (auto it = m_organizationInFlight.cbegin(); it != m_organizationInFlight.cend(); ++it)
            if (it.value() >= m_options.perOrganization)
                eligible.fullOrganizations.append(it.key());
        // The bookkeeping runs where the engine wants its writes (on SQLite,
        // on the track writer's connection); the posting runs on the loop.
        auto claimed = m_engine.withWriterConnection([&](const QSqlDatabase &db) {
            return WebhookSendQueue(db, m_engine.dialect(), m_owner)
                .claim(m_engine.now(), m_options.lease, m_options.batch, eligible);
        });
        if (!claimed) {
            qWarning("webhooks: %s; retrying shortly", qPrintable(claimed.error().message));
            return;
        }
        if (!claimed.value())
            return;
        auto session = std::make_shared<Session>();
        session->batch = std::move(*claimed.value());
        session->leased.start();
        // The server's rules as they are now (it may have restarted without
        // --webhooks-allow-http since the endpoint was made).
        session->refused =
            engine::WebhookUrlRule::urlProblem(session->batch.url, m_engine.webhookPolicy());
        ++m_inFlight;
        m_failingInFlight += session->batch.failing ? 1 : 0;
        ++m_organizationInFlight[session->batch.orgPk];
        m_loop->post([this, session] { begin(session); });
    }
}

void WebhookSender::record(const Session &session)
{
    if (auto finished = m_engine.withWriterConnection([&](const QSqlDatabase &db) {
            return WebhookSendQueue(db, m_engine.dialect(), m_owner)
                .finish(session.batch, session.outcomes, m_engine.now());
        });
        !finished)
        qWarning("webhooks: %s; the deliveries will be sent again",
                 qPrintable(finished.error().message));
    --m_inFlight;
    m_failingInFlight -= session.batch.failing ? 1 : 0;
    if (--m_organizationInFlight[session.batch.orgPk] <= 0)
        m_organizationInFlight.remove(session.batch.orgPk);
}

void WebhookSender::begin(const std::shared_ptr<Session> &session)
{
    const auto kept = std::find_if(m_kept.begin(), m_kept.end(), [&](const auto &entry) {
        return entry.first == session->batch.endpointPk;
    });
    if (kept != m_kept.end()) {
        session->poster = std::move(kept->second);
        m_kept.erase(kept);
    } else {
        session->poster = std::make_unique<http::HttpPoster>(*m_loop);
    }
    sendNext(session);
}

void WebhookSender::sendNext(const std::shared_ptr<Session> &session)
{
    const qsizetype next = session->outcomes.size();
    if (next == session->batch.items.size() ||
        session->leased.elapsed() > m_options.lease.count() / 2 || stopping())
        return end(session);
    if (session->refused) {
        session->outcomes.append({false, std::nullopt, {}, u"the URL %1"_s.arg(*session->refused)});
        return end(session);
    }
    const WebhookSendQueue::Item &item = session->batch.items.at(next);
    // The timestamp is the attempt's: receivers refuse old ones.
    const qint64 seconds = QDateTime::currentSecsSinceEpoch();
    session->poster->post(
        QUrl(session->batch.url),
        {{"webhook-id", item.messageId.toLatin1()},
         {"webhook-timestamp", QByteArray::number(seconds)},
         {"webhook-signature", engine::WebhookSignature::header(
                                   session->batch.secrets, item.messageId, seconds, item.body)}},
        item.body, [this, session](const http::HttpPoster::Answer &answer) {
            const bool delivered = answer.status && *answer.status >= 200 && *answer.status < 300;
            QString error = answer.error;
            if (answer.status && *answer.status >= 300 && *answer.status < 400)
                error = u"answered a redirect (%1), which webhooks do not follow; give the"
                        " endpoint the URL it redirects to"_s.arg(*answer.status);
            session->outcomes.append({delivered, answer.status, answer.body, error});
            (delivered ? m_delivered : m_failed).fetch_add(1, std::memory_order_relaxed);
            if (!delivered)
                return end(session); // later events wait behind this one
            sendNext(session);
        });
}

void WebhookSender::end(const std::shared_ptr<Session> &session)
{
    // Its connection is kept for the endpoint's next lease, and so are a
    // few others: the oldest goes first.
    if (session->poster->connected()) {
        m_kept.emplace_back(session->batch.endpointPk, std::move(session->poster));
        if (m_kept.size() > KeptConnections)
            m_kept.pop_front();
    }
    session->poster.reset();
    {
        const std::lock_guard lock(m_mutex);
        m_ended.append(session);
    }
    m_wake.notify_all();
}

} // namespace md::server
