// A PostgreSQL restart must not leave meterdesk-server answering 500 for
// ever: every session the server holds is ended from the database side (as a
// restart does), and the server must reopen its connections by itself. At
// most one request per thread holding a connection (each worker, and the
// engine's writer that applies synchronous track_tokens batches) may see the
// loss, as a 503 saying to try again; every request after that succeeds.
#include "services/engine/sql/Database.h"
#include "services/engine/sql/Sql.h"
#include "tests/support/HttpClient.h"
#include "tests/support/ServerProcess.h"
#include "tests/support/TestDatabase.h"
#include "tests/trust/LedgerAudit.h"
#include "tests/trust/TrustWorkspace.h"

#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;

namespace {
constexpr int Workers = 2;
}

class TestReconnect final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;

private Q_SLOTS:
    void initTestCase()
    {
        if (!test::TestDatabase::usesPostgres())
            QSKIP("about PostgreSQL sessions");
        QVERIFY2(m_database.error().isEmpty(), qPrintable(m_database.error()));
        const QString problem = test::loadTrustWorkspace(m_database.location(), 2);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void serverSurvivesLostSessions()
    {
        test::ServerProcess server;
        const QString problem =
            server.start(m_database.location(),
                         {u"--workers"_s, QString::number(Workers), u"--catalogue"_s,
                          QStringLiteral(MD_TEST_CONFORMANCE_DIR "/pricing-catalogue.json")});
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        test::HttpClient client(server.url(), test::TrustKey.toLatin1());
        const auto call = [&](int i) {
            return i % 2 ? client.post("/v1/meterdesk/customers.list", "{}")
                         : client.post("/v1/balances.track_tokens",
                                       test::trackBody(u"c0"_s, 1, false));
        };
        for (int i = 0; i < 8; ++i)
            QCOMPARE(call(i).status, 200);

        {
            engine::Database admin(m_database.location());
            auto ended = engine::queryRows(
                admin.connection().value(),
                u"SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"_s,
                {});
            QVERIFY2(ended.ok(), ended.ok() ? "" : qPrintable(ended.error().message));
            QVERIFY(!ended.value().isEmpty());
        }

        int lost = 0;
        for (int i = 0; i < 40; ++i) {
            const auto response = call(i);
            if (response.status == 503 && i < 20) {
                QVERIFY2(response.body.contains("database_unavailable"), response.body.constData());
                ++lost;
                continue;
            }
            QVERIFY2(response.status == 200,
                     qPrintable(u"call %1: %2 %3"_s.arg(i)
                                    .arg(response.status)
                                    .arg(QString::fromUtf8(response.body))));
        }
        qInfo("%d requests saw the lost session", lost);
        QVERIFY(lost <= Workers + 1); // the workers' sessions and the writer's
        QCOMPARE(server.stop(), 0);
    }
};

QTEST_GUILESS_MAIN(TestReconnect)
#include "tst_reconnect.moc"
