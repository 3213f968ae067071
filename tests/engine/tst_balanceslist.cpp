// balances.list on the engine: every filter of §4.1, status from the clock,
// keyset pages that survive concurrent inserts, and the error cases.
#include "services/api/WireCodec.h"
#include "services/engine/ledger/LedgerVerifier.h"
#include "services/engine/sql/KeyAllocator.h"
#include "services/engine/sql/Sql.h"
#include "tests/engine/EngineFixture.h"
#include "tests/engine/ScopeRoutes.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

using namespace md;
using namespace Qt::StringLiterals;
using api::BalanceStatus;
using api::ListBalancesRequest;

namespace {

QStringList ids(const api::ListBalancesResponse &response)
{
    QStringList list;
    for (const api::BalanceRow &row : response.list)
        list.append(row.id);
    return list;
}

ListBalancesRequest request(const QByteArray &body)
{
    auto decoded = api::decodeBody<ListBalancesRequest>(body);
    if (!decoded)
        qFatal("bad request in test: %s", qPrintable(decoded.error().message));
    return decoded.value();
}

} // namespace

class TestBalancesList final : public QObject
{
    Q_OBJECT

    test::EngineFixture m_fixture;
    engine::Scope m_test;
    engine::Scope m_live;

    api::ListBalancesResponse list(const QByteArray &body, const engine::Scope *scope = nullptr)
    {
        auto response =
            test::listBalances(*m_fixture.engine, scope ? *scope : m_test, request(body));
        if (!response)
            qFatal("list failed: %s", qPrintable(response.error().message));
        return response.value();
    }

