// Crash safety (issue 8): meterdesk-server is killed with SIGKILL at random
// moments while clients import customers and track tokens, synchronously and
// through the async queue. After every kill, before the restart, the database
// must pass its integrity check, every import be whole or absent, every
// balance agree with its usage events, and every acknowledged call be
// recorded exactly once (applied, or still queued: never both, never lost).
// The next start applies what was queued; the last one drains the queue.
#include "services/engine/Engine.h"
#include "services/engine/sql/Database.h"
#include "tests/support/HttpClient.h"
#include "tests/support/ServerProcess.h"
#include "tests/support/TestDatabase.h"
#include "tests/trust/LedgerAudit.h"
#include "tests/trust/TrustWorkspace.h"

#include <QRandomGenerator>
#include <QTest>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

using namespace md;
using namespace Qt::StringLiterals;

namespace {

constexpr int Customers = 4;
const QStringList ServerArguments{
    u"--catalogue"_s, QStringLiteral(MD_TEST_CONFORMANCE_DIR "/pricing-catalogue.json")};

int killCount()
{
    const int fromEnvironment = qEnvironmentVariableIntValue("MD_CRASH_KILLS");
    return fromEnvironment > 0 ? fromEnvironment : 50;
}

QStringList trackedCustomers()
{
    QStringList ids;
    for (int c = 0; c < Customers; ++c)
        ids << u"c%1"_s.arg(c);
    return ids;
}

} // namespace

