// One suite, three ways (MD_CONFORMANCE, tests/conformance/ConformanceHarness.h):
// EngineBackend on SQLite or PostgreSQL, and RemoteBackend against a
// meterdesk-server started here, over HTTP or HTTPS.
#include "services/api/Version.h"
#include "services/embedded/EngineBackend.h"
#include "services/engine/PriceCatalogue.h"
#include "services/remote/RemoteBackend.h"
#include "tests/conformance/ConformanceHarness.h"
#include "tests/engine/EngineFixture.h"

#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>

#include <thread>

using namespace md;
using namespace Qt::StringLiterals;
using api::BalanceStatus;
using api::ListBalancesRequest;

namespace {

const QString FixtureKey = u"sk_test_fixture0000000000000000000001"_s;
// The pricing workspace's organization (data/pricing-workspace.json).
const QString PricingKey = u"sk_test_pricing0000000000000000000000"_s;
// The admin workspace's organization (data/admin-workspace.json): every scope, and read only.
const QString AdminKey = u"sk_test_admin00000000000000000000000000"_s;
const QString AdminLiveKey = u"sk_live_admin00000000000000000000000000"_s;
const QString AdminReadKey = u"sk_test_adminread0000000000000000000000"_s;
const QString CataloguePath = test::cataloguePath();

using test::await;
using test::dec;
using test::overHttp;
using test::serverArguments;
using test::testCa;

QString mode()
{
    return test::conformanceMode();
}

QStringList ids(const api::ListBalancesResponse &page)
{
    QStringList list;
    for (const api::BalanceRow &row : page.list)
        list.append(row.id);
    return list;
}

} // namespace

