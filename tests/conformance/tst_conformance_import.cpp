// Conformance, billing.import: dry runs, re-imports, expiry, errors.
// Runs three ways: tests/conformance/CMakeLists.txt.
#include "tests/conformance/ConformanceSuite.h"

using namespace md;
using namespace md::test::conformance;

class TestImportConformance final : public ConformanceSuite
{
    Q_OBJECT

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
        billable.plan.planId = u"team"_s;
        billable.plan.balances = {
            {u"plain"_s, api::Decimal::parse(QString::number(usage)), {}, {}, {}}};
        request.billables = {billable};
        return request;
    }

private Q_SLOTS:
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

    // Sending the same import again changes nothing whatever the plan's
    // status, and a canceled or expired plan grants no active balance.
    void importOfEveryStatusTwiceChangesNothing_data()
    {
        QTest::addColumn<api::PlanStatus>("status");
        QTest::addColumn<QString>("repeated"); // the second import's reason
        QTest::newRow("active") << api::PlanStatus::Active << u"already_active"_s;
        QTest::newRow("trialing") << api::PlanStatus::Trialing << u"already_active"_s;
        QTest::newRow("past_due") << api::PlanStatus::PastDue << u"already_active"_s;
        QTest::newRow("canceled") << api::PlanStatus::Canceled << u"already_ended"_s;
        QTest::newRow("expired") << api::PlanStatus::Expired << u"already_ended"_s;
    }
    void importOfEveryStatusTwiceChangesNothing()
    {
        QFETCH(api::PlanStatus, status);
        QFETCH(QString, repeated);
        const QString customer = u"twice-"_s + QString(api::toWire(status));
        api::ImportCustomerRequest request = importOf(customer, 4);
        request.billables.first().plan.status = status;
        auto first = await(m_pricing->importCustomer(request));
        QVERIFY2(first.ok(), first.ok() ? "" : qPrintable(first.error().message));
        QVERIFY(!first.value().flashed.first().skipped);
        const bool ended =
            status == api::PlanStatus::Canceled || status == api::PlanStatus::Expired;
        ListBalancesRequest active;
        active.customerId = customer;
        QCOMPARE(await(m_pricing->listBalances(active)).value().list.size(), ended ? 0 : 1);
        const api::JsonValue before = dumpOfDatabase();
        for (bool dryRun : {true, false}) {
            request.dryRun = dryRun;
            auto again = await(m_pricing->importCustomer(request));
            QVERIFY2(again.ok(), again.ok() ? "" : qPrintable(again.error().message));
            QCOMPARE(again.value().flashed.size(), 1);
            QVERIFY(again.value().flashed.first().skipped);
            QCOMPARE(again.value().flashed.first().reason, repeated);
            QCOMPARE(again.value().flashed.first().customerProductId,
                     dryRun ? std::nullopt : first.value().flashed.first().customerProductId);
        }
        QCOMPARE(dumpOfDatabase().value("organizations"_L1), before.value("organizations"_L1));
    }

    // The processor saying a subscription ended ends the plan in force.
    void importOfACanceledPlanEndsTheOneInForce()
    {
        const QString customer = u"ends"_s;
        api::ImportCustomerRequest request = importOf(customer, 3);
        QVERIFY(await(m_pricing->importCustomer(request)).ok());
        ListBalancesRequest active;
        active.customerId = customer;
        QCOMPARE(await(m_pricing->listBalances(active)).value().list.size(), 1);
        request.billables.first().plan.status = api::PlanStatus::Canceled;
        auto canceled = await(m_pricing->importCustomer(request));
        QVERIFY2(canceled.ok(), canceled.ok() ? "" : qPrintable(canceled.error().message));
        QCOMPARE(canceled.value().flashed.size(), 1);
        QVERIFY(!canceled.value().flashed.first().skipped);
        QCOMPARE(canceled.value().flashed.first().expired, std::optional(true));
        QCOMPARE(canceled.value().flashed.first().status, api::PlanStatus::Canceled);
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
};

QTEST_GUILESS_MAIN(TestImportConformance)
#include "tst_conformance_import.moc"
