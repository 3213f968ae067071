// The billing portal as a browser sees it: headless Chromium (Debian's
// chromium) renders the page behind a link from meterdesk-server and from
// the console's own loopback portal; the page shows the customer's balances
// and a back button; an expired link and a forged one are refused.
#include "services/embedded/EngineBackend.h"
#include "services/engine/Engine.h"
#include "services/engine/access/PortalLinks.h"
#include "services/remote/RemoteBackend.h"
#include "services/server/PortalServer.h"
#include "tests/support/ServerProcess.h"
#include "tests/support/TestDatabase.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;

namespace {

const QString Key = u"sk_test_admin00000000000000000000000000"_s;
const QString ReturnUrl = u"https://app.example.com/account?tab=billing"_s;

template <typename T> api::Result<T> await(QFuture<api::Result<T>> future)
{
    while (!future.isFinished())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    return future.result();
}

} // namespace

class TestPortal final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;
    test::ServerProcess m_server;
    QTemporaryDir m_profile; // Chromium's, thrown away
    QString m_chromium;

    // The DOM Chromium builds for `url`, after the page has loaded.
    QString render(const QString &url)
    {
        QProcess chromium;
        chromium.start(m_chromium,
                       {u"--headless"_s, u"--no-sandbox"_s, u"--disable-gpu"_s, u"--no-first-run"_s,
                        u"--user-data-dir="_s + m_profile.path(), u"--dump-dom"_s, url});
        // The event loop runs meanwhile: the console's portal server lives on this thread.
        QSignalSpy finished(&chromium, &QProcess::finished);
        if (!finished.wait(60000))
            return {};
        return QString::fromUtf8(chromium.readAllStandardOutput());
    }

    // The status code alone.
    static int statusOf(const QString &url)
    {
        QNetworkAccessManager network;
        QNetworkReply *reply = network.get(QNetworkRequest(QUrl(url)));
        QSignalSpy done(reply, &QNetworkReply::finished);
        if (!reply->isFinished() && !done.wait(10000))
            return 0;
        reply->deleteLater();
        return reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    }

    void checkPage(const QString &url)
    {
        const QString dom = render(url);
        QVERIFY2(dom.contains(u"<h1>Dora</h1>"_s), qPrintable(dom.left(2000)));
        // Dora's calls: 60 of 100 left, 40 used.
        QVERIFY(dom.contains(u"<td>calls</td><td class=\"n\">60</td><td class=\"n\">100</td>"
                             "<td class=\"n\">40</td>"_s));
        QVERIFY(dom.contains(u"<td>basic</td><td>active</td>"_s));
        QVERIFY(
            dom.contains(u"id=\"back\" href=\"https://app.example.com/account?tab=billing\""_s));
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_chromium = QStandardPaths::findExecutable(u"chromium"_s);
        QVERIFY2(!m_chromium.isEmpty(), "chromium is missing: scripts/setup.sh installs it");
        QVERIFY2(m_database.error().isEmpty(), qPrintable(m_database.error()));
        engine::Engine setup(m_database.location());
        QVERIFY(setup.open().ok());
        QVERIFY(setup.loadWorkspaceFile(QStringLiteral(MD_ADMIN_WORKSPACE)).ok());
        const QString problem = m_server.start(m_database.location());
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void serverPortalRendersTheCustomer()
    {
        remote::RemoteBackend remote(m_server.url(), Key);
        api::BillingPortalRequest request;
        request.returnUrl = ReturnUrl;
        auto portal = await(remote.billingPortal(u"dora"_s, request));
        QVERIFY2(portal.ok(), portal.ok() ? "" : qPrintable(portal.error().message));
        QCOMPARE(portal.value().customerId, u"dora"_s);
        QVERIFY(portal.value().url.startsWith(m_server.url().toString() + u"/portal/"_s));
        QCOMPARE(statusOf(portal.value().url), 200);
        checkPage(portal.value().url);

        // Forged: one character of the signature changed.
        QString forged = portal.value().url;
        forged[forged.size() - 2] = forged.at(forged.size() - 2) == u'A' ? u'B' : u'A';
        QCOMPARE(statusOf(forged), 403);
        QVERIFY(render(forged).contains(u"not valid"_s));
        QCOMPARE(statusOf(m_server.url().toString() + u"/portal/nothing"_s), 403);
    }

    void anExpiredLinkIsRefused()
    {
        // Signed with the workspace's own secret, but its time is up.
        engine::Engine engine(m_database.location());
        QVERIFY(engine.open().ok());
        auto key = engine.authenticate(Key);
        QVERIFY(key.ok());
        auto token = engine.withConnection([&](const QSqlDatabase &db) {
            return engine::PortalLinks::sign(
                db, engine.dialect(),
                {key.value().scope, u"dora"_s, engine.now() - 1000, ReturnUrl});
        });
        QVERIFY(token.ok());
        const QString url = m_server.url().toString() + u"/portal/"_s + token.value();
        QCOMPARE(statusOf(url), 410);
        const QString dom = render(url);
        QVERIFY(dom.contains(u"expired"_s));
        QVERIFY(!dom.contains(u"calls"_s));
    }

    void portalErrors()
    {
        remote::RemoteBackend remote(m_server.url(), Key);
        QCOMPARE(await(remote.billingPortal(u"nobody"_s, {})).error().code,
                 u"customer_not_found"_s);
        api::BillingPortalRequest request;
        request.returnUrl = u"javascript:alert(1)"_s;
        const auto refused = await(remote.billingPortal(u"dora"_s, request));
        QCOMPARE(refused.error().code, u"invalid_inputs"_s);
        QVERIFY(refused.error().message.startsWith(u"return_url"_s));
        // No return URL: a page without a back button.
        const auto plain = await(remote.billingPortal(u"dora"_s, {}));
        QVERIFY(plain.ok());
        QVERIFY(!render(plain.value().url).contains(u"id=\"back\""_s));
    }

    void embeddedPortalRunsLocally()
    {
        embedded::EngineBackend embedded(m_database.location(), engine::Clock(), Key,
                                         server::PortalServer::starter());
        QVERIFY(await(embedded.prepare(false)).ok());
        api::BillingPortalRequest request;
        request.returnUrl = ReturnUrl;
        auto portal = await(embedded.billingPortal(u"dora"_s, request));
        QVERIFY2(portal.ok(), portal.ok() ? "" : qPrintable(portal.error().message));
        QVERIFY(portal.value().url.startsWith(u"http://127.0.0.1:"_s));
        checkPage(portal.value().url);
        // Links made here are the workspace's: the server accepts them too.
        const QString path = QUrl(portal.value().url).path();
        QCOMPARE(statusOf(m_server.url().toString() + path), 200);
    }
};

QTEST_GUILESS_MAIN(TestPortal)
#include "tst_portal.moc"
