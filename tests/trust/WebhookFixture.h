// What the in-process webhook tests share (tst_webhooks, tst_webhooklimits):
// an engine on a clock the test moves, holding the small workspace, with
// private addresses and plain http allowed; a receiver on a loopback port;
// the server's senders (server::WebhookSender); and the routes run for a
// scope. A test class derives from it and calls setUp() and tearDown() from
// its init() and cleanup().
#pragma once

#include "services/engine/ApiOperations.h"
#include "services/engine/Engine.h"
#include "services/server/WebhookSender.h"
#include "tests/engine/EngineFixture.h"
#include "tests/engine/ScopeRoutes.h"
#include "tests/support/TestDatabase.h"
#include "tests/support/WebhookReceiver.h"

#include <algorithm>
#include <atomic>
#include <memory>

namespace md::test {

class WebhookFixture
{
protected:
    std::unique_ptr<TestDatabase> m_database;
    std::shared_ptr<std::atomic<qint64>> m_now = std::make_shared<std::atomic<qint64>>(0);
    std::unique_ptr<engine::Engine> m_engine;
    std::unique_ptr<server::WebhookSender> m_sender;
    engine::Scope m_scope; // the small workspace's organization, sandbox
    std::unique_ptr<WebhookReceiver> m_receiver;

    engine::ApiOperations api() { return engine::ApiOperations(*m_engine); }
    engine::KeyContext key() { return everyScope(m_scope); }

    // Empty when all is set up, else what failed.
    QString setUp()
    {
        m_database = std::make_unique<TestDatabase>();
        if (!m_database->error().isEmpty())
            return m_database->error();
        m_now->store(1'790'000'000'000);
        m_engine = std::make_unique<engine::Engine>(m_database->location(),
                                                    [now = m_now] { return now->load(); });
        if (!m_engine->open().ok() || !m_engine->loadWorkspace(smallWorkspace()).ok())
            return QStringLiteral("the engine did not open with the small workspace");
        auto orgs = m_engine->organizations();
        if (!orgs || orgs.value().isEmpty())
            return QStringLiteral("no organization");
        m_scope = {orgs.value().first().pk, engine::Environment::Sandbox, 0};
        m_engine->setWebhookPolicy({true, true});
        m_receiver = std::make_unique<WebhookReceiver>();
        if (!m_receiver->up())
            return QStringLiteral("the receiver cannot listen");
        startSender();
        return {};
    }

    void tearDown()
    {
        m_sender.reset();
        m_receiver.reset();
        m_engine.reset();
        m_database.reset();
    }

    void startSender(server::WebhookSender::Options options = {})
    {
        options.idle = std::chrono::milliseconds(10);
        m_sender = std::make_unique<server::WebhookSender>(*m_engine, options);
        m_sender->start();
    }

    // Another organization, loaded beside the small workspace's: its sandbox.
    engine::Scope otherOrganization(const QString &slug)
    {
        const auto loaded = m_engine->loadWorkspace(jsonValue(
            QStringLiteral(R"({"format":"meterdesk-workspace","version":1,"organizations":[)"
                           R"({"id":"org_%1","slug":"%1","name":"%1","created_at":0}]})")
                .arg(slug)
                .toUtf8()));
        if (!loaded)
            qFatal("loading %s failed: %s", qPrintable(slug), qPrintable(loaded.error().message));
        const auto organizations = m_engine->organizations();
        for (const engine::OrganizationRow &org : organizations.value())
            if (org.slug == slug)
                return {org.pk, engine::Environment::Sandbox, 0};
        qFatal("no organization %s", qPrintable(slug));
    }

    api::WebhookEndpoint endpoint(const QByteArray &url,
                                  const QStringList &events = {QStringLiteral("*")})
    {
        return endpointOf(m_scope, url, events);
    }

    api::WebhookEndpoint endpointOf(const engine::Scope &scope, const QByteArray &url,
                                    const QStringList &events = {QStringLiteral("*")})
    {
        auto made =
            api().createWebhookEndpoint(everyScope(scope), {QString::fromLatin1(url), events, {}});
        if (!made)
            qFatal("create failed: %s", qPrintable(made.error().message));
        return made.value();
    }

    QList<api::WebhookDelivery> deliveriesOf(const api::WebhookEndpoint &endpoint)
    {
        return deliveriesOf(m_scope, endpoint);
    }

    // Oldest first.
    QList<api::WebhookDelivery> deliveriesOf(const engine::Scope &scope,
                                             const api::WebhookEndpoint &endpoint)
    {
        api::WebhookDeliveriesRequest request;
        request.endpointId = endpoint.id;
        request.limit = 200;
        auto page = api().listWebhookDeliveries(everyScope(scope), request);
        if (!page)
            qFatal("list failed: %s", qPrintable(page.error().message));
        QList<api::WebhookDelivery> oldestFirst = page.value().list;
        std::reverse(oldestFirst.begin(), oldestFirst.end());
        return oldestFirst;
    }

    // The event ids of `count` test events sent to `endpoint`, in order.
    QList<QByteArray> sendTests(const api::WebhookEndpoint &endpoint, int count)
    {
        return sendTestsOf(m_scope, endpoint, count);
    }

    QList<QByteArray> sendTestsOf(const engine::Scope &scope, const api::WebhookEndpoint &endpoint,
                                  int count)
    {
        QList<QByteArray> ids;
        for (int i = 0; i < count; ++i) {
            auto sent = api().sendTestWebhook(everyScope(scope), {endpoint.id});
            if (!sent)
                qFatal("send_test failed: %s", qPrintable(sent.error().message));
            ids.append(sent.value().eventId.toLatin1());
        }
        return ids;
    }
};

} // namespace md::test