    // Every row, walking pages of `limit` from the first.
    QStringList walk(QByteArray filters, int limit)
    {
        QStringList seen;
        QString cursor;
        for (int guard = 0; guard < 1000; ++guard) {
            QJsonObject body = QJsonDocument::fromJson(filters).object();
            body.insert(u"limit"_s, limit);
            body.insert(u"start_cursor"_s, cursor);
            const auto page = list(QJsonDocument(body).toJson());
            seen += ids(page);
            if (!page.hasMore) {
                if (page.nextCursor)
                    qFatal("next_cursor set on the last page");
                return seen;
            }
            cursor = *page.nextCursor;
        }
        qFatal("pagination did not end");
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_OPEN_FIXTURE(m_fixture);
        auto loaded = m_fixture.engine->loadWorkspace(test::smallWorkspace());
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : qPrintable(loaded.error().message));
        auto orgs = m_fixture.engine->organizations();
        QVERIFY(orgs.ok());
        m_test = {orgs.value().first().pk, engine::Environment::Sandbox};
        m_live = {orgs.value().first().pk, engine::Environment::Production};
    }

    void init() { *m_fixture.now = 10000; }

    void defaultsListActiveNewestFirstPerCustomer()
    {
        const auto page = list("{}");
        QCOMPARE(ids(page), (QStringList{u"b_ann_expiring"_s, u"b_ann_seat"_s, u"b_ann_topup"_s,
                                         u"b_ann_pro"_s, u"b_bob_topup"_s, u"b_bob_pro"_s}));
        QVERIFY(!page.hasMore);
        QVERIFY(!page.nextCursor);
        for (const api::BalanceRow &row : page.list)
            QCOMPARE(row.status, BalanceStatus::Active);
    }

    void rowsCarryEveryField()
    {
        const auto page = list(R"({"customer_id":"ann","feature_id":"api_calls"})");
        QCOMPARE(page.list.size(), 1);
        const api::BalanceRow &row = page.list.first();
        QCOMPARE(row.id, u"b_ann_pro"_s);
        QCOMPARE(row.planId, std::optional(u"pro"_s));
        QCOMPARE(row.customerId, u"ann"_s);
        QCOMPARE(row.entityId, std::nullopt);
        QCOMPARE(row.remaining.toString(), u"750.5"_s);
        QCOMPARE(row.usage.toString(), u"249.5"_s);
        QCOMPARE(row.includedGrant, api::Decimal::fromInteger(1000));
        QVERIFY(row.reset);
        QCOMPARE(row.reset->interval, api::ResetInterval::Month);
        QCOMPARE(row.reset->resetsAt, std::optional<qint64>(4102444800000));
        QVERIFY(row.price);
        QCOMPARE(row.price->billingUnits, api::Decimal::fromInteger(100));
        QCOMPARE(row.createdAt, 3000);
        // Rollovers nest on their balance, soonest expiry first.
        QCOMPARE(row.rollovers.size(), 2);
        QCOMPARE(row.rollovers.at(0).expiresAt, 4039372800000);
        QCOMPARE(row.rollovers.at(1).balance, api::Decimal::fromInteger(40));
    }

    void largeIntegersSurvive()
    {
        const auto page = list(R"({"customer_id":"bob","feature_id":"ai_credits"})");
        QCOMPARE(page.list.size(), 1);
        QCOMPARE(test::json(page.list.first()).value("remaining"_L1).numberText(),
                 QByteArrayView("9007199254740991"));
    }

    void filters_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("customer") << QByteArray(R"({"customer_id":"bob"})")
                                  << QStringList{u"b_bob_topup"_s, u"b_bob_pro"_s};
        QTest::newRow("entity") << QByteArray(R"({"customer_id":"ann","entity_id":"seat-1"})")
                                << QStringList{u"b_ann_seat"_s};
        QTest::newRow("feature") << QByteArray(R"({"feature_id":"ai_credits"})")
                                 << QStringList{u"b_ann_topup"_s, u"b_bob_topup"_s};
        QTest::newRow("plan") << QByteArray(R"({"plan_id":"pro"})")
                              << QStringList{u"b_ann_pro"_s, u"b_bob_pro"_s};
        QTest::newRow("no plan") << QByteArray(R"({"plan_id":null})")
                                 << QStringList{u"b_ann_expiring"_s, u"b_ann_seat"_s,
                                                u"b_ann_topup"_s, u"b_bob_topup"_s};
        QTest::newRow("expired only")
            << QByteArray(R"({"statuses":["expired"]})") << QStringList{u"b_ann_old"_s};
        QTest::newRow("both statuses")
            << QByteArray(R"({"customer_id":"ann","statuses":["active","expired"]})")
            << QStringList{u"b_ann_expiring"_s, u"b_ann_seat"_s, u"b_ann_topup"_s, u"b_ann_pro"_s,
                           u"b_ann_old"_s};
        QTest::newRow("expired plan by id")
            << QByteArray(R"({"plan_id":"old","statuses":["expired","active"]})")
            << QStringList{u"b_ann_old"_s};
        QTest::newRow("combined")
            << QByteArray(R"({"customer_id":"ann","feature_id":"messages","plan_id":null})")
            << QStringList{u"b_ann_expiring"_s, u"b_ann_seat"_s};
    }
    void filters()
    {
        QFETCH(QByteArray, body);
        QFETCH(QStringList, expected);
        QCOMPARE(ids(list(body)), expected);
    }

    void statusFollowsTheClock()
    {
        // A workspace of its own: the clock writes what it expires, and time
        // only moves forward.
        test::EngineFixture fixture;
        MD_OPEN_FIXTURE(fixture);
        QVERIFY(fixture.engine->loadWorkspace(test::smallWorkspace()).ok());
        const auto listed = [&](const QByteArray &body) {
            auto page = test::listBalances(*fixture.engine, m_test, request(body));
            return page ? ids(page.value()) : QStringList{page.error().message};
        };
        *fixture.now = 49999;
        QVERIFY(!listed(R"({"statuses":["expired"]})").contains(u"b_ann_expiring"_s));
        *fixture.now = 50000; // expires_at is the first expired instant
        QVERIFY(listed(R"({"statuses":["expired"]})").contains(u"b_ann_expiring"_s));
        // At 60000 the standalone balance (expires 50000) and bob's plan
        // (40000) have expired, and the clock wrote each expiry once.
        *fixture.now = 60000;
        QCOMPARE(listed("{}"), (QStringList{u"b_ann_seat"_s, u"b_ann_topup"_s, u"b_ann_pro"_s,
                                            u"b_bob_topup"_s}));
        QCOMPARE(listed(R"({"statuses":["expired"]})"),
                 (QStringList{u"b_ann_expiring"_s, u"b_ann_old"_s, u"b_bob_pro"_s}));
        const auto report = engine::LedgerVerifier::verify(
            fixture.engine->database().connection().value(), fixture.engine->dialect());
        QVERIFY(report.ok());
        QVERIFY2(report.value().differences.isEmpty(),
                 qPrintable(report.value().differences.join(u'\n')));
    }

    // A plan's versions are one plan (docs/api.md): a file whose customer is
    // on version 2, listed before version 1, is found by the plan's id, and
    // its customer product keeps the plan's key (migration 15).
    void aPlanFilterCoversEveryVersionOfALoadedWorkspace()
    {
        QFile file(QStringLiteral(MD_TEST_DATA_DIR "/small.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QByteArray text = file.readAll();
        const QByteArray first = R"({ "id": "pro", "name": "Pro", "group": "plans", "version": 1,)";
        const QByteArray annPro = R"({ "id": "cp_ann_pro", "plan_id": "pro",)";
        QVERIFY(text.contains(first) && text.contains(annPro));
        const QByteArray second =
            R"({ "id": "pro", "name": "Pro", "group": "plans", "version": 2,
            "is_add_on": false, "is_default": false, "free_trial": null, "created_at": 1000,
            "items": [ { "feature_id": "api_calls", "included_usage": 2000, "interval": "month" } ] },
          )";
        text.replace(first, QByteArray(second + first));
        text.replace(annPro, R"({ "id": "cp_ann_pro", "plan_id": "pro", "version": 2,)");
        test::EngineFixture fixture;
        MD_OPEN_FIXTURE(fixture);
        const auto loaded = fixture.engine->loadWorkspace(test::jsonValue(text));
        QVERIFY2(loaded.ok(), qPrintable(loaded.ok() ? QString() : loaded.error().message));
        const auto page =
            test::listBalances(*fixture.engine, m_test, request(R"({"plan_id":"pro"})"));
        QVERIFY(page.ok());
        const QStringList listed = ids(page.value());
        QVERIFY2(listed.contains(u"b_ann_pro"_s) && listed.contains(u"b_bob_pro"_s),
                 qPrintable(listed.join(u", "_s)));
        auto keys = engine::queryRows(
            fixture.engine->database().connection().value(),
            u"SELECT cp.plan_pk, (SELECT pk FROM products WHERE id = 'pro' AND env = 'test'"
            " AND version = 1) FROM customer_products cp WHERE cp.id = 'cp_ann_pro'"_s,
            {});
        QVERIFY(keys && keys.value().size() == 1);
        QCOMPARE(keys.value().first().at(0).toLongLong(), keys.value().first().at(1).toLongLong());
    }

    void environmentsAreSeparate()
    {
        QCOMPARE(ids(list("{}", &m_live)), QStringList{u"b_live_ann"_s});
        QCOMPARE(ids(list(R"({"customer_id":"ann"})", &m_live)), QStringList{u"b_live_ann"_s});
    }

    // The console stops the scans of a filter it no longer shows. On SQLite
    // the scan asks at its first row and ends with "stopped"; PostgreSQL
    // scans in one statement and answers in full.
    void scansStopWhenAsked()
    {
        engine::Engine &engine = *m_fixture.engine;
        const bool stops = engine.database().dialect() == engine::Dialect::Sqlite;
        int asked = 0;
        const engine::StopCheck stop = [&asked] { return ++asked > 0; };
        const engine::StopCheck never = [] { return false; };

        // By customer: a grouping the kept sums do not hold, so a scan.
        api::BalanceTotalsRequest byCustomer;
        byCustomer.groupBy = api::TotalsGroupBy::Customer;
        const auto full = test::balanceTotals(engine, m_test, byCustomer);
        QVERIFY(full.ok());
        const auto unstopped = test::balanceTotals(engine, m_test, byCustomer, never);
        QVERIFY(unstopped.ok());
        QCOMPARE(unstopped.value().total.balances, full.value().total.balances);
        const auto totals = test::balanceTotals(engine, m_test, byCustomer, stop);
        QCOMPARE(totals.ok(), !stops);
        if (stops)
            QCOMPARE(totals.error().code, u"stopped"_s);

        const auto pages = test::balancePages(engine, m_test, {{}, 2}, stop);
        QCOMPARE(pages.ok(), !stops);
        QCOMPARE(asked > 0, stops);
        QCOMPARE(test::balancePages(engine, m_test, {{}, 2}, never).value().count,
                 full.value().total.balances);
        QCOMPARE(ids(list("{}")).size(), full.value().total.balances); // nothing left open
    }

    void pagesWalkEverythingOnce_data()
    {
        QTest::addColumn<QByteArray>("filters");
        QTest::addColumn<int>("limit");
        for (int limit : {1, 2, 3, 5, 200}) {
            QTest::addRow("all, limit %d", limit)
                << QByteArray(R"({"statuses":["active","expired"]})") << limit;
            QTest::addRow("ann, limit %d", limit)
                << QByteArray(R"({"customer_id":"ann"})") << limit;
            QTest::addRow("feature, limit %d", limit)
                << QByteArray(R"({"feature_id":"api_calls"})") << limit;
        }
    }
    void pagesWalkEverythingOnce()
    {
        QFETCH(QByteArray, filters);
        QFETCH(int, limit);
        QJsonObject whole = QJsonDocument::fromJson(filters).object();
        whole.insert(u"limit"_s, 200);
        QCOMPARE(walk(filters, limit), ids(list(QJsonDocument(whole).toJson())));
    }

    void pageHasMoreExactly()
    {
        const auto first = list(R"({"limit":6})");
        QCOMPARE(first.list.size(), 6);
        QVERIFY(!first.hasMore); // exactly six active rows: no empty last page
        const auto partial = list(R"({"limit":5})");
        QVERIFY(partial.hasMore);
        QVERIFY(partial.nextCursor);
    }

    void insertsDuringAWalkNeitherRepeatNorSkip()
    {
        test::EngineFixture fixture;
        MD_OPEN_FIXTURE(fixture);
        QVERIFY(fixture.engine->loadWorkspace(test::smallWorkspace()).ok());
        const QByteArray all = R"({"statuses":["active","expired"],"limit":2})";
        QStringList before;
        {
            QJsonObject body = QJsonDocument::fromJson(all).object();
            body.insert(u"limit"_s, 200);
            auto whole =
                test::listBalances(*fixture.engine, m_test, request(QJsonDocument(body).toJson()));
            QVERIFY(whole.ok());
            before = ids(whole.value());
        }
        QStringList seen;
        QString cursor;
        int inserted = 0;
        for (;;) {
            QJsonObject body = QJsonDocument::fromJson(all).object();
            body.insert(u"start_cursor"_s, cursor);
            auto page =
                test::listBalances(*fixture.engine, m_test, request(QJsonDocument(body).toJson()));
            QVERIFY(page.ok());
            seen += ids(page.value());
            if (!page.value().hasMore)
                break;
            cursor = *page.value().nextCursor;
            // A new balance for each customer lands between two page requests.
            auto db = fixture.engine->database().connection();
            QVERIFY(db.ok());
            engine::WriteTransaction transaction(db.value(), fixture.engine->database().dialect());
            QVERIFY(transaction.begin().ok());
            engine::KeyAllocator keys(db.value(), fixture.engine->database().dialect());
            auto feature = engine::runSql(
                db.value(), u"SELECT pk FROM features WHERE env = 'test' AND id = 'api_calls'"_s);
            QVERIFY(feature.ok() && feature.value().next());
            const qint64 featurePk = feature.value().value(0).toLongLong();
            auto customers = engine::runSql(
                db.value(), u"SELECT pk, org_pk FROM customers WHERE env = 'test'"_s);
            QVERIFY(customers.ok());
            QList<QVariantList> rows;
            while (customers.value().next()) {
                auto pk = keys.next(u"balances"_s);
                QVERIFY(pk.ok());
                rows.append({pk.value(), u"b_new_%1"_s.arg(++inserted), customers.value().value(1),
                             u"test"_s, customers.value().value(0), featurePk, u"1"_s, u"0"_s,
                             u"1"_s, u"0"_s, 0, 0, 20000});
            }
            QVERIFY(engine::insertRows(db.value(), u"balances"_s,
                                       {u"pk"_s, u"id"_s, u"org_pk"_s, u"env"_s, u"customer_pk"_s,
                                        u"feature_pk"_s, u"included_grant"_s, u"prepaid_grant"_s,
                                        u"remaining"_s, u"usage"_s, u"unlimited"_s,
                                        u"overage_allowed"_s, u"created_at"_s},
                                       rows)
                        .ok());
            QVERIFY(transaction.commit().ok());
        }
        QVERIFY(inserted > 0);
        // Every row that existed before the walk is seen exactly once.
        QCOMPARE(QSet<QString>(seen.begin(), seen.end()).size(), seen.size());
        for (const QString &id : std::as_const(before))
            QCOMPARE(seen.count(id), 1);
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QTest::newRow("garbage cursor")
            << QByteArray(R"({"start_cursor":"not-a-cursor"})") << 400 << u"invalid_cursor"_s;
        QTest::newRow("base64 but not ours")
            << QByteArray(R"({"start_cursor":"aGVsbG8"})") << 400 << u"invalid_cursor"_s;
        QTest::newRow("unknown customer")
            << QByteArray(R"({"customer_id":"nobody"})") << 404 << u"customer_not_found"_s;
        QTest::newRow("unknown entity")
            << QByteArray(R"({"customer_id":"ann","entity_id":"seat-9"})") << 404
            << u"entity_not_found"_s;
        QTest::newRow("other customer's entity")
            << QByteArray(R"({"customer_id":"bob","entity_id":"seat-1"})") << 404
            << u"entity_not_found"_s;
        QTest::newRow("unknown feature")
            << QByteArray(R"({"feature_id":"gold"})") << 404 << u"feature_not_found"_s;
        QTest::newRow("unknown plan")
            << QByteArray(R"({"plan_id":"platinum"})") << 404 << u"product_not_found"_s;
    }
    void errors()
    {
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        QFETCH(QString, code);
        auto response = test::listBalances(*m_fixture.engine, m_test, request(body));
        QVERIFY(!response.ok());
        QCOMPARE(response.error().status, status);
        QCOMPARE(response.error().code, code);
        QVERIFY(!response.error().message.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestBalancesList)
#include "tst_balanceslist.moc"
