// Conformance, audit_log.list: every write through the API is recorded with
// who made it and the resource before and after; failed writes and dry runs
// record nothing; filters and paging; no secret ever appears. Runs three
// ways: tests/conformance/CMakeLists.txt.
#include "tests/conformance/ConformanceSuite.h"

using namespace md;
using namespace md::test::conformance;
using api::AuditLogRequest;

class TestAuditConformance final : public ConformanceSuite
{
    Q_OBJECT

    QList<api::AuditEntry> entries(const AuditLogRequest &request = {})
    {
        auto page = await(m_admin->listAuditLog(request));
        if (!page)
            qFatal("audit_log.list failed: %s", qPrintable(page.error().message));
        return page.value().list;
    }

    api::AuditEntry newestOf(const QString &type, const QString &id)
    {
        AuditLogRequest request;
        request.resourceType = type;
        request.resourceId = id;
        request.limit = 1;
        const auto found = entries(request);
        if (found.isEmpty())
            qFatal("no audit entry for %s %s", qPrintable(type), qPrintable(id));
        return found.first();
    }

private Q_SLOTS:
    void theWorkspaceLoadIsRecordedForThePersonLoading()
    {
        const auto load = newestOf(u"organization"_s, u"org_delta"_s);
        QCOMPARE(load.action, u"workspace.load"_s);
        QCOMPARE(load.actor.kind, u"console"_s);
        QVERIFY(!load.actor.keyId);
        QVERIFY(load.before.isNull());
        QCOMPARE(load.after.value("customers"_L1).numberText(), QByteArrayView("1"));
    }

    void aProductUpdateRecordsBeforeAfterAndTheKey()
    {
        api::UpdateProductRequest rename;
        rename.name = u"Draft, renamed"_s;
        const auto updated = await(m_admin->updateProduct(u"draft"_s, rename));
        QVERIFY2(updated.ok(), updated.ok() ? "" : qPrintable(updated.error().message));
        const auto entry = newestOf(u"product"_s, u"draft"_s);
        QCOMPARE(entry.action, u"product.update"_s);
        QCOMPARE(entry.actor.kind, u"key"_s);
        QVERIFY(entry.actor.keyId && entry.actor.keyId->startsWith(u"key_"_s));
        QVERIFY(entry.before.value("name"_L1).toString() != u"Draft, renamed"_s);
        QCOMPARE(entry.after.value("name"_L1).toString(), u"Draft, renamed"_s);
        QVERIFY(entry.at > 0);
        QVERIFY(entry.id.startsWith(u"audit_"_s));
    }

    void aFailedWriteRecordsNothing()
    {
        const auto before = entries();
        api::UpdateProductRequest nothing;
        nothing.name = u"x"_s;
        QVERIFY(!await(m_admin->updateProduct(u"no_such_product"_s, nothing)).ok());
        api::UpdateRewardRequest unknown;
        unknown.rewardId = u"no_such_reward"_s;
        unknown.coupon = api::CouponUpdate{};
        QVERIFY(!await(m_admin->updateReward(unknown)).ok());
        QCOMPARE(entries().first().id, before.first().id);
    }

    // Issue 51: a dry run answers the product as the update would store it
    // (a version it would add made now, with its own created_at) and keeps
    // nothing: no version, no item, no audit entry. Dora is on basic's only
    // version, so changed items would add version 2.
    void productDryRunWritesNothing()
    {
        api::AuditLogRequest basicLog;
        basicLog.resourceType = u"product"_s;
        basicLog.resourceId = u"basic"_s;
        const qsizetype logged = await(m_admin->listAuditLog(basicLog)).value().list.size();
        const api::Product basic = product(u"basic"_s, 1);
        api::UpdateProductRequest request;
        api::ProductItem item = basic.items.first();
        item.includedUsage = api::Decimal::fromInteger(250);
        request.items = QList<api::ProductItem>{item};
        request.dryRun = true;
        auto previewed = await(m_admin->updateProduct(u"basic"_s, request));
        QVERIFY2(previewed.ok(), previewed.ok() ? "" : qPrintable(previewed.error().message));
        QCOMPARE(previewed.value().version, 2);
        QVERIFY(previewed.value().createdAt != basic.createdAt);
        QCOMPARE(previewed.value().items, request.items.value());
        QCOMPARE(product(u"basic"_s, 2), api::Product()); // not kept
        QCOMPARE(product(u"basic"_s, 1), basic);
        QCOMPARE(await(m_admin->listAuditLog(basicLog)).value().list.size(), logged);

        // Nobody is on draft: the same version, changed in place, and kept as it was.
        const api::Product draft = product(u"draft"_s, 1);
        previewed = await(m_admin->updateProduct(u"draft"_s, request));
        QVERIFY(previewed.ok());
        QCOMPARE(previewed.value().version, 1);
        QCOMPARE(previewed.value().createdAt, draft.createdAt);
        QCOMPARE(product(u"draft"_s, 1), draft);
    }

