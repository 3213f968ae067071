// Conformance, billing.import reading Stripe (docs/processors.md, "What the
// import reads"): against stripe-stateful-mock, seeded through the stripe
// client. Runs every way: tests/conformance/CMakeLists.txt.
#include "tests/conformance/ConformanceSuite.h"

#include <QDateTime>
#include <QTimeZone>

using namespace md;
using namespace md::test::conformance;

namespace {

QJsonObject create(const QString &kind, const QJsonObject &params)
{
    return {{u"create"_s, kind}, {u"params"_s, params}};
}

QJsonObject subscriptionOf(const QString &id, const QString &customer, const QString &plan,
                           int quantity)
{
    return create(
        u"subscriptions"_s,
        {{u"id"_s, id},
         {u"customer"_s, customer},
         {u"items"_s, QJsonArray{QJsonObject{{u"plan"_s, plan}, {u"quantity"_s, quantity}}}}});
}

} // namespace

class TestStripeConformance final : public ConformanceSuite
{
    Q_OBJECT

public:
    // Organization gamma (the pricing workspace) reads this Stripe: plan
    // "team" sold as Stripe plan plan_team; customers and their subscriptions.
    TestStripeConformance()
    {
        m_stripeKeysOf = {u"gamma"_s};
        m_stripeSteps = {
            create(u"products"_s, {{u"id"_s, u"prod_team"_s}, {u"name"_s, u"Team"_s}}),
            create(u"plans"_s, {{u"id"_s, u"plan_team"_s},
                                {u"product"_s, u"prod_team"_s},
                                {u"amount"_s, 2900},
                                {u"currency"_s, u"usd"_s},
                                {u"interval"_s, u"month"_s},
                                {u"metadata"_s, QJsonObject{{u"meterdesk_plan_id"_s, u"team"_s}}}}),
            create(u"customers"_s, {{u"id"_s, u"cus_s1"_s}, {u"email"_s, u"one@stripe.example"_s}}),
            create(u"customers"_s, {{u"id"_s, u"cus_s2"_s}, {u"email"_s, u"two@stripe.example"_s}}),
            create(u"customers"_s, {{u"id"_s, u"cus_s3"_s}}),
            subscriptionOf(u"sub_s1"_s, u"cus_s1"_s, u"plan_team"_s, 2),
            subscriptionOf(u"sub_s2"_s, u"cus_s2"_s, u"plan_team"_s, 1),
            subscriptionOf(u"sub_s3"_s, u"cus_s3"_s, u"plan_team"_s, 3),
        };
        // Past what processors.verify reads one by one: it lists them.
        for (int i = 0; i < Many; ++i)
            m_stripeSteps.append(create(u"customers"_s, {{u"id"_s, u"cus_many%1"_s.arg(i)}}));
        for (int i = 0; i < Many; ++i)
            m_stripeSteps.append(
                subscriptionOf(u"sub_many%1"_s.arg(i), u"cus_many%1"_s.arg(i), u"plan_team"_s, 1));
    }

    static constexpr int Many = 26;

