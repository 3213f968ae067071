// Crash safety (issue 8): meterdesk-server is killed with SIGKILL at random
// moments while clients import customers, track tokens, and send usage.batch
// requests of 20 events (issue 40), synchronously and through the async
// queue. Every event has its own Idempotency-Key: an answered event must be
// recorded, and none recorded twice. After every kill, before the restart, the database
// must pass its integrity check, every import be whole or absent, every
// balance agree with its usage events, and every acknowledged call be
// recorded exactly once (applied, or still queued: never both, never lost).
// The next start applies what was queued; the last one drains the queue.
// A second case kills servers while the billing clock applies three weeks
// of daily resets and rollovers (clock.advance, then the sweep): after each
// kill no period is applied twice and each balance's ledger holds one reset
// for every period it moved over, and each customer's statements follow
// each other with no period closed twice or skipped; the last start
// applies every period and closes every one that ended.
#include "services/engine/Engine.h"
#include "services/engine/sql/Database.h"
#include "tests/support/HttpClient.h"
#include "tests/support/ServerProcess.h"
#include "tests/support/TestDatabase.h"
#include "tests/trust/LedgerAudit.h"
#include "tests/trust/TrustWorkspace.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QSqlQuery>
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

constexpr qint64 Day = 86'400'000;
constexpr int ClockCustomers = 2000;
constexpr int ClockRuns = 6;
constexpr int ClockPeriods = 21; // reached by the last run's advance