    void rewardsImportsAndControlsAreRecorded()
    {
        api::UpdateRewardRequest bonus;
        bonus.rewardId = u"bonus"_s;
        api::FeatureGrantUpdate grant;
        grant.name = u"Bonus (audited)"_s;
        bonus.featureGrant = grant;
        QVERIFY(await(m_admin->updateReward(bonus)).ok());
        const auto reward = newestOf(u"reward"_s, u"bonus"_s);
        QCOMPARE(reward.action, u"reward.update"_s);
        // As rewards.update answers it: {"feature_grant": {...}}.
        QCOMPARE(reward.after.value("feature_grant"_L1).value("name"_L1).toString(),
                 u"Bonus (audited)"_s);
        QCOMPARE(reward.before.value("feature_grant"_L1).value("name"_L1).toString(), u"Bonus"_s);

        api::ImportCustomerRequest dry;
        dry.customerId = u"audited-dry"_s;
        dry.dryRun = true;
        QVERIFY(await(m_admin->importCustomer(dry)).ok());
        AuditLogRequest dryEntries;
        dryEntries.resourceType = u"customer"_s;
        dryEntries.resourceId = u"audited-dry"_s;
        QVERIFY(entries(dryEntries).isEmpty()); // a dry run writes nothing

        api::ImportCustomerRequest real;
        real.customerId = u"audited"_s;
        api::CustomerData data;
        data.name = u"Audited Ltd"_s;
        real.customerData = data;
        QVERIFY(await(m_admin->importCustomer(real)).ok());
        const auto imported = newestOf(u"customer"_s, u"audited"_s);
        QCOMPARE(imported.action, u"customer.import"_s);
        QVERIFY(imported.before.isNull());
        QCOMPARE(imported.after.value("name"_L1).toString(), u"Audited Ltd"_s);

        api::UpdateBillingControlsRequest controls;
        controls.customerId = u"dora"_s;
        controls.hasUsageAlerts = true;
        controls.billingControls.usageAlerts = {{std::nullopt, true, api::Decimal::fromInteger(80),
                                                 api::ThresholdType::UsagePercentage,
                                                 std::nullopt}};
        QVERIFY(await(m_admin->updateBillingControls(controls)).ok());
        QCOMPARE(newestOf(u"billing_controls"_s, u"dora"_s).action, u"billing_controls.update"_s);
    }

    // An update that sends what is stored answers the record, unchanged,
    // and records nothing: the log holds only real changes.
    void aWriteThatChangesNothingRecordsNothing()
    {
        api::UpdateProductRequest rename;
        rename.name = u"Draft, once more"_s;
        api::UpdateRewardRequest reward;
        reward.rewardId = u"bonus"_s;
        reward.featureGrant = api::FeatureGrantUpdate{};
        reward.featureGrant->name = u"Bonus, once more"_s;
        api::UpdateBillingControlsRequest controls;
        controls.customerId = u"dora"_s;
        controls.hasOverageAllowed = true;
        controls.billingControls.overageAllowed = {{u"calls"_s, false}};
        for (int attempt = 0; attempt < 2; ++attempt) {
            const QString newest = entries().first().id;
            const auto product = await(m_admin->updateProduct(u"draft"_s, rename));
            QVERIFY2(product.ok(), product.ok() ? "" : qPrintable(product.error().message));
            QCOMPARE(product.value().name, *rename.name);
            QVERIFY(await(m_admin->updateReward(reward)).ok());
            const auto stored = await(m_admin->updateBillingControls(controls));
            QVERIFY2(stored.ok(), stored.ok() ? "" : qPrintable(stored.error().message));
            // The first time each changes; the second, none does.
            QCOMPARE(entries().first().id == newest, attempt == 1);
        }
    }

    void filtersAndPages()
    {
        AuditLogRequest byKey;
        byKey.actor = newestOf(u"product"_s, u"draft"_s).actor.keyId;
        const auto mine = entries(byKey);
        QVERIFY(!mine.isEmpty());
        for (const api::AuditEntry &entry : mine)
            QCOMPARE(entry.actor.keyId, byKey.actor);

        AuditLogRequest later;
        later.since = mine.first().at + 1;
        for (const api::AuditEntry &entry : entries(later))
            QVERIFY(entry.at >= *later.since);

        // Newest first, one at a time, every entry once.
        const auto all = entries();
        AuditLogRequest one;
        one.limit = 1;
        QStringList walked;
        for (int guard = 0; guard < 100; ++guard) {
            auto page = await(m_admin->listAuditLog(one));
            QVERIFY(page.ok());
            for (const api::AuditEntry &entry : page.value().list)
                walked.append(entry.id);
            if (!page.value().hasMore)
                break;
            one.startCursor = *page.value().nextCursor;
        }
        QStringList ids;
        for (const api::AuditEntry &entry : all)
            ids.append(entry.id);
        QCOMPARE(walked, ids);
        QVERIFY(ids.size() >= 5);
    }

    void noSecretIsEverRecorded()
    {
        AuditLogRequest all;
        all.limit = 200;
        const QByteArray text = api::toJsonText(await(m_admin->listAuditLog(all)).value());
        for (const char *secret : {"sk_test_", "sk_live_", "hash"})
            QVERIFY2(!text.contains(secret), secret);
    }

    void errors()
    {
        auto forbidden = await(backendFor(m_readOnlyBillingKey)->listAuditLog({}));
        expectError(forbidden, 403, u"insufficient_scopes"_s, u"balances:read"_s);
        AuditLogRequest bad;
        bad.startCursor = u"nonsense!"_s;
        expectError(await(m_admin->listAuditLog(bad)), 400, u"invalid_cursor"_s, u"start_cursor"_s);
        expectError(api::decodeBody<AuditLogRequest>(R"({"resource_id":"x"})"), 400,
                    u"invalid_inputs"_s, u"resource_type"_s);
    }

    void environmentsNeverMix()
    {
        auto live = backendFor(AdminLiveKey);
        auto page = await(live->listAuditLog({}));
        if (!page) // the live admin key holds platform:write only
            QCOMPARE(page.error().status, 403);
        else
            for (const api::AuditEntry &entry : page.value().list)
                QCOMPARE(entry.action, u"workspace.load"_s);
    }
};

QTEST_GUILESS_MAIN(TestAuditConformance)
#include "tst_conformance_audit.moc"