    // What processors.verify lists, less current_period_end: the mock
    // counts a month with JavaScript's Date (from the 29th it spills into
    // the month after), Meterdesk with the calendar's last day
    // (tst_stripeimport checks periods on Stripe's recorded object).
    static QList<api::ProcessorDrift> driftOf(const api::ProcessorsVerifyResponse &answer)
    {
        QList<api::ProcessorDrift> drift;
        for (const api::ProcessorDrift &one : answer.differences)
            if (one.field != "current_period_end"_L1)
                drift.append(one);
        return drift;
    }

private:
    // The body of an import of `customer` on "team", linked to `subscription`.
    static api::ImportCustomerRequest importOf(const QString &customer, const QString &subscription,
                                               const std::optional<QString> &stripeCustomer)
    {
        api::ImportCustomerRequest request;
        request.customerId = customer;
        if (stripeCustomer)
            request.processors = {{api::Processor::Stripe, *stripeCustomer}};
        api::Billable billable;
        billable.link = api::BillableLink{subscription, {}};
        billable.plan.planId = u"team"_s;
        request.billables = {billable};
        return request;
    }

private Q_SLOTS:
    void importFollowsStripeAndListsWhatTheBodyContradicts()
    {
        api::ImportCustomerRequest request = importOf(u"s1"_s, u"sub_s1"_s, u"cus_s1"_s);
        const qint64 january =
            QDateTime(QDate(2026, 1, 15), QTime(0, 0), QTimeZone::utc()).toMSecsSinceEpoch();
        request.billables[0].plan.status = api::PlanStatus::Trialing;
        request.billables[0].plan.startedAt = january;
        request.billables[0].plan.quantity = api::Decimal::fromInteger(1);
        auto imported = await(m_pricing->importCustomer(request));
        QVERIFY2(imported.ok(), imported.ok() ? "" : qPrintable(imported.error().message));
        const api::FlashedPlan flashed = imported.value().flashed.first();
        QCOMPARE(flashed.mismatch, std::optional<bool>(true));
        QCOMPARE(flashed.differences.size(), 3);
        QCOMPARE(flashed.differences.at(0), (api::ProcessorDifference{u"billables[0].plan.status"_s,
                                                                      u"trialing"_s, u"active"_s}));
        QCOMPARE(flashed.differences.at(1).field, u"billables[0].plan.started_at"_s);
        QCOMPARE(flashed.differences.at(1).requested, u"2026-01-15T00:00:00Z"_s);
        QCOMPARE(flashed.differences.at(2),
                 (api::ProcessorDifference{u"billables[0].plan.quantity"_s, u"1"_s, u"2"_s}));
        // What is imported is Stripe's: active, two seats, its start.
        const api::Customer customer = imported.value().customer.value();
        QCOMPARE(customer.stripeId, std::optional<QString>(u"cus_s1"_s));
        QCOMPARE(customer.email, u"one@stripe.example"_s); // the body gave none
        QCOMPARE(customer.subscriptions.size(), 1);
        const api::Subscription plan = customer.subscriptions.first();
        QCOMPARE(plan.status, api::PlanStatus::Active);
        QCOMPARE(plan.quantity, api::Decimal::fromInteger(2));
        QCOMPARE(plan.startedAt,
                 QDateTime::fromString(flashed.differences.at(1).processor, Qt::ISODate)
                     .toMSecsSinceEpoch());
        QVERIFY(!plan.trialEndsAt);
        // Again: the same reading, nothing new.
        auto again = await(m_pricing->importCustomer(request));
        QVERIFY(again.ok());
        QVERIFY(again.value().flashed.first().skipped);
        QCOMPARE(again.value().flashed.first().differences, flashed.differences);
    }

    void aDryRunReadsStripeAlikeAndWritesNothing()
    {
        const api::JsonValue before = dumpOfDatabase();
        api::ImportCustomerRequest request = importOf(u"s2"_s, u"sub_s2"_s, u"cus_s2"_s);
        request.billables[0].plan.quantity = api::Decimal::fromInteger(4);
        request.dryRun = true;
        auto preview = await(m_pricing->importCustomer(request));
        QVERIFY2(preview.ok(), preview.ok() ? "" : qPrintable(preview.error().message));
        QCOMPARE(dumpOfDatabase(), before);
        request.dryRun = false;
        auto imported = await(m_pricing->importCustomer(request));
        QVERIFY(imported.ok());
        QCOMPARE(preview.value().flashed.first().differences,
                 imported.value().flashed.first().differences);
        QCOMPARE(
            imported.value().flashed.first().differences,
            (QList<api::ProcessorDifference>{{u"billables[0].plan.quantity"_s, u"4"_s, u"1"_s}}));
        QCOMPARE(imported.value().customer->email, u"two@stripe.example"_s);
    }

    void theCustomerIsTheSubscriptionsWhenTheBodyNamesNone()
    {
        auto imported =
            await(m_pricing->importCustomer(importOf(u"s3"_s, u"sub_s3"_s, std::nullopt)));
        QVERIFY2(imported.ok(), imported.ok() ? "" : qPrintable(imported.error().message));
        QCOMPARE(imported.value().customer->stripeId, std::optional<QString>(u"cus_s3"_s));
        QCOMPARE(imported.value().customer->subscriptions.first().quantity,
                 api::Decimal::fromInteger(3));
        QVERIFY(imported.value().flashed.first().differences.isEmpty());
        QVERIFY(!imported.value().flashed.first().mismatch);
    }