// The trust workspace with a "daily" plan (10 a day, what is unused carried
// three days) and `customers` on it, each with 4 used; the first reset at
// `firstReset`.
QJsonObject clockedWorkspace(int customers, qint64 firstReset)
{
    const QJsonObject rule{
        {u"max"_s, QJsonValue::Null}, {u"length"_s, 3}, {u"duration"_s, u"day"_s}};
    const QJsonObject daily = test::trustPlan(u"daily"_s, u"Daily"_s,
                                              {{u"feature_id"_s, u"plain"_s},
                                               {u"included_usage"_s, 10},
                                               {u"interval"_s, u"day"_s},
                                               {u"rollover"_s, rule}});
    QJsonArray list;
    for (int c = 0; c < customers; ++c) {
        const QString plan = u"cp%1"_s.arg(c);
        const QJsonObject balance{
            {u"id"_s, u"d%1"_s.arg(c)},
            {u"feature_id"_s, u"plain"_s},
            {u"customer_product_id"_s, plan},
            {u"included_grant"_s, 10},
            {u"prepaid_grant"_s, 0},
            {u"remaining"_s, 6},
            {u"usage"_s, 4},
            {u"reset"_s, QJsonObject{{u"interval"_s, u"day"_s}, {u"resets_at"_s, firstReset}}},
            {u"rollover"_s, rule},
            {u"created_at"_s, 1}};
        list.append(QJsonObject{{u"id"_s, u"k%1"_s.arg(c)},
                                {u"created_at"_s, 1},
                                {u"products"_s, QJsonArray{QJsonObject{{u"id"_s, plan},
                                                                       {u"plan_id"_s, u"daily"_s},
                                                                       {u"status"_s, u"active"_s},
                                                                       {u"started_at"_s, 1},
                                                                       {u"created_at"_s, 1}}}},
                                {u"balances"_s, QJsonArray{balance}}});
    }
    QJsonObject workspace = test::trustWorkspace(0);
    QJsonArray organizations = workspace.value(u"organizations"_s).toArray();
    QJsonObject organization = organizations.first().toObject();
    QJsonObject sandbox = organization.value(u"test"_s).toObject();
    sandbox.insert(u"products"_s, QJsonArray{daily});
    sandbox.insert(u"customers"_s, list);
    organization.insert(u"test"_s, sandbox);
    organizations[0] = organization;
    workspace.insert(u"organizations"_s, organizations);
    return workspace;
}

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

    // usage.batch of 20 balances.track events until the server stops
    // answering; each event answered 200 (or 202) counts as acknowledged.
    void batchLoop(const QUrl &url, int run, bool async)
    {
        test::HttpClient client(url, test::TrustKey.toLatin1(), 10000);
        for (int i = 0;; ++i) {
            QJsonArray events;
            QStringList keys;
            for (int e = 0; e < 20; ++e) {
                keys << u"%1-%2-%3-%4"_s.arg(async ? u"ba"_s : u"bs"_s).arg(run).arg(i).arg(e);
                events.append(QJsonObject{{u"kind"_s, u"feature"_s},
                                          {u"customer_id"_s, u"c%1"_s.arg(e % Customers)},
                                          {u"feature_id"_s, u"credits"_s},
                                          {u"value"_s, 1 + e % 3},
                                          {u"idempotency_key"_s, keys.last()}});
            }
            const QJsonObject batch{{u"events"_s, events}, {u"async"_s, async}};
            const auto response = client.post("/v1/meterdesk/usage.batch",
                                              QJsonDocument(batch).toJson(QJsonDocument::Compact));
            if (response.status == 0)
                return;
            const int expected = async ? 202 : 200;
            const QJsonArray results =
                QJsonDocument::fromJson(response.body).object().value(u"results"_s).toArray();
            const std::lock_guard lock(m_mutex);
            if (response.status != expected || results.size() != keys.size()) {
                ++m_unexpected;
                m_lastUnexpected =
                    u"%1 %2"_s.arg(response.status).arg(QString::fromUtf8(response.body.left(300)));
                continue;
            }
            for (qsizetype e = 0; e < keys.size(); ++e) {
                if (results.at(e).toObject().value(u"status"_s).toInt() == expected) {
                    (async ? m_asyncAcked : m_syncAcked).insert(keys.at(e));
                } else {
                    ++m_unexpected;
                    m_lastUnexpected =
                        QString::fromUtf8(QJsonDocument(results.at(e).toObject()).toJson());
                }
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

    // What a kill may not leave behind: a period applied twice, or a balance
    // moved on without the ledger saying so; with `finished`, every period
    // up to the sandbox's new now applied.
    static QStringList clockAudit(const QString &location, qint64 firstReset, bool finished)
    {
        engine::Database database(location);
        auto db = database.connection();
        if (!db)
            return {db.error().message};
        const test::LedgerAudit audit(db.value());
        QStringList problems = audit.integrity() + audit.trialBalance();
        QSqlQuery doubled(db.value());
        doubled.exec(u"SELECT balance_id, kind, at FROM ledger WHERE kind IN ('reset', 'rollover')"
                     " GROUP BY balance_id, kind, at HAVING count(*) > 1"_s);
        while (doubled.next())
            problems << u"%1: %2 at %3 written twice"_s.arg(doubled.value(0).toString(),
                                                            doubled.value(1).toString(),
                                                            doubled.value(2).toString());
        // Resets and rollovers written per balance, counted in one pass.
        QHash<QString, std::pair<qint64, qint64>> written;
        QSqlQuery counts(db.value());
        counts.exec(u"SELECT balance_id, kind, count(*) FROM ledger WHERE kind IN ('reset',"
                    " 'rollover') GROUP BY balance_id, kind"_s);
        while (counts.next())
            (counts.value(1).toString() == "reset"_L1
                 ? written[counts.value(0).toString()].first
                 : written[counts.value(0).toString()].second) = counts.value(2).toLongLong();
        QSqlQuery periods(db.value());
        periods.exec(u"SELECT id, resets_at FROM balances WHERE id LIKE 'd%'"_s);
        int balances = 0;
        while (periods.next()) {
            ++balances;
            const QString id = periods.value(0).toString();
            const qint64 moved = (periods.value(1).toLongLong() - firstReset) / Day;
            const auto [resets, rollovers] = written.value(id);
            if (resets != moved || rollovers != moved || (finished && moved != ClockPeriods))
                problems << u"%1 moved %2 periods with %3 resets and %4 rollovers written"_s.arg(id)
                                .arg(moved)
                                .arg(resets)
                                .arg(rollovers);
        }
        if (!finished) // how far the kill let the clock get, for the log
            qInfo("after the kill the balances had %s periods applied",
                  [&written] {
                      QMap<qint64, int> byCount;
                      for (const auto &w : written)
                          ++byCount[w.first];
                      QStringList parts;
                      for (auto it = byCount.cbegin(); it != byCount.cend(); ++it)
                          parts << u"%1: %2"_s.arg(it.key()).arg(it.value());
                      return parts.join(u", "_s).toStdString();
                  }()
                      .c_str());
        if (balances != ClockCustomers)
            problems << u"%1 clocked balances, not %2"_s.arg(balances).arg(ClockCustomers);
        problems += statementAudit(db.value(),
                                   finished ? std::optional(finalNow(firstReset)) : std::nullopt);
        return problems.mid(0, 10);
    }

    // The sandbox's now after the last run's advance.
    static qint64 finalNow(qint64 firstReset) { return firstReset + (7 * ClockRuns - 1) * Day / 2; }

    // Statements, once each: no period closed twice or skipped (LedgerAudit);
    // once finished, each of the 2,000 customers closed its daily periods.
    static QStringList statementAudit(const QSqlDatabase &db, std::optional<qint64> now)
    {
        QStringList problems = test::LedgerAudit(db).statements(u"k%"_s, now);
        QSqlQuery closed(db);
        closed.exec(u"SELECT count(*) FROM statements s JOIN customers c ON c.pk = s.customer_pk"
                    " WHERE c.id LIKE 'k%'"_s);
        if (now && closed.next() &&
            closed.value(0).toLongLong() < ClockCustomers * (ClockPeriods - 1))
            problems << u"%1 statements closed for %2 customers over %3 daily periods"_s
                            .arg(closed.value(0).toLongLong())
                            .arg(ClockCustomers)
                            .arg(ClockPeriods);
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
            clients.emplace_back([&, url = server.url()] { batchLoop(url, run, false); });
            clients.emplace_back([&, url = server.url()] { batchLoop(url, run, true); });
            // The fault itself: a kill at a random moment, mid-transaction or not.
            std::this_thread::sleep_for(std::chrono::microseconds(random.bounded(20'000, 400'000)));
            server.process().kill();
            QVERIFY(server.process().waitForFinished(10000));
            for (std::thread &client : clients)
                client.join();
            QVERIFY2(QTest::qWaitFor(
                         [this] { return test::LedgerAudit::sessionsEnded(m_database.location()); },
                         30000),
                     "the killed server's database sessions did not end in 30 s");
            QVERIFY2(m_unexpected.load() == 0, qPrintable(m_lastUnexpected));
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

    void killedSweepsApplyEveryPeriodOnce()
    {
        test::TestDatabase database;
        QVERIFY2(database.error().isEmpty(), qPrintable(database.error()));
        const qint64 firstReset = QDateTime::currentMSecsSinceEpoch() + 3'600'000;
        {
            engine::Engine setup(database.location());
            QVERIFY(setup.open().ok());
            QVERIFY(setup.loadWorkspace(test::fromQt(clockedWorkspace(ClockCustomers, firstReset)))
                        .ok());
        }
        // Each start moves the sandbox's clock 3.5 days on (its own work to
        // cut short), the last past the 21st daily reset, short of the 22nd.
        const auto advanceTo = [firstReset](int run) {
            const qint64 to = firstReset + (7 * (run + 1) - 1) * Day / 2; // finalNow at the last
            return QJsonDocument(QJsonObject{{u"to"_s, to}}).toJson(QJsonDocument::Compact);
        };
        const quint32 seed = QRandomGenerator::global()->generate();
        QRandomGenerator random(seed);
        for (int run = 0; run < ClockRuns; ++run) {
            test::ServerProcess server;
            const QString problem = server.start(database.location());
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            std::thread client([url = server.url(), body = advanceTo(run)] {
                test::HttpClient http(url, test::TrustKey.toLatin1(), 30000);
                (void)http.post("/v1/meterdesk/clock.advance", body);
            });
            // About as long as a run's work takes here (~100 ms on SQLite, a
            // second on PostgreSQL), so most kills land inside it.
            const bool postgres = database.location().startsWith(u"postgresql:"_s);
            std::this_thread::sleep_for(
                std::chrono::milliseconds(random.bounded(5, postgres ? 900 : 250)));
            server.process().kill();
            QVERIFY(server.process().waitForFinished(10000));
            client.join();
            QVERIFY2(
                QTest::qWaitFor(
                    [&database] { return test::LedgerAudit::sessionsEnded(database.location()); },
                    30000),
                "the killed server's database sessions did not end in 30 s");
            const QStringList problems = clockAudit(database.location(), firstReset, false);
            QVERIFY2(problems.isEmpty(),
                     qPrintable(u"after kill %1 (seed %2): "_s.arg(run + 1).arg(seed) +
                                problems.join(u"; "_s)));
        }
        // The last start finishes what the kills cut short.
        test::ServerProcess server;
        QVERIFY(server.start(database.location()).isEmpty());
        test::HttpClient http(server.url(), test::TrustKey.toLatin1(), 120000);
        const auto moved = http.post("/v1/meterdesk/clock.advance", advanceTo(ClockRuns - 1));
        QVERIFY(moved.status == 200 || moved.status == 400); // 400: the clock is past it already
        const auto list = http.post("/v1/balances.list", R"({"customer_id":"k0"})");
        QVERIFY2(list.status == 200, list.body.constData()); // a read brings its rows up to date
        QTRY_VERIFY_WITH_TIMEOUT(clockAudit(database.location(), firstReset, true).isEmpty(),
                                 120000);
        QCOMPARE(server.stop(), 0);
        const QStringList problems = clockAudit(database.location(), firstReset, true);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u"; "_s)));
    }
};

QTEST_GUILESS_MAIN(TestCrashSafety)
#include "tst_crashsafety.moc"
