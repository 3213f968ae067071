// Concurrency (issue 8): 16 clients charge the same three customers at once,
// a third of the calls through the async queue, against two meterdesk-server
// processes on one PostgreSQL database, or one server on SQLite. Every call
// must succeed (no 500, no deadlock: a call unanswered for 30 s fails) and the
// final balances must equal the expected sums exactly.
#include "services/api/Decimal.h"
#include "services/engine/Database.h"
#include "services/engine/Engine.h"
#include "services/engine/Sql.h"
#include "tests/conformance/ServerProcess.h"
#include "tests/support/HttpClient.h"
#include "tests/support/TestDatabase.h"
#include "tests/trust/LedgerAudit.h"
#include "tests/trust/TrustWorkspace.h"

#include <QRandomGenerator>
#include <QTest>

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

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_database.error().isEmpty(), qPrintable(m_database.error()));
        const QString problem = test::loadTrustWorkspace(m_database.location(), Customers);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void sixteenClientsChargeExactly()
    {
        // SQLite has one writer, so a second process only adds lock waits;
        // PostgreSQL is where several servers share one workspace.
        const int servers = test::TestDatabase::usesPostgres() ? 2 : 1;
        std::vector<std::unique_ptr<test::ServerProcess>> processes;
        for (int s = 0; s < servers; ++s) {
            processes.push_back(std::make_unique<test::ServerProcess>());
            const QString problem = processes.back()->start(m_database.location(), ServerArguments);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }

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

        engine::Database database(m_database.location());
        const test::LedgerAudit audit(database.connection().value());
        QStringList customers;
        for (int customer = 0; customer < Customers; ++customer)
            customers << u"c%1"_s.arg(customer);
        const QStringList problems = audit.balancesMatchEvents(customers) + audit.trialBalance();
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u"; "_s)));
        QCOMPARE(audit.trackKeys().applied.size(), Clients * CallsPerClient);
        QCOMPARE(audit.trackKeys().failed, 0);
    }
};

QTEST_GUILESS_MAIN(TestConcurrency)
#include "tst_concurrency.moc"