    void aSubscriptionOfAnotherCustomerIsRefused()
    {
        const api::JsonValue before = dumpOfDatabase();
        auto refused =
            await(m_pricing->importCustomer(importOf(u"s4"_s, u"sub_s1"_s, u"cus_s3"_s)));
        expectError(refused, 400, u"invalid_inputs"_s, u"billables[0].link.subscription_id"_s);
        QVERIFY(refused.error().message.contains(u"\"cus_s1\", not \"cus_s3\""_s));
        QCOMPARE(dumpOfDatabase(), before);
    }

    void whatStripeLacksIsNotFound()
    {
        auto subscription =
            await(m_pricing->importCustomer(importOf(u"s5"_s, u"sub_nothing"_s, u"cus_s1"_s)));
        expectError(subscription, 404, u"not_found"_s,
                    u"Stripe has no subscription \"sub_nothing\""_s);
        auto customer =
            await(m_pricing->importCustomer(importOf(u"s5"_s, u"sub_s1"_s, u"cus_nothing"_s)));
        expectError(customer, 404, u"not_found"_s, u"Stripe has no customer \"cus_nothing\""_s);
    }

    // After the imports above: Stripe changes, Meterdesk does not.
    void verifyListsWhatChangedAtStripe()
    {
        auto before = await(m_pricing->verifyProcessors({}));
        QVERIFY2(before.ok(), before.ok() ? "" : qPrintable(before.error().message));
        QCOMPARE(before.value().checked, 3); // s1, s2 and s3
        QCOMPARE(driftOf(before.value()), QList<api::ProcessorDrift>());
        QString problem;
        test::StripeMock *stripe = test::StripeMock::shared(&problem);
        QVERIFY2(stripe, qPrintable(problem));
        problem = stripe->seed({QJsonObject{{u"quantity"_s, 5}, {u"subscription"_s, u"sub_s2"_s}}});
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const api::JsonValue stored = dumpOfDatabase();
        auto after = await(m_pricing->verifyProcessors({}));
        QVERIFY(after.ok());
        QCOMPARE(driftOf(after.value()),
                 (QList<api::ProcessorDrift>{
                     {u"s2"_s, u"sub_s2"_s, u"team"_s, u"quantity"_s, u"1"_s, u"5"_s}}));
        QCOMPARE(dumpOfDatabase(), stored); // nothing changed
        // One customer: only its plans.
        auto one = await(m_pricing->verifyProcessors({QStringList{u"s1"_s}}));
        QVERIFY(one.ok());
        QCOMPARE(one.value().checked, 1);
        QCOMPARE(driftOf(one.value()), QList<api::ProcessorDrift>());
    }

    void verifyReadsManyByListing()
    {
        for (int i = 0; i < Many; ++i) {
            auto imported = await(m_pricing->importCustomer(
                importOf(u"many%1"_s.arg(i), u"sub_many%1"_s.arg(i), std::nullopt)));
            QVERIFY2(imported.ok(), imported.ok() ? "" : qPrintable(imported.error().message));
        }
        auto all = await(m_pricing->verifyProcessors({}));
        QVERIFY2(all.ok(), all.ok() ? "" : qPrintable(all.error().message));
        QCOMPARE(all.value().checked, 3 + Many);
        QCOMPARE(driftOf(all.value()),
                 (QList<api::ProcessorDrift>{
                     {u"s2"_s, u"sub_s2"_s, u"team"_s, u"quantity"_s, u"1"_s, u"5"_s}}));
        auto refused = await(m_pricing->verifyProcessors(
            {QStringList(api::ProcessorsVerifyRequest::MaxCustomers + 1, u"s1"_s)}));
        expectError(refused, 400, u"invalid_inputs"_s, u"customer_ids"_s);
    }