class TestConformance final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;
    test::ServerProcess m_server;
    QString m_readOnlyBillingKey; // billing:write only
    QString m_liveKey;            // live environment, balances:read
    std::unique_ptr<backend::BillingBackend> m_backend;
    std::unique_ptr<backend::BillingBackend> m_pricing; // the pricing workspace
    std::unique_ptr<backend::BillingBackend> m_admin;   // the admin workspace
    engine::PriceCatalogue m_catalogue;                 // the test catalogue both sides use

    api::Decimal remainingOf(backend::BillingBackend &backend, const QString &balanceId,
                             const QString &customerId)
    {
        ListBalancesRequest request;
        request.customerId = customerId;
        auto page = await(backend.listBalances(request));
        if (!page)
            qFatal("list failed: %s", qPrintable(page.error().message));
        for (const api::BalanceRow &row : page.value().list)
            if (row.id == balanceId)
                return row.remaining;
        qFatal("no balance %s", qPrintable(balanceId));
    }

    api::TrackTokensRequest callFor(const QString &customer, const QString &model,
                                    qint64 inputTokens)
    {
        api::TrackTokensRequest call;
        call.customerId = customer;
        call.modelId = model;
        call.inputTokens = inputTokens;
        return call;
    }

    std::unique_ptr<backend::BillingBackend> backendFor(const QString &secret)
    {
        return test::backendFor(m_database, m_server, secret);
    }

    api::ListBalancesResponse list(const ListBalancesRequest &request)
    {
        auto page = await(m_backend->listBalances(request));
        if (!page)
            qFatal("list failed: %s", qPrintable(page.error().message));
        return page.value();
    }

    QStringList walk(ListBalancesRequest request)
    {
        QStringList seen;
        for (int guard = 0; guard < 1000; ++guard) {
            const auto page = list(request);
            seen += ids(page);
            if (!page.hasMore)
                return seen;
            request.startCursor = *page.nextCursor;
        }
        qFatal("pagination did not end");
    }

    // POSTs raw bytes with the given headers; returns HTTP status and body.
    std::pair<int, QJsonObject> rawPost(const QString &path,
                                        const QList<std::pair<QByteArray, QByteArray>> &headers,
                                        const QByteArray &body, const QByteArray &verb = "POST")
    {
        const test::RawAnswer answer = test::rawRequest(m_server, path, headers, body, verb);
        return {answer.status, answer.json()};
    }

    // The newest or a given version of an admin workspace product.
    api::Product product(const QString &id, qint64 version)
    {
        const auto products = await(m_admin->listProducts());
        for (const api::Product &p : products.value().list)
            if (p.id == id && p.version == version)
                return p;
        return {};
    }

    template <typename T>
    void expectError(const api::Result<T> &result, int status, const QString &code,
                     const QString &names)
    {
        QVERIFY(!result.ok());
        QCOMPARE(result.error().status, status);
        QCOMPARE(result.error().code, code);
        QVERIFY2(result.error().message.contains(names), qPrintable(result.error().message));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_database.error().isEmpty(), qPrintable(m_database.error()));
        {
            engine::Engine setup(m_database.location());
            QVERIFY(setup.open().ok());
            QVERIFY(setup.loadWorkspace(test::smallWorkspace()).ok());
            auto pricing = setup.loadWorkspaceFile(
                QStringLiteral(MD_TEST_CONFORMANCE_DIR "/pricing-workspace.json"));
            QVERIFY2(pricing.ok(), pricing.ok() ? "" : qPrintable(pricing.error().message));
            auto admin = setup.loadWorkspaceFile(
                QStringLiteral(MD_TEST_CONFORMANCE_DIR "/admin-workspace.json"));
            QVERIFY2(admin.ok(), admin.ok() ? "" : qPrintable(admin.error().message));
            auto billing =
                setup.createKey(u"alpha"_s, engine::Environment::Test, {u"billing:write"_s}, {});
            auto live =
                setup.createKey(u"alpha"_s, engine::Environment::Live, {u"balances:read"_s}, {});
            QVERIFY(billing.ok() && live.ok());
            m_readOnlyBillingKey = billing.value().secret;
            m_liveKey = live.value().secret;
        }
        if (overHttp()) {
            const QString problem = m_server.start(m_database.location(), serverArguments());
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            QCOMPARE(m_server.url().scheme(), mode() == "remote-tls"_L1 ? u"https"_s : u"http"_s);
        }
        m_backend = backendFor(FixtureKey);
        m_pricing = backendFor(PricingKey);
        m_admin = backendFor(AdminKey);
        auto catalogue = engine::PriceCatalogue::fromFile(CataloguePath);
        QVERIFY(catalogue.ok());
        m_catalogue = std::move(catalogue.value());
    }

    void cleanupTestCase()
    {
        m_backend.reset();
        m_pricing.reset();
        if (overHttp())
            QCOMPARE(m_server.stop(), 0); // SIGTERM: finish, then exit 0
    }

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
        QCOMPARE(row.rollovers.first().expiresAt, 70000);
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

    void extensionReads()
    {
        auto customers = await(m_backend->listCustomers({}));
        QVERIFY(customers.ok());
        QCOMPARE(customers.value().list.size(), 2);
        api::PageRequest search;
        search.search = u"BOB@"_s;
        QCOMPARE(await(m_backend->listCustomers(search)).value().list.first().id, u"bob"_s);
        api::PageRequest paged;
        paged.limit = 1;
        auto first = await(m_backend->listCustomers(paged)).value();
        QVERIFY(first.hasMore);
        paged.startCursor = *first.nextCursor;
        QCOMPARE(await(m_backend->listCustomers(paged)).value().list.first().id, u"bob"_s);

        auto ann = await(m_backend->customer(u"ann"_s));
        QVERIFY2(ann.ok(), ann.ok() ? "" : qPrintable(ann.error().message));
        QCOMPARE(ann.value().balances.value(u"ai_credits"_s).remaining.toString(), u"25.75"_s);
        QCOMPARE(ann.value().subscriptions.size(), 2);
        QCOMPARE(await(m_backend->customer(u"zed"_s)).error().code, u"customer_not_found"_s);

        auto features = await(m_backend->listFeatures());
        QVERIFY(features.ok());
        QCOMPARE(features.value().list.size(), 3);
        QCOMPARE(features.value().list.at(2).markups.size(), 2);
        auto products = await(m_backend->listProducts());
        QVERIFY2(products.ok(), products.ok() ? "" : qPrintable(products.error().message));
        QCOMPARE(products.value().list.size(), 2);
        QVERIFY(std::holds_alternative<api::FeatureGrantRecord>(
            await(m_backend->listRewards()).value().list.first().reward));
        QCOMPARE(await(m_backend->listOrganizations()).value().list.first().slug, u"alpha"_s);
        QVERIFY(await(m_backend->listUsageEvents({})).ok());
        auto who = await(m_backend->connectionInfo());
        QVERIFY(who.ok());
        QCOMPARE(who.value().orgSlug, u"alpha"_s);
        QCOMPARE(who.value().environment, u"test"_s);
    }

    void aboutNamesTheVersionAndTheCatalogueInUse()
    {
        // Both sides price with the test catalogue, not the bundled one.
        auto about = await(m_backend->about());
        QVERIFY2(about.ok(), about.ok() ? "" : qPrintable(about.error().message));
        QCOMPARE(about.value().version, api::meterdeskVersion());
        QCOMPARE(about.value().catalogue, m_catalogue.info());
        QVERIFY(about.value().catalogue != engine::PriceCatalogue::bundled().info());
    }

    void billingPortalAnswersASignedLink()
    {
        // The page behind it is tested in a browser (tests/portal).
        api::BillingPortalRequest portal;
        portal.returnUrl = u"https://example.com/back"_s;
        auto opened = await(m_backend->billingPortal(u"ann"_s, portal));
        QVERIFY2(opened.ok(), opened.ok() ? "" : qPrintable(opened.error().message));
        QCOMPARE(opened.value().customerId, u"ann"_s);
        const QUrl url(opened.value().url);
        QVERIFY(url.scheme().startsWith(u"http"_s));
        QVERIFY(url.path().startsWith(u"/portal/"_s));
        QCOMPARE(url.path().count(u'.'), 1); // payload.signature
        expectError(await(m_backend->billingPortal(u"nobody"_s, portal)), 404,
                    u"customer_not_found"_s, u"nobody"_s);
        portal.returnUrl = u"ftp://example.com"_s;
        expectError(await(m_backend->billingPortal(u"ann"_s, portal)), 400, u"invalid_inputs"_s,
                    u"return_url"_s);
        api::ImportCustomerRequest import;
        import.customerId = u"ann"_s;
        auto forbidden = await(backendFor(m_liveKey)->importCustomer(import));
        QCOMPARE(forbidden.error().status, 403); // the scope check comes first
    }

    void secondServerSharesTheDatabase()
    {
        if (!overHttp())
            QSKIP("about server processes");
        test::ServerProcess second;
        const QString problem = second.start(m_database.location(), serverArguments());
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        remote::RemoteBackend::Options options;
        if (mode() == "remote-tls"_L1)
            options.caCertificates = testCa();
        remote::RemoteBackend other(second.url(), FixtureKey, options);
        ListBalancesRequest all;
        all.statuses = {BalanceStatus::Active, BalanceStatus::Expired};
        auto viaSecond = await(other.listBalances(all));
        QVERIFY(viaSecond.ok());
        QCOMPARE(test::canonicalText(viaSecond.value()), test::canonicalText(list(all)));
        QCOMPARE(second.stop(), 0);
    }

    // The HTTP-only rules: headers, methods, routes and sizes.
    void httpRules_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("verb");
        QTest::addColumn<bool>("versionHeader");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QTest::newRow("missing x-api-version")
            << u"/v1/balances.list"_s << QByteArray("POST") << false << QByteArray("{}") << 400
            << u"invalid_api_version"_s;
        QTest::newRow("wrong method") << u"/v1/balances.list"_s << QByteArray("GET") << true
                                      << QByteArray() << 405 << u"method_not_allowed"_s;
        QTest::newRow("unknown route") << u"/v1/balances.delete"_s << QByteArray("POST") << true
                                       << QByteArray("{}") << 404 << u"not_found"_s;
        QTest::newRow("malformed JSON") << u"/v1/balances.list"_s << QByteArray("POST") << true
                                        << QByteArray("{\"limit\":") << 400 << u"invalid_inputs"_s;
        QTest::newRow("body too large")
            << u"/v1/balances.list"_s << QByteArray("POST") << true
            << QByteArray(1024 * 1024 + 1, ' ') << 413 << u"payload_too_large"_s;
        QTest::newRow("missing scope") << u"/v1/products/pro"_s << QByteArray("POST") << true
                                       << QByteArray("{}") << 403 << u"insufficient_scopes"_s;
    }
    void httpRules()
    {
        if (!overHttp())
            QSKIP("HTTP rules apply to the server only");
        QFETCH(QString, path);
        QFETCH(QByteArray, verb);
        QFETCH(bool, versionHeader);
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        QFETCH(QString, code);
        QList<std::pair<QByteArray, QByteArray>> headers{
            {"Authorization", "Bearer " + m_readOnlyBillingKey.toUtf8()},
            {"Content-Type", "application/json"}};
        if (path == "/v1/balances.list"_L1)
            headers.first().second = "Bearer " + FixtureKey.toUtf8();
        if (versionHeader)
            headers.append(std::pair<QByteArray, QByteArray>("x-api-version", "2.4.0"));
        const auto [answered, json] = rawPost(path, headers, body, verb);
        QCOMPARE(answered, status);
        QCOMPARE(json.value(u"code"_s).toString(), code);
        QVERIFY(!json.value(u"message"_s).toString().isEmpty());
    }

    // The admin endpoints (§4.4–4.7) on data/admin-workspace.json.
    void productUpdateKeepsWhatIsOmitted()
    {
        api::UpdateProductRequest rename;
        rename.name = u"Draft plan"_s;
        auto updated = await(m_admin->updateProduct(u"draft"_s, rename));
        QVERIFY2(updated.ok(), updated.ok() ? "" : qPrintable(updated.error().message));
        QCOMPARE(updated.value().name, u"Draft plan"_s);
        QCOMPARE(updated.value().group, u"plans"_s);
        QCOMPARE(updated.value().items.size(), 1);
        QCOMPARE(updated.value().version, 1);
        QCOMPARE(updated.value(), product(u"draft"_s, 1));

        // Items with tiers up to "inf", a free trial, the group cleared, archived.
        auto items = api::decodeBody<api::UpdateProductRequest>(
            R"({"group":null,"archived":true,"is_add_on":true,
                "free_trial":{"duration":"day","length":14,"unique_fingerprint":true},
                "items":[{"feature_id":"calls","included_usage":10,"interval":"month",
                          "usage_model":"pay_per_use","billing_units":100,
                          "reset_usage_when_enabled":true,
                          "tiers":[{"to":1000,"amount":0.5},{"to":"inf","amount":0.25}]}]})");
        QVERIFY(items.ok());
        updated = await(m_admin->updateProduct(u"draft"_s, items.value()));
        QVERIFY2(updated.ok(), updated.ok() ? "" : qPrintable(updated.error().message));
        QCOMPARE(updated.value().version, 1); // nobody is on it: changed in place
        QCOMPARE(updated.value().group, std::nullopt);
        QVERIFY(updated.value().archived && updated.value().isAddOn);
        QCOMPARE(updated.value().freeTrial->length, 14);
        QCOMPARE(updated.value().items, items.value().items.value());
        QCOMPARE(updated.value().name, u"Draft plan"_s);
        api::UpdateProductRequest noTrial;
        noTrial.freeTrial = std::optional<api::FreeTrial>();
        QCOMPARE(await(m_admin->updateProduct(u"draft"_s, noTrial)).value().freeTrial,
                 std::nullopt);
    }

    void productItemsCustomersAreOnMakeANewVersion()
    {
        api::UpdateProductRequest request;
        api::ProductItem item;
        item.featureId = u"calls"_s;
        item.includedUsage = api::Decimal::fromInteger(500);
        item.interval = api::ResetInterval::Month;
        request.items = QList<api::ProductItem>{item};
        request.name = u"Basic (2026)"_s;
        auto updated = await(m_admin->updateProduct(u"basic"_s, request));
        QVERIFY2(updated.ok(), updated.ok() ? "" : qPrintable(updated.error().message));
        QCOMPARE(updated.value().version, 2);
        QCOMPARE(updated.value().items.first().includedUsage, api::Decimal::fromInteger(500));
        // Version 1 keeps its items (dora's history); the name is the product's.
        const api::Product first = product(u"basic"_s, 1);
        QCOMPARE(first.items.first().includedUsage, api::Decimal::fromInteger(100));
        QCOMPARE(first.name, u"Basic (2026)"_s);
        ListBalancesRequest dora;
        dora.customerId = u"dora"_s;
        const auto rows = await(m_admin->listBalances(dora)).value().list;
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.first().includedGrant, api::Decimal::fromInteger(100));
        // The same items again: nothing changes, no third version.
        request.name.reset();
        QCOMPARE(await(m_admin->updateProduct(u"basic"_s, request)).value().version, 2);
    }

    void productRenameCarriesEverythingAlong()
    {
        api::UpdateProductRequest request;
        request.id = u"classic"_s;
        auto renamed = await(m_admin->updateProduct(u"legacy"_s, request));
        QVERIFY2(renamed.ok(), renamed.ok() ? "" : qPrintable(renamed.error().message));
        QCOMPARE(renamed.value().id, u"classic"_s);
        expectError(await(m_admin->updateProduct(u"legacy"_s, {})), 404, u"product_not_found"_s,
                    u"legacy"_s);
        // The coupon that named the plan names it under its new id.
        const auto rewards = await(m_admin->listRewards());
        for (const api::RewardEntry &reward : rewards.value().list)
            if (const auto *coupon = std::get_if<api::CouponRecord>(&reward.reward);
                coupon && coupon->id == u"launch"_s)
                QCOMPARE(coupon->planIds, (QStringList{u"basic"_s, u"classic"_s}));
        // Customers on a renamed plan see the new id.
        request.id = u"basic-plan"_s;
        QVERIFY(await(m_admin->updateProduct(u"basic"_s, request)).ok());
        QCOMPARE(await(m_admin->customer(u"dora"_s)).value().subscriptions.first().planId,
                 u"basic-plan"_s);
        request.id = u"basic"_s;
        QVERIFY(await(m_admin->updateProduct(u"basic-plan"_s, request)).ok());
    }

    void productUpdateErrors_data()
    {
        QTest::addColumn<QString>("productId");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("names");
        QTest::newRow("unknown product")
            << u"gold"_s << QByteArray("{}") << 404 << u"product_not_found"_s << u"gold"_s;
        QTest::newRow("rename onto another") << u"draft"_s << QByteArray(R"({"id":"basic"})") << 400
                                             << u"invalid_request"_s << u"basic"_s;
        QTest::newRow("unknown feature")
            << u"draft"_s << QByteArray(R"({"items":[{"feature_id":"nope"}]})") << 404
            << u"feature_not_found"_s << u"items[0].feature_id"_s;
        QTest::newRow("tiers not rising")
            << u"draft"_s
            << QByteArray(R"({"items":[{"feature_id":"calls","tiers":[{"to":10,"amount":1},)"
                          R"({"to":5,"amount":1},{"to":"inf","amount":1}]}]})")
            << 400 << u"invalid_inputs"_s << u"items[0].tiers[1].to"_s;
        QTest::newRow("bad interval") << u"draft"_s
                                      << QByteArray(R"({"items":[{"feature_id":"calls",)"
                                                    R"("interval":"fortnight"}]})")
                                      << 400 << u"invalid_inputs"_s << u"items[0].interval"_s;
        QTest::newRow("changed items under an old version")
            << u"basic"_s
            << QByteArray(R"({"version":1,"items":[{"feature_id":"calls","included_usage":7}]})")
            << 400 << u"invalid_request"_s << u"version: "_s;
    }
    void productUpdateErrors()
    {
        QFETCH(QString, productId);
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        QFETCH(QString, code);
        QFETCH(QString, names);
        auto request = api::decodeBody<api::UpdateProductRequest>(body);
        expectError(request ? await(m_admin->updateProduct(productId, request.value()))
                            : api::Result<api::Product>(request.error()),
                    status, code, names);
        if (overHttp()) {
            const auto [answered, json] =
                rawPost(u"/v1/products/"_s + productId,
                        {{"authorization", "Bearer " + AdminKey.toLatin1()}}, body);
            QCOMPARE(answered, status);
            QCOMPARE(json.value(u"code"_s).toString(), code);
        }
    }

    void rewardUpdatesArePartial()
    {
        api::UpdateRewardRequest request;
        request.rewardId = u"bonus"_s;
        request.featureGrant = api::FeatureGrantUpdate{};
        request.featureGrant->name = u"Welcome bonus"_s;
        auto updated = await(m_admin->updateReward(request));
        QVERIFY2(updated.ok(), updated.ok() ? "" : qPrintable(updated.error().message));
        auto grant = std::get<api::FeatureGrantRecord>(updated.value().reward);
        QCOMPARE(grant.name, u"Welcome bonus"_s);
        QCOMPARE(grant.promoCodes.first().code, u"BONUS"_s); // kept
        QCOMPARE(grant.grants.first().included, api::Decimal::fromInteger(50));
        QCOMPARE(test::toQt(test::json(updated.value())).keys(), QStringList{u"feature_grant"_s});

        // Promo codes given replace the list; the old code is free again.
        request.featureGrant->name.reset();
        request.featureGrant->promoCodes = QList<api::FeatureGrantPromoCode>{{u"BONUS2"_s, 9}};
        grant =
            std::get<api::FeatureGrantRecord>(await(m_admin->updateReward(request)).value().reward);
        QCOMPARE(grant.promoCodes.size(), 1);
        QCOMPARE(grant.promoCodes.first().maxUses, 9);
        api::UpdateRewardRequest other;
        other.rewardId = u"other"_s;
        other.featureGrant = api::FeatureGrantUpdate{};
        other.featureGrant->promoCodes =
            QList<api::FeatureGrantPromoCode>{{u"TAKEN"_s, 1}, {u"BONUS"_s, 1}};
        QVERIFY(await(m_admin->updateReward(other)).ok());

        api::UpdateRewardRequest coupon;
        coupon.rewardId = u"launch"_s;
        coupon.coupon = api::CouponUpdate{};
        coupon.coupon->planIds = QStringList{u"draft"_s};
        auto couponUpdated = await(m_admin->updateReward(coupon));
        QVERIFY2(couponUpdated.ok(),
                 couponUpdated.ok() ? "" : qPrintable(couponUpdated.error().message));
        const auto record = std::get<api::CouponRecord>(couponUpdated.value().reward);
        QCOMPARE(record.planIds, QStringList{u"draft"_s});
        QCOMPARE(record.promoCodes.first().code, u"LAUNCH20"_s);
        QCOMPARE(record.value, api::Decimal::fromInteger(20));
        QCOMPARE(test::toQt(test::json(couponUpdated.value())).keys(), QStringList{u"coupon"_s});
    }

    void rewardUpdateErrors_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("names");
        QTest::newRow("unknown reward") << QByteArray(R"({"reward_id":"gone","coupon":{}})") << 404
                                        << u"reward_not_found"_s << u"gone"_s;
        QTest::newRow("both kinds")
            << QByteArray(R"({"reward_id":"bonus","coupon":{},"feature_grant":{}})") << 400
            << u"invalid_inputs"_s << u"coupon"_s;
        QTest::newRow("neither kind") << QByteArray(R"({"reward_id":"bonus"})") << 400
                                      << u"invalid_inputs"_s << u"feature_grant"_s;
        QTest::newRow("the other kind")
            << QByteArray(R"({"reward_id":"bonus","coupon":{"name":"x"}})") << 400
            << u"invalid_request"_s << u"feature_grant"_s;
        QTest::newRow("another reward's promo code")
            << QByteArray(R"({"reward_id":"launch","coupon":{"promo_codes":[{"code":"TAKEN",)"
                          R"("global_max_redemption":1,"first_time_transaction":false}]}})")
            << 400 << u"duplicate_promo_code"_s << u"coupon.promo_codes[0].code"_s;
        QTest::newRow("unknown feature")
            << QByteArray(R"({"reward_id":"bonus","feature_grant":{"grants":[)"
                          R"({"feature_id":"nope","included":1}]}})")
            << 404 << u"feature_not_found"_s << u"feature_grant.grants[0].feature_id"_s;
        QTest::newRow("unknown plan")
            << QByteArray(R"({"reward_id":"launch","coupon":{"plan_ids":["gold"]}})") << 404
            << u"product_not_found"_s << u"coupon.plan_ids[0]"_s;
        QTest::newRow("bad expiry")
            << QByteArray(R"({"reward_id":"bonus","feature_grant":{"grants":[{"feature_id":)"
                          R"("calls","included":1,"expiry":{"type":"decade","length":1}}]}})")
            << 400 << u"invalid_inputs"_s << u"expiry.type"_s;
    }
    void rewardUpdateErrors()
    {
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        QFETCH(QString, code);
        QFETCH(QString, names);
        auto request = api::decodeBody<api::UpdateRewardRequest>(body);
        expectError(request ? await(m_admin->updateReward(request.value()))
                            : api::Result<api::UpdateRewardResponse>(request.error()),
                    status, code, names);
        if (overHttp()) {
            const auto [answered, json] =
                rawPost(u"/v1/rewards.update"_s,
                        {{"authorization", "Bearer " + AdminKey.toLatin1()}}, body);
            QCOMPARE(answered, status);
            QCOMPARE(json.value(u"code"_s).toString(), code);
        }
    }

    void adminEndpointsNeedTheirScopes()
    {
        auto reader = backendFor(AdminReadKey);
        expectError(await(reader->updateProduct(u"draft"_s, {})), 403, u"insufficient_scopes"_s,
                    u"plans:write"_s);
        api::UpdateRewardRequest reward;
        reward.rewardId = u"bonus"_s;
        reward.featureGrant = api::FeatureGrantUpdate{};
        expectError(await(reader->updateReward(reward)), 403, u"insufficient_scopes"_s,
                    u"rewards:write"_s);
        api::LinkOrganizationRequest link;
        link.organizationSlug = u"delta-t1"_s;
        link.testAccountId = u"acct_ok"_s;
        expectError(await(reader->linkOrganization(link)), 403, u"insufficient_scopes"_s,
                    u"platform:write"_s);
    }

    void platformLinksItsOwnTenants()
    {
        api::LinkOrganizationRequest link;
        link.organizationSlug = u"delta-t1"_s;
        link.testAccountId = u"acct_ok"_s;
        auto linked = await(m_admin->linkOrganization(link));
        QVERIFY2(linked.ok(), linked.ok() ? "" : qPrintable(linked.error().message));
        QCOMPARE(linked.value().organization.id, u"org_delta_t1"_s);
        QCOMPARE(linked.value().organization.slug, u"delta-t1"_s);
        QVERIFY(linked.value().message.contains(u"acct_ok"_s));
        bool seen = false;
        const auto organizations = await(m_admin->listOrganizations());
        for (const api::OrganizationInfo &org : organizations.value().list)
            if (org.slug == "delta-t1"_L1) {
                seen = true;
                QCOMPARE(org.testAccountId, u"acct_ok"_s);
                QCOMPARE(org.masterOrgId, u"org_delta"_s);
            }
        QVERIFY(seen);
    }

    void platformLinkErrors_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("names");
        QTest::newRow("another platform's tenant")
            << QByteArray(R"({"organization_slug":"rival-t1","test_account_id":"acct_ok"})") << 404
            << u"not_found"_s << u"rival-t1"_s;
        QTest::newRow("unknown slug")
            << QByteArray(R"({"organization_slug":"nobody","test_account_id":"acct_ok"})") << 404
            << u"not_found"_s << u"nobody"_s;
        QTest::newRow("the platform itself")
            << QByteArray(R"({"organization_slug":"delta","test_account_id":"acct_ok"})") << 404
            << u"not_found"_s << u"delta"_s;
        QTest::newRow("live account with a test key")
            << QByteArray(R"({"organization_slug":"delta-t1","live_account_id":"acct_live"})")
            << 403 << u"live_key_required"_s << u"live key"_s;
        QTest::newRow("account out of reach")
            << QByteArray(R"({"organization_slug":"delta-t1","test_account_id":"acct_far"})") << 404
            << u"not_found"_s << u"acct_far"_s;
        QTest::newRow("no account") << QByteArray(R"({"organization_slug":"delta-t1"})") << 400
                                    << u"invalid_inputs"_s << u"test_account_id"_s;
    }
    void platformLinkErrors()
    {
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        QFETCH(QString, code);
        QFETCH(QString, names);
        auto request = api::decodeBody<api::LinkOrganizationRequest>(body);
        expectError(request ? await(m_admin->linkOrganization(request.value()))
                            : api::Result<api::LinkOrganizationResponse>(request.error()),
                    status, code, names);
        if (overHttp()) {
            const auto [answered, json] =
                rawPost(u"/v1/platform/organizations/stripe"_s,
                        {{"authorization", "Bearer " + AdminKey.toLatin1()}}, body);
            QCOMPARE(answered, status);
            QCOMPARE(json.value(u"code"_s).toString(), code);
            QVERIFY(!json.value(u"message"_s).toString().isEmpty());
            if (qstrcmp(QTest::currentDataTag(), "unknown slug") == 0) { // and another processor
                const auto [other, otherJson] =
                    rawPost(u"/v1/platform/organizations/paddle"_s,
                            {{"authorization", "Bearer " + AdminKey.toLatin1()}}, body);
                QCOMPARE(other, 404);
                QCOMPARE(otherJson.value(u"code"_s).toString(), u"not_found"_s);
            }
        }
    }

    // docs/api.md, "Identifiers": every id the API takes is refused the same
    // way in every mode, so nothing is stored that cannot be addressed again
    // or loaded back from a dump.
    void idRule_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("problem");
        QTest::newRow("empty") << QString() << u"must not be empty"_s;
        QTest::newRow("blank") << u"   "_s << u"must not be empty"_s;
        QTest::newRow("slash") << u"boost/v2"_s << u"\"/\""_s;
        QTest::newRow("tab") << u"a\tb"_s << u"control characters (U+0009"_s;
        QTest::newRow("NUL") << QString(u"a\0b"_s) << u"control characters (U+0000"_s;
        QTest::newRow("bidi override") << u"\u202Eabc"_s << u"bidirectional"_s;
        QTest::newRow("256 characters") << QString(256, u'x') << u"at most 255"_s;
    }
    void idRule()
    {
        QFETCH(QString, id);
        QFETCH(QString, problem);
        const auto refused = [&](const auto &result, const QString &field) {
            QVERIFY(!result.ok());
            QCOMPARE(result.error().status, 400);
            QCOMPARE(result.error().code, u"invalid_inputs"_s);
            QVERIFY2(result.error().message.startsWith(field + u": "_s) &&
                         result.error().message.contains(problem),
                     qPrintable(result.error().message));
        };
        api::ImportCustomerRequest import;
        import.customerId = id;
        refused(await(m_admin->importCustomer(import)), u"customer_id"_s);
        api::UpdateProductRequest rename;
        rename.id = id;
        refused(await(m_admin->updateProduct(u"draft"_s, rename)), u"id"_s);
        api::UpdateRewardRequest reward;
        reward.rewardId = id;
        reward.coupon = api::CouponUpdate{};
        refused(await(m_admin->updateReward(reward)), u"reward_id"_s);
        api::LinkOrganizationRequest link{u"delta-t1"_s, id, std::nullopt};
        refused(await(m_admin->linkOrganization(link)), u"test_account_id"_s);
        api::TrackTokensRequest call = callFor(id.isEmpty() ? u" "_s : id, u"acme/full"_s, 1);
        refused(await(m_pricing->trackTokens(call)), u"customer_id"_s);
        api::ListBalancesRequest list;
        list.featureId = id;
        refused(await(m_backend->listBalances(list)), u"feature_id"_s);
        if (overHttp() && !id.isEmpty()) { // an id in the path, percent-encoded
            const auto [answered, json] =
                rawPost(u"/v1/products/"_s + QString::fromLatin1(QUrl::toPercentEncoding(id)),
                        {{"authorization", "Bearer " + AdminKey.toLatin1()}}, "{}");
            QCOMPARE(answered, 400);
            QVERIFY2(json.value(u"message"_s).toString().startsWith(u"product_id: "_s),
                     qPrintable(json.value(u"message"_s).toString()));
        }
    }

    // A lone surrogate is not text: refused, never turned into U+FFFD.
    void loneSurrogatesAreRefused()
    {
        api::ImportCustomerRequest import;
        import.customerId = u"x"_s + QChar(0xD800);
        if (!overHttp()) { // a QString can hold one; UTF-8 on the wire cannot
            auto result = await(m_admin->importCustomer(import));
            QVERIFY(!result.ok());
            QCOMPARE(result.error().code, u"invalid_inputs"_s);
            return;
        }
        const auto [answered, json] =
            rawPost(u"/v1/billing.import"_s, {{"authorization", "Bearer " + AdminKey.toLatin1()}},
                    R"({"customer_id":"x\ud800","billables":[]})");
        QCOMPARE(answered, 400);
        QVERIFY2(json.value(u"message"_s).toString().contains(u"lone surrogate"_s),
                 qPrintable(json.value(u"message"_s).toString()));
    }

    // Integers only, read from their text: no fraction rounded away, nothing past range.
    void integerFieldsTakeIntegersOnly_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("field");
        QTest::newRow("a fraction too small for a double")
            << QByteArray(
                   R"({"customer_id":"pat","model_id":"acme/full","input_tokens":1.0000000000000001,"output_tokens":0})")
            << u"input_tokens"_s;
        QTest::newRow("past 2^64")
            << QByteArray(
                   R"({"customer_id":"pat","model_id":"acme/full","input_tokens":1,"output_tokens":18446744073709551617})")
            << u"output_tokens"_s;
        QTest::newRow("a half")
            << QByteArray(
                   R"({"customer_id":"pat","model_id":"acme/full","input_tokens":0.5,"output_tokens":0})")
            << u"input_tokens"_s;
        QTest::newRow("timestamp with an exponent")
            << QByteArray(
                   R"({"customer_id":"pat","model_id":"acme/full","input_tokens":1,"output_tokens":0,"timestamp":1.5e-3})")
            << u"timestamp"_s;
    }
    void integerFieldsTakeIntegersOnly()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, field);
        auto request = api::decodeBody<api::TrackTokensRequest>(body);
        QVERIFY(!request.ok());
        QVERIFY2(request.error().message.startsWith(field + u": "_s),
                 qPrintable(request.error().message));
        QVERIFY(api::decodeBody<api::TrackTokensRequest>(
                    R"({"customer_id":"pat","model_id":"acme/full","input_tokens":1.0,)"
                    R"("output_tokens":2e1})")
                    .ok()); // whole numbers in other spellings are integers
        if (overHttp()) {
            const auto [answered, json] =
                rawPost(u"/v1/meterdesk/track_tokens.price"_s,
                        {{"authorization", "Bearer " + PricingKey.toLatin1()}}, body);
            QCOMPARE(answered, 400);
            QVERIFY2(json.value(u"message"_s).toString().startsWith(field + u": "_s),
                     qPrintable(json.value(u"message"_s).toString()));
        }
    }

    // A search is text: bounded, its % and _ match only themselves, never a 500.
    void customerSearchIsText()
    {
        api::PageRequest search;
        search.search = QString(50000, u'%');
        auto tooLong = await(m_backend->listCustomers(search));
        QVERIFY(!tooLong.ok());
        QCOMPARE(tooLong.error().status, 400);
        QVERIFY(tooLong.error().message.startsWith(u"search: "_s));
        for (const QString &wildcard : {u"%"_s, u"_"_s, u"b_b"_s}) {
            search.search = wildcard;
            auto found = await(m_backend->listCustomers(search));
            QVERIFY2(found.ok(), found.ok() ? "" : qPrintable(found.error().message));
            QCOMPARE(found.value().list.size(), 0); // no customer has % or _ in it
        }
        search.search = u"bo"_s;
        QVERIFY(!await(m_backend->listCustomers(search)).value().list.isEmpty());
    }

    // docs/api.md, "Platform links": a live account needs a live key, and one
    // account belongs to one tenant (delta-t1 took acct_ok above).
    void platformLinkKeyAndAccountRules()
    {
        auto live = backendFor(AdminLiveKey);
        api::LinkOrganizationRequest link;
        link.organizationSlug = u"delta-t1"_s;
        link.liveAccountId = u"acct_live"_s;
        expectError(await(live->linkOrganization(link)), 404, u"not_found"_s,
                    u"live Stripe secret key"_s);
        link.liveAccountId.reset();
        link.testAccountId = u"acct_ok"_s;
        QVERIFY(await(live->linkOrganization(link)).ok());    // a live key links test accounts too
        QVERIFY(await(m_admin->linkOrganization(link)).ok()); // again: changes nothing
        link.organizationSlug = u"delta-t2"_s;
        expectError(await(m_admin->linkOrganization(link)), 409, u"account_already_linked"_s,
                    u"acct_ok"_s);
        link.testAccountId = u"acct_ok2"_s;
        QVERIFY(await(m_admin->linkOrganization(link)).ok());
    }

    // Token tracking changes balances, so these run last (Qt Test keeps declaration order).
    void trackTokensDeductsExactly()
    {
        const engine::ModelPrice *price = m_catalogue.find(u"openai/gpt-4o-mini"_s);
        QVERIFY(price);
        // (1000 × input + 500 × output) / 1e6, then the fixture's openai markup of 10 %.
        const api::Decimal base = price->input.mulDiv(1000, 1)
                                      .value()
                                      .plus(price->output.mulDiv(500, 1).value())
                                      .value()
                                      .mulDiv(1, 1'000'000)
                                      .value();
        const api::Decimal expected = base.mulDiv(110, 100).value();
        api::TrackTokensRequest call;
        call.customerId = u"ann"_s;
        call.modelId = u"openai/gpt-4o-mini"_s;
        call.inputTokens = 1000;
        call.outputTokens = 500;
        auto tracked = await(m_backend->trackTokens(call));
        QVERIFY2(tracked.ok(), tracked.ok() ? "" : qPrintable(tracked.error().message));
        QCOMPARE(tracked.value().value, expected);
        QCOMPARE(tracked.value().deductions.size(), 1);
        QCOMPARE(tracked.value().deductions.first().balanceId, u"b_ann_topup"_s);
        QCOMPARE(tracked.value().deductions.first().value, expected);
        const api::Decimal remaining =
            api::Decimal::fromRaw(2575 * (api::Decimal::One / 100)).minus(expected).value();
        QCOMPARE(tracked.value().balance->remaining, remaining);
        ListBalancesRequest request;
        request.customerId = u"ann"_s;
        request.featureId = u"ai_credits"_s;
        QCOMPARE(list(request).list.first().remaining, remaining);
    }

    void freeModelsRecordWithoutDeducting()
    {
        api::TrackTokensRequest call;
        call.customerId = u"ann"_s;
        call.modelId = u"openai/gpt-4o"_s; // the fixture's model markup is -100
        call.inputTokens = 5000;
        call.outputTokens = 5000;
        ListBalancesRequest request;
        request.customerId = u"ann"_s;
        request.featureId = u"ai_credits"_s;
        const api::Decimal before = list(request).list.first().remaining;
        auto tracked = await(m_backend->trackTokens(call));
        QVERIFY(tracked.ok());
        QVERIFY(tracked.value().value.isZero());
        QVERIFY(tracked.value().deductions.isEmpty());
        QCOMPARE(list(request).list.first().remaining, before);
    }

    void capStopsAtZeroAndOverflowGoesNegative()
    {
        ListBalancesRequest request;
        request.customerId = u"ann"_s;
        request.featureId = u"ai_credits"_s;
        const api::Decimal before = list(request).list.first().remaining;
        api::TrackTokensRequest call;
        call.customerId = u"ann"_s;
        call.modelId = u"openai/gpt-4o-mini"_s;
        call.inputTokens = 1'000'000'000; // far more than is left
        call.outputTokens = 0;
        auto capped = await(m_backend->trackTokens(call));
        QVERIFY(capped.ok());
        QCOMPARE(capped.value().deductions.first().value, before); // only what fits
        QVERIFY(list(request).list.first().remaining.isZero());
        call.overageBehavior = api::OverageBehavior::Overflow;
        auto overflowed = await(m_backend->trackTokens(call));
        QVERIFY(overflowed.ok());
        QCOMPARE(list(request).list.first().remaining, overflowed.value().value.negated());
    }

    void aRepeatedIdempotencyKeyDeductsOnce()
    {
        api::TrackTokensRequest call;
        call.customerId = u"ann"_s;
        call.modelId = u"openai/gpt-4o-mini"_s;
        call.inputTokens = 100000;
        call.overageBehavior = api::OverageBehavior::Overflow; // ann's credits ran out above
        ListBalancesRequest request;
        request.customerId = u"ann"_s;
        request.featureId = u"ai_credits"_s;
        const api::Decimal before = list(request).list.first().remaining;
        auto first = await(m_backend->trackTokens(call, u"conformance-once"_s));
        QVERIFY(first.ok());
        auto again = await(m_backend->trackTokens(call, u"conformance-once"_s));
        QVERIFY(!again.ok());
        QCOMPARE(again.error().status, 409);
        QCOMPARE(again.error().code, u"duplicate_idempotency_key"_s);
        QCOMPARE(list(request).list.first().remaining, before.minus(first.value().value).value());
    }

    void trackErrors_data()
    {
        QTest::addColumn<QString>("customer");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("feature");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QTest::newRow("unknown model")
            << u"ann"_s << u"openai/no-such-model"_s << QString() << 400 << u"invalid_request"_s;
        QTest::newRow("unknown customer")
            << u"zed"_s << u"openai/gpt-4o-mini"_s << QString() << 404 << u"customer_not_found"_s;
        QTest::newRow("unknown feature")
            << u"ann"_s << u"openai/gpt-4o-mini"_s << u"gold"_s << 404 << u"feature_not_found"_s;
        QTest::newRow("not a credit system")
            << u"ann"_s << u"openai/gpt-4o-mini"_s << u"api_calls"_s << 400 << u"invalid_request"_s;
    }
    void trackErrors()
    {
        QFETCH(QString, customer);
        QFETCH(QString, model);
        QFETCH(QString, feature);
        QFETCH(int, status);
        QFETCH(QString, code);
        api::TrackTokensRequest call;
        call.customerId = customer;
        call.modelId = model;
        call.inputTokens = 10;
        if (!feature.isEmpty())
            call.featureId = feature;
        auto tracked = await(m_backend->trackTokens(call));
        QVERIFY(!tracked.ok());
        QCOMPARE(tracked.error().status, status);
        QCOMPARE(tracked.error().code, code);
        QVERIFY(tracked.error().message.contains(customer) ||
                tracked.error().message.contains(model) ||
                tracked.error().message.contains(feature));
    }

    // Pricing vectors against data/pricing-catalogue.json and the markups of
    // data/pricing-workspace.json ("credits": model acme/full 50 %, provider
    // acme 20 %, default 5 %, acme/gift -100; "plain": none). Expected values
    // are worked by hand in the comments.
    void pricingVectors_data()
    {
        QTest::addColumn<QString>("customer");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QList<qint64>>(
            "tokens"); // input, output, cache read, cache write, reasoning, audio in, audio out
        QTest::addColumn<QString>("value");
        // 1000×3 + 200×15 + 10000×0.3 + 400×3.75 + 100×20 + 10×40 + 10×80 = 13700 → 0.0137
        QTest::newRow("own pool prices, model markup")
            << u"pat"_s << u"acme/full"_s << QList<qint64>{1000, 200, 10000, 400, 100, 10, 10}
            << u"0.02055"_s; // × 1.5
        QTest::newRow("own pool prices, no markup")
            << u"quinn"_s << u"acme/full"_s << QList<qint64>{1000, 200, 10000, 400, 100, 10, 10}
            << u"0.0137"_s;
        // No cache/reasoning/audio prices: 1000×2.5 + 500×10 + 2000×2.5 + 300×10 + 100×2.5
        // + 50×10 = 16250 → 0.01625
        QTest::newRow("fallbacks, provider markup")
            << u"pat"_s << u"acme/basic"_s << QList<qint64>{1000, 500, 2000, 0, 300, 100, 50}
            << u"0.0195"_s; // × 1.2
        // Audio only: 1000×2.5 (input) + 1000×10 (output) = 12500 → 0.0125
        QTest::newRow("audio fallbacks, no markup")
            << u"quinn"_s << u"acme/basic"_s << QList<qint64>{0, 0, 0, 0, 0, 1000, 1000}
            << u"0.0125"_s;
        // Provider "router", model "vendor/model-x": 1,000,000 × 1 → 1, default markup 5 %.
        QTest::newRow("nested model id, default markup")
            << u"pat"_s << u"router/vendor/model-x"_s << QList<qint64>{1000000, 0, 0, 0, 0, 0, 0}
            << u"1.05"_s;
        QTest::newRow("nested model id, no markup")
            << u"quinn"_s << u"router/vendor/model-x"_s
            << QList<qint64>{1000000, 500000, 0, 0, 0, 0, 0} << u"2"_s;
        // One token at 1 $/M with 5 %: 0.00000105, exact to the nano-dollar.
        QTest::newRow("one token")
            << u"pat"_s << u"flat/one"_s << QList<qint64>{1, 0, 0, 0, 0, 0, 0} << u"0.00000105"_s;
        QTest::newRow("free model")
            << u"pat"_s << u"acme/gift"_s << QList<qint64>{5000, 5000, 0, 0, 0, 0, 0} << u"0"_s;
    }
    void pricingVectors()
    {
        QFETCH(QString, customer);
        QFETCH(QString, model);
        QFETCH(QList<qint64>, tokens);
        QFETCH(QString, value);
        api::TrackTokensRequest call = callFor(customer, model, tokens.at(0));
        call.outputTokens = tokens.at(1);
        call.cacheReadTokens = tokens.at(2);
        call.cacheWriteTokens = tokens.at(3);
        call.reasoningTokens = tokens.at(4);
        call.audioInputTokens = tokens.at(5);
        call.audioOutputTokens = tokens.at(6);
        const QString balance = customer == "pat"_L1 ? u"b_pat"_s : u"b_quinn"_s;
        const api::Decimal before = remainingOf(*m_pricing, balance, customer);
        auto tracked = await(m_pricing->trackTokens(call));
        QVERIFY2(tracked.ok(), tracked.ok() ? "" : qPrintable(tracked.error().message));
        QCOMPARE(tracked.value().value, dec(value.toLatin1().constData()));
        const api::Decimal deducted =
            before.minus(remainingOf(*m_pricing, balance, customer)).value();
        QCOMPARE(deducted, tracked.value().value);
        QCOMPARE(tracked.value().deductions.isEmpty(), tracked.value().value.isZero());
    }

    void deductionOrderAcrossRowsAndRollovers()
    {
        // 16 at 1 $/M: rollovers first, soonest expiry first (2, then 3), then the
        // resetting plan row (10), then the standalone row that expires (1 of 5);
        // the standalone row without expiry is untouched.
        auto tracked = await(m_pricing->trackTokens(callFor(u"rae"_s, u"flat/one"_s, 16'000'000)));
        QVERIFY2(tracked.ok(), tracked.ok() ? "" : qPrintable(tracked.error().message));
        QCOMPARE(tracked.value().value, dec("16"));
        QCOMPARE(tracked.value().deductions.size(), 2);
        QCOMPARE(tracked.value().deductions.at(0).balanceId, u"b_rae_plan"_s);
        QCOMPARE(tracked.value().deductions.at(0).value, dec("15"));
        QCOMPARE(tracked.value().deductions.at(0).planId, u"team"_s);
        QVERIFY(tracked.value().deductions.at(0).reset.has_value());
        QCOMPARE(tracked.value().deductions.at(1).balanceId, u"b_rae_pack"_s);
        QCOMPARE(tracked.value().deductions.at(1).value, dec("1"));
        QVERIFY(!tracked.value().deductions.at(1).planId);
        QCOMPARE(tracked.value().balance->remaining, dec("8"));
        QCOMPARE(remainingOf(*m_pricing, u"b_rae_pack"_s, u"rae"_s), dec("4"));
        QCOMPARE(remainingOf(*m_pricing, u"b_rae_old"_s, u"rae"_s), dec("4"));
        QCOMPARE(remainingOf(*m_pricing, u"b_rae_plan"_s, u"rae"_s), dec("0"));
    }

    void capAndOverflowAtTheBoundary_data()
    {
        QTest::addColumn<QString>("customer");
        QTest::addColumn<qint64>("tokens");
        QTest::addColumn<bool>("overflow");
        QTest::addColumn<QString>("deducted");
        QTest::addColumn<QString>("remaining");
        // Each customer holds 0.5 of "plain" (no markup); 1 token costs 0.000001.
        QTest::newRow("exactly what is left, cap")
            << u"vic"_s << qint64(500000) << false << u"0.5"_s << u"0"_s;
        QTest::newRow("one token more, cap")
            << u"uma"_s << qint64(500001) << false << u"0.5"_s << u"0"_s;
        QTest::newRow("one token more, overflow")
            << u"wes"_s << qint64(500001) << true << u"0.500001"_s << u"-0.000001"_s;
    }
    void capAndOverflowAtTheBoundary()
    {
        QFETCH(QString, customer);
        QFETCH(qint64, tokens);
        QFETCH(bool, overflow);
        QFETCH(QString, deducted);
        QFETCH(QString, remaining);
        api::TrackTokensRequest call = callFor(customer, u"flat/one"_s, tokens);
        if (overflow)
            call.overageBehavior = api::OverageBehavior::Overflow;
        auto tracked = await(m_pricing->trackTokens(call));
        QVERIFY2(tracked.ok(), tracked.ok() ? "" : qPrintable(tracked.error().message));
        QCOMPARE(tracked.value().value, api::Decimal::fromRaw(tokens * 1000)); // 1e-6 each
        QCOMPARE(tracked.value().deductions.size(), 1);
        QCOMPARE(tracked.value().deductions.first().value, dec(deducted.toLatin1().constData()));
        QCOMPARE(tracked.value().balance->remaining, dec(remaining.toLatin1().constData()));
        QCOMPARE(remainingOf(*m_pricing, u"b_"_s + customer, customer),
                 dec(remaining.toLatin1().constData()));
    }

    void autoDetectionFailures()
    {
        auto several = await(m_pricing->trackTokens(callFor(u"sam"_s, u"flat/one"_s, 10)));
        QCOMPARE(several.error().status, 400);
        QCOMPARE(several.error().code, u"invalid_request"_s);
        QVERIFY(several.error().message.contains(u"credits"_s));
        QVERIFY(several.error().message.contains(u"plain"_s));
        api::TrackTokensRequest named = callFor(u"sam"_s, u"flat/one"_s, 1'000'000);
        named.featureId = u"plain"_s; // naming one resolves it
        auto resolved = await(m_pricing->trackTokens(named));
        QVERIFY(resolved.ok());
        QCOMPARE(resolved.value().deductions.first().balanceId, u"b_sam_b"_s);
        auto none = await(m_pricing->trackTokens(callFor(u"tia"_s, u"flat/one"_s, 10)));
        QCOMPARE(none.error().status, 404);
        QCOMPARE(none.error().code, u"feature_not_found"_s);
        QVERIFY(none.error().message.contains(u"tia"_s));
    }

    void asyncCallsAreQueuedThenApplied()
    {
        api::TrackTokensRequest call = callFor(u"xena"_s, u"flat/one"_s, 1'000'000);
        call.async = true;
        auto queued = await(m_pricing->trackTokens(call, u"xena-async-1"_s));
        QVERIFY2(queued.ok(), queued.ok() ? "" : qPrintable(queued.error().message));
        QVERIFY(queued.value().queued);
        QVERIFY(queued.value().deductions.isEmpty());
        // The worker applies it shortly after: poll the balance, no fixed wait.
        QTRY_COMPARE_WITH_TIMEOUT(remainingOf(*m_pricing, u"b_xena"_s, u"xena"_s), dec("9"), 10000);
        // A repeated key is refused at once, queued or applied.
        auto again = await(m_pricing->trackTokens(call, u"xena-async-1"_s));
        QCOMPARE(again.error().status, 409);
        // What can be checked at once is: an unknown customer or model is not queued.
        api::TrackTokensRequest unknown = callFor(u"nobody"_s, u"flat/one"_s, 1);
        unknown.async = true;
        QCOMPARE(await(m_pricing->trackTokens(unknown)).error().code, u"customer_not_found"_s);
        unknown = callFor(u"xena"_s, u"flat/none"_s, 1);
        unknown.async = true;
        QCOMPARE(await(m_pricing->trackTokens(unknown)).error().status, 400);
        if (!overHttp())
            return;
        // On the wire: 204 and no body.
        const auto [status, json] = rawPost(
            u"/v1/balances.track_tokens"_s,
            {{"authorization", "Bearer " + PricingKey.toLatin1()},
             {"content-type", "application/json"}},
            R"({"customer_id":"xena","model_id":"flat/one","input_tokens":1000000,"output_tokens":0,"async":true})");
        QCOMPARE(status, 204);
        QVERIFY(json.isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(remainingOf(*m_pricing, u"b_xena"_s, u"xena"_s), dec("8"), 10000);
    }

    void twoServersTrackOneCustomerWithoutLostUpdates()
    {
        if (!overHttp())
            QSKIP("about server processes");
        // Two meterdesk-server processes on one database, four clients each, all
        // charging quinn 1 a call; half of the calls are async (both servers'
        // queue workers apply them).
        test::ServerProcess second;
        const QString problem = second.start(m_database.location(), serverArguments());
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const api::Decimal before = remainingOf(*m_pricing, u"b_quinn"_s, u"quinn"_s);
        constexpr int Clients = 8;
        constexpr int Calls = 25;
        std::atomic<int> failures = 0;
        std::vector<std::thread> threads;
        for (int c = 0; c < Clients; ++c) {
            threads.emplace_back([&, c] {
                remote::RemoteBackend::Options options;
                options.timeoutMs = 30000;
                if (mode() == "remote-tls"_L1)
                    options.caCertificates = testCa();
                remote::RemoteBackend client(c % 2 ? second.url() : m_server.url(), PricingKey,
                                             options);
                for (int i = 0; i < Calls; ++i) {
                    api::TrackTokensRequest call = callFor(u"quinn"_s, u"flat/one"_s, 1'000'000);
                    call.async = i % 2 == 1;
                    if (!await(client.trackTokens(call)).ok())
                        ++failures;
                }
            });
        }
        for (std::thread &thread : threads)
            thread.join();
        QCOMPARE(failures.load(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(remainingOf(*m_pricing, u"b_quinn"_s, u"quinn"_s),
                                  before.minus(api::Decimal::fromInteger(Clients * Calls)).value(),
                                  20000);
        QCOMPARE(second.stop(), 0);
    }

    // billing.import against the pricing workspace's plan "team" (10 "plain"
    // a month) and features.
    api::ImportCustomerRequest importOf(const QString &customer, double usage)
    {
        api::ImportCustomerRequest request;
        request.customerId = customer;
        request.processors = {{api::Processor::Stripe, u"cus_"_s + customer}};
        request.customerData =
            api::CustomerData{u"Imported "_s + customer, customer + u"@example.com"_s, {}, {}};
        api::Billable billable;
        billable.link = api::BillableLink{u"sub_"_s + customer, {}};
        billable.plan.planId = u"team"_s;
        billable.plan.balances = {
            {u"plain"_s, api::Decimal::parse(QString::number(usage)), {}, {}, {}}};
        request.billables = {billable};
        return request;
    }

    api::JsonValue dumpOfDatabase()
    {
        engine::Engine reader(m_database.location());
        if (!reader.open().ok())
            qFatal("cannot open the database");
        return reader.dumpWorkspace().value();
    }

    void importDryRunWritesNothing()
    {
        const api::JsonValue before = dumpOfDatabase();
        api::ImportCustomerRequest request = importOf(u"imp1"_s, 4);
        request.dryRun = true;
        auto preview = await(m_pricing->importCustomer(request));
        QVERIFY2(preview.ok(), preview.ok() ? "" : qPrintable(preview.error().message));
        QCOMPARE(preview.value().flashed.size(), 1);
        QCOMPARE(preview.value().flashed.first().planId, u"team"_s);
        QVERIFY(!preview.value().flashed.first().skipped);
        QVERIFY(!preview.value().flashed.first().customerProductId);
        QVERIFY(!preview.value().customer);
        QCOMPARE(dumpOfDatabase(), before); // not even the customer
    }

    void importThenReimportIsSkipped()
    {
        auto imported = await(m_pricing->importCustomer(importOf(u"imp1"_s, 4)));
        QVERIFY2(imported.ok(), imported.ok() ? "" : qPrintable(imported.error().message));
        const api::FlashedPlan flashed = imported.value().flashed.first();
        QVERIFY(!flashed.skipped);
        QVERIFY(flashed.customerProductId);
        QVERIFY(imported.value().customer);
        QCOMPARE(imported.value().customer->name, u"Imported imp1"_s);
        // The usage landed on the plan's grant: 10 granted, 4 used.
        ListBalancesRequest request;
        request.customerId = u"imp1"_s;
        auto rows = await(m_pricing->listBalances(request));
        QCOMPARE(rows.value().list.size(), 1);
        QCOMPARE(rows.value().list.first().remaining, dec("6"));
        QCOMPARE(rows.value().list.first().usage, dec("4"));
        QCOMPARE(rows.value().list.first().planId, u"team"_s);
        QVERIFY(rows.value().list.first().reset.has_value());
        // Again: skipped, nothing changes.
        const api::JsonValue before = dumpOfDatabase();
        auto again = await(m_pricing->importCustomer(importOf(u"imp1"_s, 9)));
        QVERIFY(again.ok());
        QVERIFY(again.value().flashed.first().skipped);
        QCOMPARE(again.value().flashed.first().reason, u"already_active"_s);
        QCOMPARE(again.value().flashed.first().customerProductId, flashed.customerProductId);
        QCOMPARE(dumpOfDatabase().value("organizations"_L1), before.value("organizations"_L1));
        if (!overHttp())
            return;
        // On the wire the customer object is camelCase (§2.3).
        const auto [status, json] = rawPost(
            u"/v1/billing.import"_s,
            {{"authorization", "Bearer " + PricingKey.toLatin1()}, {"x-api-version", "2.4.0"}},
            api::toJsonText(importOf(u"imp1"_s, 4)));
        QCOMPARE(status, 200);
        const QJsonObject customer = json.value(u"customer"_s).toObject();
        QCOMPARE(customer.value(u"id"_s).toString(), u"imp1"_s);
        QVERIFY(customer.contains(u"createdAt"_s));
        QVERIFY(!customer.contains(u"created_at"_s));
    }

    void importExpiresPlansTheBodyLeavesOut()
    {
        api::ImportCustomerRequest request = importOf(u"imp1"_s, 0);
        request.billables.clear(); // imp1 has "team" from stripe; this stripe import names none
        auto imported = await(m_pricing->importCustomer(request));
        QVERIFY2(imported.ok(), imported.ok() ? "" : qPrintable(imported.error().message));
        QCOMPARE(imported.value().flashed.size(), 1);
        QCOMPARE(imported.value().flashed.first().planId, u"team"_s);
        QCOMPARE(imported.value().flashed.first().expired, std::optional(true));
        QCOMPARE(imported.value().flashed.first().status, api::PlanStatus::Expired);
        ListBalancesRequest active;
        active.customerId = u"imp1"_s;
        QVERIFY(await(m_pricing->listBalances(active)).value().list.isEmpty());
    }

    void importErrors_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("names"); // the message names this
        const QByteArray plan = R"("billables":[{"plan":{"plan_id":"team")";
        QTest::newRow("unknown plan")
            << QByteArray(R"({"customer_id":"imp2","billables":[{"plan":{"plan_id":"gold"}}]})")
            << 404 << u"product_not_found"_s << u"gold"_s;
        QTest::newRow("unknown feature")
            << QByteArray(R"({"customer_id":"imp2",)" + plan +
                          R"(,"balances":[{"feature_id":"nope","usage":1}]}}]})")
            << 404 << u"feature_not_found"_s << u"nope"_s;
        QTest::newRow("feature not in the plan")
            << QByteArray(R"({"customer_id":"imp2",)" + plan +
                          R"(,"balances":[{"feature_id":"calls","usage":1}]}}]})")
            << 400 << u"invalid_inputs"_s << u"billables[0].plan.balances[0].feature_id"_s;
        QTest::newRow("negative usage")
            << QByteArray(R"({"customer_id":"imp2",)" + plan +
                          R"(,"balances":[{"feature_id":"plain","usage":-1}]}}]})")
            << 400 << u"invalid_inputs"_s << u"billables[0].plan.balances[0].usage"_s;
        QTest::newRow("bad status word")
            << QByteArray(R"({"customer_id":"imp2",)" + plan + R"(,"status":"paused"}}]})") << 400
            << u"invalid_inputs"_s << u"billables[0].plan.status"_s;
        QTest::newRow("conflicting processors")
            << QByteArray(R"({"customer_id":"imp2","billables":[],"processors":[)"
                          R"({"type":"stripe","id":"cus_a"},{"type":"stripe","id":"cus_b"}]})")
            << 400 << u"invalid_inputs"_s << u"processors[1].id"_s;
        QTest::newRow("processor differs from the stored one")
            << QByteArray(R"({"customer_id":"imp1","billables":[],"processors":[)"
                          R"({"type":"stripe","id":"cus_other"}]})")
            << 400 << u"invalid_inputs"_s << u"cus_imp1"_s;
    }
    void importErrors()
    {
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        QFETCH(QString, code);
        QFETCH(QString, names);
        auto request = api::decodeBody<api::ImportCustomerRequest>(body);
        api::Result<api::ImportCustomerResponse> imported =
            request ? await(m_pricing->importCustomer(request.value()))
                    : api::Result<api::ImportCustomerResponse>(request.error());
        QVERIFY(!imported.ok());
        QCOMPARE(imported.error().status, status);
        QCOMPARE(imported.error().code, code);
        QVERIFY2(imported.error().message.contains(names), qPrintable(imported.error().message));
        if (overHttp()) { // the server decodes and answers the same
            const auto [answered, json] =
                rawPost(u"/v1/billing.import"_s,
                        {{"authorization", "Bearer " + PricingKey.toLatin1()}}, body);
            QCOMPARE(answered, status);
            QCOMPARE(json.value(u"code"_s).toString(), code);
        }
    }

    void pricingACallRecordsNothing()
    {
        api::TrackTokensRequest call = callFor(u"pat"_s, u"acme/full"_s, 1000);
        call.outputTokens = 200;
        call.cacheReadTokens = 10000;
        const api::Decimal before = remainingOf(*m_pricing, u"b_pat"_s, u"pat"_s);
        auto quote = await(m_pricing->priceCall(call));
        QVERIFY2(quote.ok(), quote.ok() ? "" : qPrintable(quote.error().message));
        // (1000×3 + 200×15 + 10000×0.3) / 1e6 = 0.009, × 1.5 from the model markup.
        QCOMPARE(quote.value().baseCost, dec("0.009"));
        QCOMPARE(quote.value().markup, dec("50"));
        QCOMPARE(quote.value().markupSource, u"model"_s);
        QCOMPARE(quote.value().featureId, u"credits"_s);
        QCOMPARE(quote.value().value, dec("0.0135"));
        QCOMPARE(quote.value().pools.size(), 3);
        QCOMPARE(quote.value().pools.at(2).pricePerMillion, dec("0.3"));
        QCOMPARE(remainingOf(*m_pricing, u"b_pat"_s, u"pat"_s), before);
        call.customerId.clear(); // no customer: the catalogue price alone
        QCOMPARE(await(m_pricing->priceCall(call)).value().markupSource, u"none"_s);
        call.customerId = u"sam"_s; // two credit systems: the same error as tracking
        QCOMPARE(await(m_pricing->priceCall(call)).error().code, u"invalid_request"_s);
        auto models = await(m_pricing->listModels());
        QVERIFY(models.ok());
        const auto nested = std::find_if(
            models.value().list.cbegin(), models.value().list.cend(),
            [](const api::ModelInfo &model) { return model.id == "router/vendor/model-x"_L1; });
        QVERIFY(nested != models.value().list.cend());
        QCOMPARE(nested->output, dec("2"));
        QVERIFY(!nested->cacheRead);
    }

    void usageEventsFilter()
    {
        api::PageRequest request;
        request.customerId = u"pat"_s;
        request.modelId = u"acme/full"_s;
        auto events = await(m_pricing->listUsageEvents(request));
        QVERIFY2(events.ok(), events.ok() ? "" : qPrintable(events.error().message));
        QCOMPARE(events.value().list.size(), 1); // from pricingVectors
        QCOMPARE(events.value().list.first().value, dec("0.02055"));
        QCOMPARE(events.value().list.first().tokens.value(u"cache_read_tokens"_s), 10000);
        request.modelId.reset();
        request.featureId = u"credits"_s;
        QCOMPARE(await(m_pricing->listUsageEvents(request)).value().list.size(), 5);
        request.from = QDateTime::currentMSecsSinceEpoch() + 3'600'000; // nothing that late
        QVERIFY(await(m_pricing->listUsageEvents(request)).value().list.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestConformance)
#include "tst_conformance.moc"
