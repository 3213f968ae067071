// Promotions racing (docs/promotion.md): six clients read the same
// differences and promote the same product at once, against two
// meterdesk-server processes on one PostgreSQL database (one on SQLite).
// Exactly one promotion per round may go through; every other must be told
// 409 production_changed, never a 500 from two writers meeting in the table,
// and production must hold exactly the versions one promotion at a time
// makes, with one audit entry per promotion. Plain product updates racing
// the same way are applied in turn.
#include "services/api/Promotion.h"
#include "services/api/WireCodec.h"
#include "services/engine/Engine.h"
#include "services/engine/sql/Database.h"
#include "services/engine/sql/Sql.h"
#include "tests/support/HttpClient.h"
#include "tests/support/ServerProcess.h"
#include "tests/support/TestDatabase.h"

#include <QTest>

#include <barrier>
#include <memory>
#include <mutex>
#include <thread>

using namespace md;
using namespace Qt::StringLiterals;

namespace {

constexpr int Clients = 6;
constexpr int Rounds = 5;
const QByteArray LiveKey = "sk_live_echo0000000000000000000000000000";
const QByteArray SandboxKey = "sk_test_echo0000000000000000000000000000";

// The sandbox's basic with `calls` included: a new difference each round.
QByteArray sandboxItems(int calls)
{
    return R"({"items":[{"feature_id":"calls","included_usage":)" + QByteArray::number(calls) +
           R"(,"interval":"month"},{"feature_id":"seats","included_usage":3}]})";
}

} // namespace

class TestPromotionRace final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;

    QVariantList column(const QString &sql)
    {
        engine::Database database(m_database.location());
        auto rows = engine::queryRows(database.connection().value(), sql, {});
        QVariantList values;
        for (const QVariantList &row : rows.value())
            values.append(row.first());
        return values;
    }

    // Two servers on one PostgreSQL database, one on SQLite (its writes
    // take turns anyway); none when one did not start (the reason is logged).
    std::vector<std::unique_ptr<test::ServerProcess>> startServers()
    {
        std::vector<std::unique_ptr<test::ServerProcess>> servers;
        for (int s = 0; s < (test::TestDatabase::usesPostgres() ? 2 : 1); ++s) {
            servers.push_back(std::make_unique<test::ServerProcess>());
            const QString problem = servers.back()->start(m_database.location());
            if (!problem.isEmpty()) {
                qWarning("%s", qPrintable(problem));
                return {};
            }
        }
        return servers;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_database.error().isEmpty(), qPrintable(m_database.error()));
        engine::Engine setup(m_database.location());
        QVERIFY(setup.open().ok());
        QVERIFY(setup
                    .loadWorkspaceFile(
                        QStringLiteral(MD_TEST_CONFORMANCE_DIR "/promotion-workspace.json"))
                    .ok());
    }

    void onePromotionWinsEachRound()
    {
        const auto servers = startServers();
        QVERIFY(!servers.empty());
        test::HttpClient sandbox(servers.front()->url(), SandboxKey);
        for (int round = 0; round < Rounds; ++round) {
            QCOMPARE(sandbox.post("/v1/products/basic", sandboxItems(100 + round)).status, 200);
            std::mutex mutex;
            QList<int> statuses;
            QStringList surprises;
            std::barrier together(Clients);
            std::vector<std::thread> threads;
            for (int c = 0; c < Clients; ++c)
                threads.emplace_back([&, c] {
                    test::HttpClient client(servers.at(size_t(c) % servers.size())->url(), LiveKey);
                    const auto read = client.post("/v1/meterdesk/environments.diff", "{}");
                    const auto diff = api::decodeBody<api::EnvironmentDiff>(read.body);
                    together.arrive_and_wait(); // everyone has seen the same production
                    if (!diff) {
                        const std::lock_guard lock(mutex);
                        surprises << u"diff: %1"_s.arg(QString::fromUtf8(read.body));
                        return;
                    }
                    const auto promoted =
                        client.post("/v1/meterdesk/environments.promote",
                                    api::toJsonText(diff.value().promotion({u"basic"_s}, {})));
                    const std::lock_guard lock(mutex);
                    statuses << promoted.status;
                    if (promoted.status != 200 && !promoted.body.contains("production_changed"))
                        surprises << u"%1 %2"_s.arg(promoted.status)
                                         .arg(QString::fromUtf8(promoted.body + promoted.error));
                });
            for (std::thread &thread : threads)
                thread.join();
            QVERIFY2(surprises.isEmpty(), qPrintable(surprises.mid(0, 3).join(u"; "_s)));
            QCOMPARE(statuses.count(200), 1);
            QCOMPARE(statuses.count(409), Clients - 1);
        }
        for (auto &server : servers)
            QCOMPARE(server->stop(), 0);

        // Paula keeps version 1; the first promotion made version 2, which
        // nobody is on, so later ones changed it in place.
        QCOMPARE(column(u"SELECT version FROM products WHERE env = 'live' AND id = 'basic'"
                        " ORDER BY version"_s),
                 (QVariantList{1, 2}));
        QCOMPARE(column(u"SELECT items FROM products WHERE env = 'live' AND id = 'basic'"
                        " AND version = 2"_s)
                     .value(0)
                     .toString()
                     .contains(u"\"included_usage\":%1"_s.arg(100 + Rounds - 1)),
                 true);
        QCOMPARE(column(u"SELECT count(*) FROM audit_log WHERE env = 'live'"
                        " AND action = 'product.promote'"_s)
                     .value(0)
                     .toInt(),
                 Rounds);
    }

    // The same race without a promotion: product updates that change the
    // items of a version customers are on, all at once. Each is applied in
    // turn (versions 3 and on, none lost), none fails for meeting another.
    void productUpdatesTakeTurns()
    {
        const auto servers = startServers();
        QVERIFY(!servers.empty());
        // Paula moves onto version 2, so each change of its items is a new version.
        {
            engine::Database database(m_database.location());
            QVERIFY(engine::execute(database.connection().value(),
                                    u"UPDATE customer_products SET product_pk = (SELECT pk FROM"
                                    " products WHERE env = 'live' AND id = 'basic' AND version = 2)"
                                    " WHERE id = 'cp_paula_basic'"_s,
                                    {}));
        }
        std::mutex mutex;
        QStringList failures;
        std::barrier together(Clients);
        std::vector<std::thread> threads;
        for (int c = 0; c < Clients; ++c)
            threads.emplace_back([&, c] {
                test::HttpClient client(servers.at(size_t(c) % servers.size())->url(), LiveKey);
                together.arrive_and_wait();
                const auto updated = client.post("/v1/products/basic", sandboxItems(200 + c));
                if (updated.status != 200) {
                    const std::lock_guard lock(mutex);
                    failures << u"%1 %2"_s.arg(updated.status)
                                    .arg(QString::fromUtf8(updated.body + updated.error));
                }
            });
        for (std::thread &thread : threads)
            thread.join();
        for (auto &server : servers)
            QCOMPARE(server->stop(), 0);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 3).join(u"; "_s)));
        // Version 3 was the first update's; the others changed it in place
        // (nobody is on it), each after the one before.
        QCOMPARE(column(u"SELECT version FROM products WHERE env = 'live' AND id = 'basic'"
                        " ORDER BY version"_s),
                 (QVariantList{1, 2, 3}));
    }
};

QTEST_GUILESS_MAIN(TestPromotionRace)
#include "tst_promotionrace.moc"
