// Webhooks across meterdesk-server processes (issue 38): an event committed
// and then its server killed with SIGKILL before it was delivered is
// delivered once the next server starts, with the same webhook-id; two
// servers on one database deliver each event once, in order, when nothing
// crashes (on PostgreSQL, as `make test` runs it, and on a shared SQLite file).
#include "services/engine/Engine.h"
#include "tests/engine/EngineFixture.h"
#include "tests/support/HttpClient.h"
#include "tests/support/ServerProcess.h"
#include "tests/support/TestDatabase.h"
#include "tests/support/WebhookReceiver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;

namespace {

const QByteArray AdminKey = "sk_test_admin00000000000000000000000000"; // admin-workspace.json
const QStringList Arguments{u"--webhooks-allow-http"_s, u"--webhooks-allow-private"_s};

QJsonObject post(const QUrl &server, const QByteArray &path, const QJsonObject &body)
{
    test::HttpClient client(server, AdminKey, 10000);
    const auto answer = client.post(path, QJsonDocument(body).toJson(QJsonDocument::Compact));
    if (answer.status != 200)
        qFatal("%s answered %d: %s", path.constData(), answer.status, answer.body.constData());
    return QJsonDocument::fromJson(answer.body).object();
}

} // namespace

class TestWebhookRestart final : public QObject
{
    Q_OBJECT

    std::unique_ptr<test::TestDatabase> m_database;
    std::unique_ptr<test::WebhookReceiver> m_receiver;

    QString endpoint(const QUrl &server)
    {
        return post(server, "/v1/meterdesk/webhook_endpoints.create",
                    {{u"url"_s, QString::fromLatin1(m_receiver->url())},
                     {u"events"_s, QJsonArray{u"*"_s}}})
            .value(u"id"_s)
            .toString();
    }

    QByteArray sendTest(const QUrl &server, const QString &endpointId)
    {
        return post(server, "/v1/meterdesk/webhook_endpoints.send_test", {{u"id"_s, endpointId}})
            .value(u"event_id"_s)
            .toString()
            .toLatin1();
    }

    QJsonArray deliveries(const QUrl &server)
    {
        return post(server, "/v1/meterdesk/webhook_deliveries.list", {{u"limit"_s, 200}})
            .value(u"list"_s)
            .toArray();
    }

private Q_SLOTS:
    void init()
    {
        m_database = std::make_unique<test::TestDatabase>();
        QVERIFY2(m_database->error().isEmpty(), qPrintable(m_database->error()));
        engine::Engine setup(m_database->location());
        QVERIFY(setup.open().ok());
        QVERIFY(
            setup.loadWorkspaceFile(QStringLiteral(MD_TEST_CONFORMANCE_DIR "/admin-workspace.json"))
                .ok());
        m_receiver = std::make_unique<test::WebhookReceiver>();
        QVERIFY(m_receiver->up());
    }

    void cleanup()
    {
        m_receiver.reset();
        m_database.reset();
    }

    void killedAfterTheCommitDeliversAfterRestart()
    {
        m_receiver->down(); // the port is kept
        auto first = std::make_unique<test::ServerProcess>();
        QVERIFY(first->start(m_database->location(), Arguments).isEmpty());
        const QString id = endpoint(first->url());
        const QList<QByteArray> sent{sendTest(first->url(), id), sendTest(first->url(), id),
                                     sendTest(first->url(), id)};
        // The first delivery was tried (and refused) once: its server is busy with it.
        QTRY_VERIFY_WITH_TIMEOUT(
            deliveries(first->url()).last().toObject().value(u"attempts"_s).toInt() == 1, 10000);
        first->process().kill();
        QVERIFY(first->process().waitForFinished(10000));
        first.reset();
        test::ServerProcess second;
        QVERIFY(second.start(m_database->location(), Arguments).isEmpty());
        QVERIFY(m_receiver->up());
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->ids(), sent, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(deliveries(second.url()).first().toObject().value(u"status"_s) ==
                                     u"succeeded"_s,
                                 10000);
        QCOMPARE(m_receiver->ids(), sent); // each once
        for (const QJsonValue &delivery : deliveries(second.url()))
            QVERIFY(sent.contains(delivery.toObject().value(u"event_id"_s).toString().toLatin1()));
        QCOMPARE(second.stop(), 0);
    }

    void twoServersDeliverEachEventOnce()
    {
        test::ServerProcess a;
        test::ServerProcess b;
        QVERIFY(a.start(m_database->location(), Arguments).isEmpty());
        QVERIFY(b.start(m_database->location(), Arguments).isEmpty());
        const QString id = endpoint(a.url());
        constexpr int Events = 120;
        QList<QByteArray> sent;
        for (int i = 0; i < Events; ++i)
            sent.append(sendTest(i % 2 ? b.url() : a.url(), id));
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests().size(), Events, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (const QJsonValue &delivery : deliveries(a.url()))
                    if (delivery.toObject().value(u"status"_s) != u"succeeded"_s)
                        return false;
                return true;
            }(),
            10000);
        QCOMPARE(m_receiver->ids(), sent); // once each, in order
        QCOMPARE(a.stop(), 0);
        QCOMPARE(b.stop(), 0);
    }
};

QTEST_GUILESS_MAIN(TestWebhookRestart)
#include "tst_webhookrestart.moc"
