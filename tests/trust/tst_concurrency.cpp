// Concurrency (issue 8): 16 clients charge the same three customers at once,
// a third of the calls through the async queue, against two meterdesk-server
// processes on one PostgreSQL database, or one server on SQLite. Every call
// must succeed (no 500, no deadlock: a call unanswered for 30 s fails) and the
// final balances must equal the expected sums exactly. Hand adjustments of
// one balance, made while calls draw on it, are kept as well. Single calls
// and usage.batch requests (issue 40) mixed, sync and async, tokens and
// feature events, with repeated keys among them, charge exactly too. Calls made
// while the sandbox's clock crosses their balances' reset land wholly in one
// period, and the servers together reset each balance once. Advances of the
// sandbox clock racing each other never move it back (issue 51).
#include "services/api/Decimal.h"
#include "services/engine/Engine.h"
#include "services/engine/sql/Database.h"
#include "services/engine/sql/Sql.h"
#include "tests/support/HttpClient.h"
#include "tests/support/ServerProcess.h"
#include "tests/support/TestDatabase.h"
#include "tests/trust/LedgerAudit.h"
#include "tests/trust/TrustWorkspace.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>

#include <atomic>
#include <latch>
#include <memory>
#include <mutex>
#include <thread>

using namespace md;
using namespace Qt::StringLiterals;

namespace {

constexpr int Clients = 16;
constexpr int CallsPerClient = 60;
constexpr int Customers = 3;
const QStringList ServerArguments{
    u"--catalogue"_s, QStringLiteral(MD_TEST_CONFORMANCE_DIR "/pricing-catalogue.json")};

} // namespace

