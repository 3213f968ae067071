// Conformance, balances.list: filters, paging, rows, errors, keys and environments.
// Runs three ways: tests/conformance/CMakeLists.txt.
#include "tests/conformance/ConformanceSuite.h"

using namespace md;
using namespace md::test::conformance;

class TestBalancesConformance final : public ConformanceSuite
{
    Q_OBJECT

private Q_SLOTS:
    void defaultListsActiveRowsNewestFirst()
    {
        const auto page = list({});
        QCOMPARE(ids(page), (QStringList{u"b_ann_seat"_s, u"b_ann_topup"_s, u"b_ann_pro"_s,
                                         u"b_bob_topup"_s}));
        QVERIFY(!page.hasMore);
        QVERIFY(!page.nextCursor);
    }

    void walkingAllPagesYieldsEveryRowOnce_data()
    {
        QTest::addColumn<int>("limit");
        for (int limit : {1, 2, 3, 7, 200})
            QTest::addRow("limit %d", limit) << limit;
    }
    void walkingAllPagesYieldsEveryRowOnce()
    {
        QFETCH(int, limit);
        ListBalancesRequest request;
        request.limit = limit;
        request.statuses = {BalanceStatus::Active, BalanceStatus::Expired};
        QCOMPARE(walk(request),
                 (QStringList{u"b_ann_expiring"_s, u"b_ann_seat"_s, u"b_ann_topup"_s,
                              u"b_ann_pro"_s, u"b_ann_old"_s, u"b_bob_topup"_s, u"b_bob_pro"_s}));
    }

    void filters_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("customer") << QByteArray(
                                         R"({"customer_id":"bob","statuses":["active","expired"]})")
                                  << QStringList{u"b_bob_topup"_s, u"b_bob_pro"_s};
        QTest::newRow("entity") << QByteArray(R"({"customer_id":"ann","entity_id":"seat-1"})")
                                << QStringList{u"b_ann_seat"_s};
        QTest::newRow("feature") << QByteArray(R"({"feature_id":"ai_credits"})")
                                 << QStringList{u"b_ann_topup"_s, u"b_bob_topup"_s};
        QTest::newRow("plan") << QByteArray(R"({"plan_id":"pro","statuses":["active","expired"]})")
                              << QStringList{u"b_ann_pro"_s, u"b_bob_pro"_s};
        QTest::newRow("null plan")
            << QByteArray(R"({"plan_id":null})")
            << QStringList{u"b_ann_seat"_s, u"b_ann_topup"_s, u"b_bob_topup"_s};
        QTest::newRow("expired") << QByteArray(R"({"statuses":["expired"]})")
                                 << QStringList{u"b_ann_expiring"_s, u"b_ann_old"_s,
                                                u"b_bob_pro"_s};
    }
    void filters()
    {
        QFETCH(QByteArray, body);
        QFETCH(QStringList, expected);
        auto request = api::decodeBody<ListBalancesRequest>(body);
        QVERIFY(request.ok());
        QCOMPARE(ids(list(request.value())), expected);
    }

    void rowsAreComplete()
    {
        ListBalancesRequest request;
        request.customerId = u"ann"_s;
        request.featureId = u"api_calls"_s;
        const auto page = list(request);
        QCOMPARE(page.list.size(), 1);
        const api::BalanceRow &row = page.list.first();
        QCOMPARE(row.planId, std::optional(u"pro"_s));
        QCOMPARE(row.remaining.toString(), u"750.5"_s);
        QCOMPARE(row.rollovers.size(), 2);
        QCOMPARE(row.rollovers.first().expiresAt, 4039372800000);
        QCOMPARE(row.price->billingUnits, api::Decimal::fromInteger(100));
        QCOMPARE(row.reset->interval, api::ResetInterval::Month);
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QTest::newRow("limit 0") << QByteArray(R"({"limit":0})") << 400 << u"invalid_inputs"_s;
        QTest::newRow("limit 201") << QByteArray(R"({"limit":201})") << 400 << u"invalid_inputs"_s;
        QTest::newRow("bad cursor")
            << QByteArray(R"({"start_cursor":"nonsense"})") << 400 << u"invalid_cursor"_s;
        QTest::newRow("unknown customer")
            << QByteArray(R"({"customer_id":"zed"})") << 404 << u"customer_not_found"_s;
        QTest::newRow("unknown feature")
            << QByteArray(R"({"feature_id":"gold"})") << 404 << u"feature_not_found"_s;
    }
    void errors()
    {
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        QFETCH(QString, code);
        // Built field by field, so requests the decoder would refuse still reach the backend.
        const QJsonObject json = QJsonDocument::fromJson(body).object();
        ListBalancesRequest request;
        request.limit = json.value(u"limit"_s).toInteger(50);
        request.startCursor = json.value(u"start_cursor"_s).toString();
        if (json.contains(u"customer_id"_s))
            request.customerId = json.value(u"customer_id"_s).toString();
        if (json.contains(u"feature_id"_s))
            request.featureId = json.value(u"feature_id"_s).toString();
        auto page = await(m_backend->listBalances(request));
        QVERIFY(!page.ok());
        QCOMPARE(page.error().status, status);
        QCOMPARE(page.error().code, code);
        QVERIFY(!page.error().message.isEmpty());
    }

    void unknownKeyIsUnauthorized()
    {
        auto backend = backendFor(u"sk_test_nobody0000000000000000000000000"_s);
        auto page = await(backend->listBalances({}));
        QVERIFY(!page.ok());
        QCOMPARE(page.error().status, 401);
        QCOMPARE(page.error().code, u"unauthorized"_s);
    }

    void missingScopeIsForbidden()
    {
        auto backend = backendFor(m_readOnlyBillingKey);
        auto page = await(backend->listBalances({}));
        QVERIFY(!page.ok());
        QCOMPARE(page.error().status, 403);
        QCOMPARE(page.error().code, u"insufficient_scopes"_s);
    }

    void environmentsNeverMix()
    {
        auto live = backendFor(m_liveKey);
        ListBalancesRequest all;
        all.statuses = {BalanceStatus::Active, BalanceStatus::Expired};
        auto page = await(live->listBalances(all));
        QVERIFY(page.ok());
        QCOMPARE(ids(page.value()), QStringList{u"b_live_ann"_s});
        QVERIFY(!walk(all).contains(u"b_live_ann"_s));
    }
};

QTEST_GUILESS_MAIN(TestBalancesConformance)
#include "tst_conformance_balances.moc"
