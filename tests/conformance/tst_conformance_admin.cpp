// Conformance, Admin writes: products, rewards, platform links, the billing portal, and the scopes
// they need. Runs three ways: tests/conformance/CMakeLists.txt.
#include "tests/conformance/ConformanceSuite.h"

using namespace md;
using namespace md::test::conformance;

class TestAdminConformance final : public ConformanceSuite
{
    Q_OBJECT

public:
    // The accounts Delta's Stripe key reaches (the mock's).
    TestAdminConformance() { m_stripeAccounts = {u"acct_ok"_s, u"acct_ok2"_s}; }

private Q_SLOTS:
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

    // "A plan's versions are one plan" (docs/api.md): a filter by plan
    // lists, and totals, customers of every version alike.
    void planFilterCoversEveryVersion()
    {
        api::ImportCustomerRequest request;
        request.customerId = u"on-v2"_s;
        api::Billable billable;
        billable.plan.planId = u"basic"_s;
        billable.plan.version = 2;
        request.billables = {billable};
        auto imported = await(m_admin->importCustomer(request));
        QVERIFY2(imported.ok(), imported.ok() ? "" : qPrintable(imported.error().message));
        ListBalancesRequest basic;
        basic.planId = std::optional<QString>(u"basic"_s);
        const auto listed = await(m_admin->listBalances(basic));
        QVERIFY(listed.ok());
        QStringList customers;
        for (const auto &row : listed.value().list)
            customers << row.customerId;
        QVERIFY2(customers.contains(u"dora"_s) && customers.contains(u"on-v2"_s),
                 qPrintable(customers.join(u", "_s)));
        api::BalanceTotalsRequest totals;
        totals.filter = basic;
        auto figures = await(m_admin->balanceTotals(totals));
        QVERIFY(figures.ok());
        QCOMPARE(figures.value().total.balances, qint64(customers.size()));
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
        // Usage above the last band would have no price (issue 51).
        QTest::newRow("tiers without a last inf")
            << u"draft"_s
            << QByteArray(R"({"items":[{"feature_id":"calls"},{"feature_id":"seats"},)"
                          R"({"feature_id":"calls","tiers":[{"to":100000,"amount":0.002}]}]})")
            << 400 << u"invalid_inputs"_s << u"items[2].tiers: must end with a tier up to"_s;
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
        QTest::newRow("Stripe's own reason, the key shown by its hint only")
            << QByteArray(R"({"organization_slug":"delta-t1","test_account_id":"acct_far"})") << 404
            << u"not_found"_s << u"does not have access to account 'acct_far'"_s;
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
        const auto answer = request ? await(m_admin->linkOrganization(request.value()))
                                    : api::Result<api::LinkOrganizationResponse>(request.error());
        expectError(answer, status, code, names);
        if (names.startsWith(u"does not have access"_s)) { // Stripe's words, its key hidden
            QVERIFY2(answer.error().message.contains(u"Stripe says"_s) &&
                         answer.error().message.contains(u"sk_test_…"_s) &&
                         !answer.error().message.contains(u"meterdesk_conformance"_s) &&
                         !answer.error().message.contains(u"sk_test_met"_s),
                     qPrintable(answer.error().message));
        }
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
};

QTEST_GUILESS_MAIN(TestAdminConformance)
#include "tst_conformance_admin.moc"