class TestConcurrency final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;

    // What the tables promise once the servers stopped: every customer's
    // balance agrees with its usage events and the trial balance holds;
    // `keys`: the calls' Idempotency-Keys recorded.
    QStringList ledgerProblems(test::LedgerAudit::TrackKeys &keys)
    {
        engine::Database database(m_database.location());
        const test::LedgerAudit audit(database.connection().value());
        QStringList customers;
        for (int customer = 0; customer < Customers; ++customer)
            customers << u"c%1"_s.arg(customer);
        keys = audit.trackKeys();
        return audit.balancesMatchEvents(customers) + audit.trialBalance();
    }

    // What the tables say: remaining credits per customer.
    QHash<QString, api::Decimal> remaining()
    {
        engine::Database database(m_database.location());
        auto db = database.connection();
        if (!db)
            qFatal("%s", qPrintable(db.error().message));
        auto rows = engine::queryRows(db.value(),
                                      u"SELECT c.id, b.remaining FROM balances b"
                                      " JOIN customers c ON c.pk = b.customer_pk"_s,
                                      {});
        QHash<QString, api::Decimal> byCustomer;
        for (const QVariantList &row : rows.value())
            byCustomer.insert(row.at(0).toString(),
                              api::Decimal::parse(row.at(1).toString()).value());
        return byCustomer;
    }

    // SQLite has one writer, so a second process only adds lock waits;
    // PostgreSQL is where several servers share one workspace. None: one
    // did not start (the reason is logged).
    std::vector<std::unique_ptr<test::ServerProcess>> startServers()
    {
        std::vector<std::unique_ptr<test::ServerProcess>> processes;
        for (int s = 0; s < (test::TestDatabase::usesPostgres() ? 2 : 1); ++s) {
            processes.push_back(std::make_unique<test::ServerProcess>());
            const QString problem = processes.back()->start(m_database.location(), ServerArguments);
            if (!problem.isEmpty()) {
                qWarning("%s", qPrintable(problem));
                return {};
            }
        }
        return processes;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_database.error().isEmpty(), qPrintable(m_database.error()));
        const QString problem = test::loadTrustWorkspace(m_database.location(), Customers);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void sixteenClientsChargeExactly()
    {
        auto processes = startServers();
        QVERIFY(!processes.empty());
        const int servers = int(processes.size());

        std::mutex mutex;
        QHash<int, int> statuses;             // HTTP status → calls
        QList<qint64> expected(Customers, 0); // credits charged per customer
        QStringList failures;
        std::vector<std::thread> threads;
        const quint32 seed = QRandomGenerator::global()->generate();
        for (int c = 0; c < Clients; ++c) {
            threads.emplace_back([&, c] {
                QRandomGenerator random(seed + quint32(c));
                test::HttpClient client(processes.at(size_t(c % servers))->url(),
                                        test::TrustKey.toLatin1(), 30000);
                for (int i = 0; i < CallsPerClient; ++i) {
                    const int customer = int(random.bounded(Customers));
                    const int credits = 1 + int(random.bounded(9));
                    const bool async = random.bounded(3) == 0;
                    const auto response = client.post(
                        "/v1/balances.track_tokens",
                        test::trackBody(u"c%1"_s.arg(customer), credits, async),
                        {{"Idempotency-Key", QByteArray::number(c) + '-' + QByteArray::number(i)}});
                    const std::lock_guard lock(mutex);
                    ++statuses[response.status];
                    if (response.status == (async ? 204 : 200))
                        expected[customer] += credits;
                    else
                        failures << u"client %1 call %2: %3 %4"_s.arg(c)
                                        .arg(i)
                                        .arg(response.status)
                                        .arg(QString::fromUtf8(response.body + response.error));
                }
            });
        }
        for (std::thread &thread : threads)
            thread.join();
        qInfo("seed %u; %d calls through %d server(s); statuses %s", seed, Clients * CallsPerClient,
              servers, qPrintable([&] {
                  QStringList parts;
                  for (auto it = statuses.cbegin(); it != statuses.cend(); ++it)
                      parts << u"%1×%2"_s.arg(it.value()).arg(it.key());
                  return parts.join(u", "_s);
              }()));
        QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 5).join(u"; "_s)));

        QTRY_COMPARE_WITH_TIMEOUT(test::LedgerAudit::queuedCalls(m_database.location()),
                                  qsizetype(0), 30000);
        const QHash<QString, api::Decimal> balances = remaining();
        for (int customer = 0; customer < Customers; ++customer)
            QCOMPARE(balances.value(u"c%1"_s.arg(customer)),
                     api::Decimal::fromInteger(test::TrustGrant - expected.at(customer)));
        for (auto &process : processes)
            QCOMPARE(process->stop(), 0);

        test::LedgerAudit::TrackKeys keys;
        const QStringList problems = ledgerProblems(keys);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u"; "_s)));
        QCOMPARE(keys.applied.size(), Clients * CallsPerClient);
        QCOMPARE(keys.failed, 0);
    }

    // Single calls and batches of both kinds at once, a quarter of the
    // batches async and some events sent again under a key already used.
    void singleAndBatchCallsMixExactly()
    {
        auto processes = startServers();
        QVERIFY(!processes.empty());
        const int servers = int(processes.size());
        const QHash<QString, api::Decimal> before = remaining();
        std::mutex mutex;
        QList<qint64> expected(Customers, 0);
        qsizetype applied = 0;
        QStringList failures;
        std::vector<std::thread> threads;
        const quint32 seed = QRandomGenerator::global()->generate();
        for (int c = 0; c < Clients; ++c) {
            threads.emplace_back([&, c] {
                QRandomGenerator random(seed + quint32(c));
                test::HttpClient client(processes.at(size_t(c % servers))->url(),
                                        test::TrustKey.toLatin1(), 30000);
                for (int i = 0; i < CallsPerClient / 4; ++i) {
                    const QByteArray key =
                        "mix-" + QByteArray::number(c) + '-' + QByteArray::number(i);
                    if (random.bounded(2) == 0) { // one call
                        const int customer = int(random.bounded(Customers));
                        const int credits = 1 + int(random.bounded(9));
                        const auto response =
                            client.post("/v1/balances.track_tokens",
                                        test::trackBody(u"c%1"_s.arg(customer), credits, false),
                                        {{"Idempotency-Key", key}});
                        const std::lock_guard lock(mutex);
                        if (response.status == 200) {
                            expected[customer] += credits;
                            ++applied;
                        } else {
                            failures << u"%1 %2"_s.arg(response.status)
                                            .arg(QString::fromUtf8(response.body));
                        }
                        continue;
                    }
                    const bool async = random.bounded(4) == 0;
                    QJsonArray events;
                    QList<std::pair<int, int>> charges; // customer, credits per event
                    for (int e = 0; e < 10; ++e) {
                        const int customer = int(random.bounded(Customers));
                        const int credits = 1 + int(random.bounded(9));
                        QJsonObject event;
                        if (e % 2 == 0) {
                            event = QJsonDocument::fromJson(
                                        test::trackBody(u"c%1"_s.arg(customer), credits, false))
                                        .object();
                            event.insert(u"kind"_s, u"tokens"_s);
                        } else {
                            event = QJsonObject{{u"kind"_s, u"feature"_s},
                                                {u"customer_id"_s, u"c%1"_s.arg(customer)},
                                                {u"feature_id"_s, u"credits"_s},
                                                {u"value"_s, credits}};
                        }
                        // The last event repeats the first's key: refused, charged nothing.
                        event.insert(u"idempotency_key"_s, QString(QString::fromLatin1(key) + u'-' +
                                                                   QString::number(e % 9)));
                        events.append(event);
                        charges.append({customer, credits});
                    }
                    const auto response = client.post(
                        "/v1/meterdesk/usage.batch",
                        QJsonDocument(QJsonObject{{u"events"_s, events}, {u"async"_s, async}})
                            .toJson(QJsonDocument::Compact));
                    const QJsonArray results = QJsonDocument::fromJson(response.body)
                                                   .object()
                                                   .value(u"results"_s)
                                                   .toArray();
                    const std::lock_guard lock(mutex);
                    if (response.status != (async ? 202 : 200) || results.size() != 10) {
                        failures << u"batch: %1 %2"_s.arg(response.status)
                                        .arg(QString::fromUtf8(response.body.left(300)));
                        continue;
                    }
                    for (int e = 0; e < 10; ++e) {
                        const int status = results.at(e).toObject().value(u"status"_s).toInt();
                        if (e == 9 ? status != 409 : status != (async ? 202 : 200)) {
                            failures << u"batch event %1: %2"_s.arg(e).arg(status);
                            continue;
                        }
                        if (e < 9) {
                            expected[charges.at(e).first] += charges.at(e).second;
                            ++applied;
                        }
                    }
                }
            });
        }
        for (std::thread &thread : threads)
            thread.join();
        QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 5).join(u"; "_s)));
        QTRY_COMPARE_WITH_TIMEOUT(test::LedgerAudit::queuedCalls(m_database.location()),
                                  qsizetype(0), 30000);
        const QHash<QString, api::Decimal> after = remaining();
        for (int customer = 0; customer < Customers; ++customer) {
            const QString id = u"c%1"_s.arg(customer);
            QCOMPARE(
                after.value(id),
                before.value(id).minus(api::Decimal::fromInteger(expected.at(customer))).value());
        }
        for (auto &process : processes)
            QCOMPARE(process->stop(), 0);
        test::LedgerAudit::TrackKeys keys;
        const QStringList problems = ledgerProblems(keys);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u"; "_s)));
        qsizetype mixed = 0;
        for (const QString &key : keys.applied)
            mixed += key.startsWith(u"mix-"_s);
        QCOMPARE(mixed, applied);
    }

    // Hand adjustments and calls on one balance at once, through every
    // server: neither is lost (on PostgreSQL both take the customer's lock
    // before reading the balance).
    void adjustmentsAndCallsKeepEachOther()
    {
        auto processes = startServers();
        QVERIFY(!processes.empty());
        const QString customer = u"c0"_s;
        const api::Decimal before = remaining().value(customer);
        QByteArray balanceId;
        {
            engine::Database database(m_database.location());
            auto rows = engine::queryRows(database.connection().value(),
                                          u"SELECT b.id FROM balances b JOIN customers c"
                                          " ON c.pk = b.customer_pk WHERE c.id = ?"_s,
                                          {customer});
            QVERIFY(rows && rows.value().size() == 1);
            balanceId = rows.value().first().first().toString().toUtf8();
        }
        std::mutex mutex;
        qint64 charged = 0;
        qint64 added = 0;
        QStringList failures;
        const auto note = [&](const test::HttpClient::Response &response, const char *what) {
            failures << u"%1: %2 %3"_s.arg(QString::fromLatin1(what))
                            .arg(response.status)
                            .arg(QString::fromUtf8(response.body + response.error));
        };
        std::vector<std::thread> threads;
        for (int c = 0; c < 4; ++c)
            threads.emplace_back([&, c] {
                test::HttpClient client(processes.at(size_t(c) % processes.size())->url(),
                                        test::TrustKey.toLatin1(), 30000);
                for (int i = 0; i < 40; ++i) {
                    const int credits = 1 + (c + i) % 9;
                    const auto response = client.post("/v1/balances.track_tokens",
                                                      test::trackBody(customer, credits, false));
                    const std::lock_guard lock(mutex);
                    if (response.status == 200)
                        charged += credits;
                    else
                        note(response, "track");
                }
            });
        threads.emplace_back([&] {
            test::HttpClient client(processes.back()->url(), test::TrustKey.toLatin1(), 30000);
            for (int i = 0; i < 40; ++i) {
                const auto response =
                    client.post("/v1/meterdesk/balances.adjust",
                                R"({"balance_id":")" + balanceId +
                                    R"(","amount":3,"reason":"goodwill, concurrently"})");
                const std::lock_guard lock(mutex);
                if (response.status == 200)
                    added += 3;
                else
                    note(response, "adjust");
            }
        });
        for (std::thread &thread : threads)
            thread.join();
        QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 5).join(u"; "_s)));
        for (auto &process : processes)
            QCOMPARE(process->stop(), 0);
        QCOMPARE(added, 120);
        QCOMPARE(remaining().value(customer), before.minus(api::Decimal::fromInteger(charged))
                                                  .value()
                                                  .plus(api::Decimal::fromInteger(added))
                                                  .value());
        engine::Database database(m_database.location());
        const test::LedgerAudit audit(database.connection().value());
        const QStringList problems = audit.trialBalance();
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u"; "_s)));
    }

    // Customers on "team" (4 used of 10 a month) are charged by every server
    // while one moves the sandbox's clock past their reset. Each call is
    // wholly before the reset or after it: the reset takes back exactly the
    // usage written before it, the balance holds exactly the usage written
    // after, and no server resets a balance twice.
    void callsAcrossAResetLandInOnePeriod()
    {
        auto processes = startServers();
        QVERIFY(!processes.empty());
        const QStringList customers{u"r0"_s, u"r1"_s, u"r2"_s};
        test::HttpClient admin(processes.front()->url(), test::TrustKey.toLatin1(), 30000);
        for (const QString &customer : customers)
            QCOMPARE(admin.post("/v1/billing.import", test::importBody(customer)).status, 200);
        const auto listed = admin.post("/v1/balances.list", R"({"customer_id":"r0"})");
        QCOMPARE(listed.status, 200);
        const qint64 resetsAt = QJsonDocument::fromJson(listed.body)
                                    .object()
                                    .value(u"list"_s)[0][u"reset"_s][u"resets_at"_s]
                                    .toInteger();
        QVERIFY(resetsAt > 0);

        std::mutex mutex;
        QStringList failures;
        std::atomic<int> made = 0;
        int madeAtTheReset = 0;
        const QByteArray advance =
            R"({"to":)" + QByteArray::number(resetsAt + 60'000) + '}'; // past the reset
        std::vector<std::thread> threads;
        for (int c = 0; c < Clients; ++c)
            threads.emplace_back([&, c] {
                test::HttpClient client(processes.at(size_t(c) % processes.size())->url(),
                                        test::TrustKey.toLatin1(), 30000);
                for (int i = 0; i < 30; ++i, ++made) {
                    // The first client moves the clock a third of the way in.
                    const bool moves = c == 0 && i == 10;
                    const auto response =
                        moves
                            ? client.post("/v1/meterdesk/clock.advance", advance)
                            : client.post("/v1/balances.track_tokens",
                                          test::trackBody(customers.at((c + i) % customers.size()),
                                                          1 + i % 3, false));
                    const std::lock_guard lock(mutex);
                    if (moves)
                        madeAtTheReset = made.load();
                    if (response.status != 200)
                        failures << u"%1 %2"_s.arg(response.status)
                                        .arg(QString::fromUtf8(response.body + response.error));
                }
            });
        for (std::thread &thread : threads)
            thread.join();
        QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 5).join(u"; "_s)));
        qInfo("the clock crossed the reset after %d of %d calls", madeAtTheReset, Clients * 30);
        for (auto &process : processes)
            QCOMPARE(process->stop(), 0);

        engine::Database database(m_database.location());
        auto db = database.connection();
        QVERIFY(db);
        for (const QString &customer : customers) {
            auto rows = engine::queryRows(
                db.value(),
                u"SELECT l.kind, l.usage FROM ledger l JOIN customers c ON c.pk = l.customer_pk"
                " WHERE c.id = ? ORDER BY l.pk"_s,
                {customer});
            QVERIFY(rows);
            api::Decimal before;
            api::Decimal after;
            int resets = 0;
            for (const QVariantList &row : rows.value()) {
                const api::Decimal usage = api::Decimal::parse(row.at(1).toString()).value();
                if (row.at(0).toString() == "reset"_L1) {
                    ++resets;
                    QCOMPARE(usage, before.negated()); // all of the period's usage, no more
                } else {
                    (resets == 0 ? before : after) =
                        (resets == 0 ? before : after).plus(usage).value();
                }
            }
            QCOMPARE(resets, 1);
            auto stored = engine::queryRows(db.value(),
                                            u"SELECT b.usage FROM balances b JOIN customers c"
                                            " ON c.pk = b.customer_pk WHERE c.id = ?"_s,
                                            {customer});
            QVERIFY(stored && stored.value().size() == 1);
            QCOMPARE(api::Decimal::parse(stored.value().first().first().toString()).value(), after);
        }
        const test::LedgerAudit audit(db.value());
        const QStringList problems = audit.trialBalance();
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u"; "_s)));
    }

    // Advances racing (on one server or two) never move the sandbox's clock
    // back: each answered 200 leaves the clock at least where it said, and
    // the others are told 400 that their time is not after the clock's now.
    // Last: it moves the sandbox years ahead.
    void concurrentAdvancesNeverMoveTheClockBack()
    {
        auto processes = startServers();
        QVERIFY(!processes.empty());
        test::HttpClient reader(processes.front()->url(), test::TrustKey.toLatin1(), 30000);
        const auto nowOf = [](const QByteArray &body) {
            return QJsonDocument::fromJson(body).object().value(u"now"_s).toInteger();
        };
        constexpr qint64 Day = 86'400'000;
        constexpr int Racers = 8;
        for (int round = 0; round < 6; ++round) {
            const auto before = reader.post("/v1/meterdesk/clock.get", "{}");
            QCOMPARE(before.status, 200);
            const qint64 start = nowOf(before.body);
            std::mutex mutex;
            QStringList failures;
            qint64 furthest = 0; // the latest time an advance was told it reached
            int moved = 0;
            std::latch ready(Racers);
            std::vector<std::thread> threads;
            for (int c = 0; c < Racers; ++c)
                threads.emplace_back([&, c] {
                    test::HttpClient client(processes.at(size_t(c) % processes.size())->url(),
                                            test::TrustKey.toLatin1(), 30000);
                    // Half the racers ask for the same time: only one of those may move it.
                    const qint64 to = start + Day * (1 + (c % 2 ? c : 0));
                    ready.arrive_and_wait();
                    const auto response = client.post("/v1/meterdesk/clock.advance",
                                                      R"({"to":)" + QByteArray::number(to) + '}');
                    const std::lock_guard lock(mutex);
                    const QJsonObject answer = QJsonDocument::fromJson(response.body).object();
                    if (response.status == 200) {
                        ++moved;
                        furthest = std::max(furthest, answer.value(u"now"_s).toInteger());
                    } else if (response.status != 400 ||
                               answer.value(u"code"_s).toString() != "invalid_inputs"_L1) {
                        failures << u"%1 %2"_s.arg(response.status)
                                        .arg(QString::fromUtf8(response.body + response.error));
                    }
                });
            for (std::thread &thread : threads)
                thread.join();
            QVERIFY2(failures.isEmpty(), qPrintable(failures.join(u"; "_s)));
            QVERIFY(moved >= 1);
            QVERIFY2(moved <= Racers / 2 + 1, "two advances to one time both moved the clock");
            const auto after = reader.post("/v1/meterdesk/clock.get", "{}");
            QCOMPARE(after.status, 200);
            QVERIFY2(
                nowOf(after.body) >= furthest,
                qPrintable(u"round %1: the clock stands at %2, an advance answered %3"_s.arg(round)
                               .arg(nowOf(after.body))
                               .arg(furthest)));
        }
        for (auto &process : processes)
            QCOMPARE(process->stop(), 0);
    }
};

QTEST_GUILESS_MAIN(TestConcurrency)
#include "tst_concurrency.moc"
