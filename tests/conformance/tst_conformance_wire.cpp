// Conformance, What every endpoint shares: HTTP rules, the id rule, integers, lone surrogates, the
// extensions' reads, two servers on one database. Runs three ways:
// tests/conformance/CMakeLists.txt.
#include "tests/conformance/ConformanceSuite.h"

using namespace md;
using namespace md::test::conformance;

class TestWireConformance final : public ConformanceSuite
{
    Q_OBJECT

private Q_SLOTS:
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
        // Three characters and more go through the trigram index (SQLite's
        // FTS5, PostgreSQL's pg_trgm): its query syntax is text there too.
        for (const QString &syntax : {u"\"bob\""_s, u"bo*"_s, u"NEAR(bob)"_s, u"id:bob"_s,
                                      u"b\"o\"b"_s, u"bob OR ann"_s, u"^bob"_s}) {
            search.search = syntax;
            auto found = await(m_backend->listCustomers(search));
            QVERIFY2(found.ok(), qPrintable(syntax));
            QCOMPARE(found.value().list.size(), 0);
        }
        for (const QString &part : {u"BOB"_s, u"ob@"_s, u"Bob@Example"_s}) {
            search.search = part;
            auto found = await(m_backend->listCustomers(search));
            QVERIFY2(found.ok() && found.value().list.size() == 1, qPrintable(part));
            QCOMPARE(found.value().list.first().id, u"bob"_s);
        }
    }

    // docs/api.md, "Platform links": a live account needs a live key, and one
    // account belongs to one tenant (delta-t1 took acct_ok above).
};

QTEST_GUILESS_MAIN(TestWireConformance)
#include "tst_conformance_wire.moc"