    void subscriptionsArePagedWithTheProductsFirst()
    {
        QStringList seen;
        std::optional<QString> after;
        int pages = 0;
        for (;;) {
            api::StripeSubscriptionsRequest request;
            request.startingAfter = after;
            request.limit = 10;
            auto page = await(m_pricing->stripeSubscriptions(request));
            QVERIFY2(page.ok(), page.ok() ? "" : qPrintable(page.error().message));
            ++pages;
            QCOMPARE(page.value().products.isEmpty(), pages > 1);
            if (pages == 1)
                QCOMPARE(page.value().products,
                         (QList<api::StripeProductName>{{u"prod_team"_s, u"Team"_s}}));
            for (const api::StripeSubscriptionInfo &s : page.value().data)
                seen.append(s.id);
            if (!page.value().hasMore)
                break;
            after = seen.last();
        }
        QCOMPARE(seen.size(), 3 + Many);
        QCOMPARE(QSet<QString>(seen.begin(), seen.end()).size(), seen.size());
        QCOMPARE(pages, 3);
        auto one = await(m_pricing->stripeSubscriptions({u"sub_s1"_s, 1}));
        QVERIFY(one.ok());
        QCOMPARE(one.value().data.size(), 1);
        const api::StripeSubscriptionInfo &next = one.value().data.first();
        QCOMPARE(next.items.first().meterdeskPlanId, u"team"_s);
        QCOMPARE(next.planStatus, api::PlanStatus::Active);
    }

    void withoutAKeyALinkSaysWhatToConnect()
    {
        // Organization alpha has no Stripe key: a billable without a link
        // imports as ever, one with a link says what to connect.
        api::ImportCustomerRequest request = importOf(u"s6"_s, u"sub_s1"_s, u"cus_s1"_s);
        request.billables[0].plan.planId = u"pro"_s;
        request.dryRun = true;
        auto refused = await(m_backend->importCustomer(request));
        expectError(refused, 404, u"not_found"_s, u"processors connect --org alpha --env test"_s);
        request.billables[0].link.reset();
        auto unlinked = await(m_backend->importCustomer(request));
        QVERIFY2(unlinked.ok(), unlinked.ok() ? "" : qPrintable(unlinked.error().message));
    }

    // Last: it changes gamma's key. Any client connects one; only its hint
    // comes back; Stripe is asked first; disconnecting stops the reads.
    void aKeyIsConnectedOverTheApiAndShownByItsHint()
    {
        auto before = await(m_pricing->listProcessorKeys());
        QVERIFY2(before.ok(), before.ok() ? "" : qPrintable(before.error().message));
        QCOMPARE(before.value().list.size(), 1);
        QCOMPARE(before.value().list.first().hint, u"sk_test_…amma"_s);
        auto live = await(m_pricing->connectProcessorKey({u"sk_live_meterdesk_wrong_mode1"_s}));
        expectError(live, 400, u"invalid_inputs"_s, u"secret"_s);
        QVERIFY(!live.error().message.contains(u"wrong_mode"_s)); // never the key itself
        auto made =
            await(m_pricing->connectProcessorKey({u"  sk_test_meterdesk_conformance_next\n"_s}));
        QVERIFY2(made.ok(), made.ok() ? "" : qPrintable(made.error().message));
        QCOMPARE(made.value(),
                 (api::ProcessorKeyInfo{u"test"_s, u"sk_test_…next"_s, made.value().connectedAt}));
        // What the server keeps and shows holds no key.
        const QByteArray dump = api::toJsonText(dumpOfDatabase());
        QVERIFY(!dump.contains("meterdesk_conformance_next"));
        auto gone = await(m_pricing->disconnectProcessorKey());
        QVERIFY(gone.ok());
        QVERIFY(gone.value().list.isEmpty());
        auto unread = await(m_pricing->importCustomer(importOf(u"s7"_s, u"sub_s1"_s, u"cus_s1"_s)));
        expectError(unread, 404, u"not_found"_s, u"processors connect"_s);
        auto again = await(m_pricing->disconnectProcessorKey());
        expectError(again, 404, u"not_found"_s, u"no test processor key"_s);
    }
};

QTEST_GUILESS_MAIN(TestStripeConformance)
#include "tst_conformance_stripe.moc"