class TestCrashSafety final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;
    // What the server acknowledged, over every run.
    std::mutex m_mutex;
    QSet<QString> m_syncAcked;
    QSet<QString> m_asyncAcked;
    QSet<QString> m_importsAcked;
    QStringList m_importsSent;
    std::atomic<int> m_unexpected = 0; // an answer that was neither success nor a dropped line
    QString m_lastUnexpected;

    // Runs one client loop until the server stops answering.
    void trackLoop(const QUrl &url, int run, bool async)
    {
        test::HttpClient client(url, test::TrustKey.toLatin1(), 10000);
        for (int i = 0;; ++i) {
            const QString key = u"%1-%2-%3"_s.arg(async ? u"a"_s : u"s"_s).arg(run).arg(i);
            const auto response =
                client.post("/v1/balances.track_tokens",
                            test::trackBody(u"c%1"_s.arg(i % Customers), 1 + i % 5, async),
                            {{"Idempotency-Key", key.toUtf8()}});
            if (response.status == 0)
                return;
            const std::lock_guard lock(m_mutex);
            if (response.status == (async ? 204 : 200)) {
                (async ? m_asyncAcked : m_syncAcked).insert(key);
            } else {
                ++m_unexpected;
                m_lastUnexpected =
                    u"%1 %2"_s.arg(response.status).arg(QString::fromUtf8(response.body));
            }
        }
    }

    void importLoop(const QUrl &url, int run)
    {
        test::HttpClient client(url, test::TrustKey.toLatin1(), 10000);
        for (int i = 0;; ++i) {
            const QString customer = u"imp-%1-%2"_s.arg(run).arg(i);
            {
                const std::lock_guard lock(m_mutex);
                m_importsSent << customer;
            }
            const auto response = client.post("/v1/billing.import", test::importBody(customer));
            if (response.status == 0)
                return;
            const std::lock_guard lock(m_mutex);
            if (response.status == 200) {
                m_importsAcked.insert(customer);
            } else {
                ++m_unexpected;
                m_lastUnexpected =
                    u"%1 %2"_s.arg(response.status).arg(QString::fromUtf8(response.body));
            }
        }
    }

    // Everything the ledger promises, read straight from the tables; the
    // imports checked are those sent from `firstImport` on.
    QStringList audit(bool queueDrained, qsizetype firstImport)
    {
        engine::Database database(m_database.location());
        auto db = database.connection();
        if (!db)
            return {db.error().message};
        const test::LedgerAudit audit(db.value());
        QStringList problems = audit.integrity();
        problems += audit.balancesMatchEvents(trackedCustomers());
        problems += audit.trialBalance();
        for (const QString &customer : m_importsSent.mid(firstImport))
            problems += audit.importWhole(customer, m_importsAcked.contains(customer));
        const test::LedgerAudit::TrackKeys keys = audit.trackKeys();
        if (keys.failed != 0)
            problems << u"%1 queued calls failed"_s.arg(keys.failed);
        if (const QSet<QString> both = QSet(keys.applied).intersect(keys.queued); !both.isEmpty())
            problems << u"applied and still queued: "_s + both.values().join(u' ');
        for (const QString &key : std::as_const(m_syncAcked))
            if (!keys.applied.contains(key))
                problems << u"acknowledged call %1 was not recorded"_s.arg(key);
        for (const QString &key : std::as_const(m_asyncAcked))
            if (!keys.applied.contains(key) && (queueDrained || !keys.queued.contains(key)))
                problems << u"acknowledged async call %1 was lost"_s.arg(key);
        if (queueDrained && !keys.queued.isEmpty())
            problems << u"%1 calls still queued"_s.arg(keys.queued.size());
        return problems;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_database.error().isEmpty(), qPrintable(m_database.error()));
        const QString problem = test::loadTrustWorkspace(m_database.location(), Customers);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void killedServersLoseAndInventNothing()
    {
        const quint32 seed = QRandomGenerator::global()->generate();
        qInfo("seed %u, %d kills", seed, killCount());
        QRandomGenerator random(seed);
        qint64 killedWithQueue = 0;
        for (int run = 0; run < killCount(); ++run) {
            test::ServerProcess server;
            const QString problem = server.start(m_database.location(), ServerArguments);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            const qsizetype firstImport = m_importsSent.size();
            std::vector<std::thread> clients;
            clients.emplace_back([&, url = server.url()] { trackLoop(url, run, false); });
            clients.emplace_back([&, url = server.url()] { trackLoop(url, run, true); });
            clients.emplace_back([&, url = server.url()] { importLoop(url, run); });
            // The fault itself: a kill at a random moment, mid-transaction or not.
            std::this_thread::sleep_for(std::chrono::microseconds(random.bounded(20'000, 400'000)));
            server.process().kill();
            QVERIFY(server.process().waitForFinished(10000));
            for (std::thread &client : clients)
                client.join();
            QCOMPARE(m_unexpected.load(), 0);
            const QStringList problems = audit(false, firstImport);
            QVERIFY2(problems.isEmpty(),
                     qPrintable(u"after kill %1 (seed %2): "_s.arg(run + 1).arg(seed) +
                                problems.mid(0, 10).join(u"; "_s)));
            killedWithQueue += test::LedgerAudit::queuedCalls(m_database.location()) > 0;
        }
        qInfo("%lld sync and %lld async calls and %lld imports acknowledged; %lld kills left "
              "calls queued",
              qint64(m_syncAcked.size()), qint64(m_asyncAcked.size()),
              qint64(m_importsAcked.size()), killedWithQueue);
        QVERIFY(!m_syncAcked.isEmpty());
        QVERIFY(!m_asyncAcked.isEmpty());
        QVERIFY(!m_importsAcked.isEmpty());

        // A last start applies whatever the kills left queued, exactly once.
        test::ServerProcess server;
        const QString problem = server.start(m_database.location(), ServerArguments);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QTRY_COMPARE_WITH_TIMEOUT(test::LedgerAudit::queuedCalls(m_database.location()),
                                  qsizetype(0), 30000);
        QCOMPARE(server.stop(), 0);
        const QStringList problems = audit(true, 0);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.mid(0, 10).join(u"; "_s)));
    }
};

QTEST_GUILESS_MAIN(TestCrashSafety)
#include "tst_crashsafety.moc"
