// billing.import reading what stripe-stateful-mock cannot make (docs/
// processors.md, "What the import reads"): a Stripe subscription as Stripe
// records it today, served by a local server. The object is Stripe's own
// published fixture (data/stripe-subscription.json: resource
// "subscription" of openapi/fixtures3.json in github.com/stripe/openapi at
// f6c2a48f, 2026-08-21): `price` items with the legacy `plan` beside them,
// the current period on the item (API 2025-03-31 on), trial and
// cancellation fields. Each test sets the fields it is about; the mock
// covers the rest (tst_conformance_stripe).
#include "services/engine/ApiOperations.h"
#include "services/engine/processors/ProcessorKeys.h"
#include "services/engine/processors/StripeSubscription.h"
#include "tests/engine/EngineFixture.h"
#include "tests/support/WebhookReceiver.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <future>

using namespace md;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 Day = 24 * 3600 * 1000;
constexpr qint64 Now = 1'800'000'000'000; // 2027-01-15

QJsonObject recorded()
{
    QFile file(QStringLiteral(MD_TEST_DATA_DIR "/stripe-subscription.json"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read the recorded subscription");
    return QJsonDocument::fromJson(file.readAll()).object();
}

// The recorded subscription as `id` of cus_fixture, started 10 days ago in
// a period of 30 days, with `status` and what `patch` sets.
QByteArray subscription(const QString &id, const QString &status,
                        const std::function<void(QJsonObject &)> &patch = {})
{
    QJsonObject object = recorded();
    object[u"id"_s] = id;
    object[u"customer"_s] = u"cus_fixture"_s;
    object[u"status"_s] = status;
    object[u"start_date"_s] = (Now - 10 * Day) / 1000;
    object[u"billing_cycle_anchor"_s] = (Now - 10 * Day) / 1000;
    for (const char *none : {"trial_end", "trial_start", "cancel_at", "canceled_at", "ended_at"})
        object[QLatin1StringView(none)] = QJsonValue::Null;
    object[u"cancel_at_period_end"_s] = false;
    QJsonObject items = object.value("items"_L1).toObject();
    QJsonArray data = items.value("data"_L1).toArray();
    QJsonObject item = data.first().toObject();
    item[u"current_period_start"_s] = (Now - 10 * Day) / 1000;
    item[u"current_period_end"_s] = (Now + 20 * Day) / 1000;
    data[0] = item;
    items[u"data"_s] = data;
    object[u"items"_s] = items;
    if (patch)
        patch(object);
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

const QByteArray Customer = R"({"id":"cus_fixture","object":"customer","name":"Fixture"})";

} // namespace

class TestStripeImport final : public QObject
{
    Q_OBJECT

    std::unique_ptr<test::EngineFixture> m_fixture;
    test::WebhookReceiver m_stripe;
    std::optional<engine::KeyContext> m_key;

    // billing.import of customer `customer` on "pro" linked to `linked`,
    // Stripe answering `answers` in turn (the subscription, then the customer).
    api::Result<api::ImportCustomerResponse>
    importOf(const QString &customer, const QString &linked, const QList<QByteArray> &answers)
    {
        QList<test::WebhookReceiver::Answer> queued;
        for (const QByteArray &body : answers)
            queued.append({200, body, {}});
        m_stripe.queueAnswers(queued);
        api::ImportCustomerRequest request;
        request.customerId = customer;
        api::Billable billable;
        billable.link = api::BillableLink{linked, {}};
        billable.plan.planId = u"pro"_s;
        request.billables = {billable};
        auto done = std::async(std::launch::async, [&] {
            return engine::ApiOperations(*m_fixture->engine).importCustomer(*m_key, request);
        });
        if (!QTest::qWaitFor(
                [&] { return done.wait_for(std::chrono::seconds(0)) == std::future_status::ready; },
                60000))
            qFatal("the import did not end within a minute");
        return done.get();
    }

    api::Subscription planOf(const api::Result<api::ImportCustomerResponse> &imported)
    {
        if (!imported)
            qFatal("import failed: %s", qPrintable(imported.error().message));
        return imported.value().customer.value().subscriptions.value(0);
    }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<test::EngineFixture>();
        *m_fixture->now = Now;
        MD_OPEN_FIXTURE(*m_fixture);
        QVERIFY(m_fixture->engine->loadWorkspace(test::smallWorkspace()).ok());
        auto key = m_fixture->engine->authenticate(u"sk_test_fixture0000000000000000000001"_s);
        QVERIFY(key.ok());
        m_key = key.value();
        auto db = m_fixture->engine->database().connection();
        QVERIFY(db.ok());
        QVERIFY(engine::ProcessorKeys::connect(db.value(), m_fixture->engine->dialect(),
                                               m_key->scope, u"sk_test_meterdesk_fixture_0001"_s,
                                               Now)
                    .ok());
        QVERIFY(m_stripe.up());
        m_fixture->engine->setStripeBase(QUrl(QString::fromLatin1(m_stripe.url(""))));
    }

    void cleanup()
    {
        m_key.reset();
        m_fixture.reset();
        m_stripe.down();
    }

    void theRecordedObjectIsReadAsStripeSendsIt()
    {
        auto read = engine::StripeSubscription::read(recorded());
        QVERIFY(read.ok());
        const engine::StripeSubscription &stripe = read.value();
        QCOMPARE(stripe.customer, u"cus_QXg1o8vcGmoR32"_s);
        QCOMPARE(stripe.planStatus(), api::PlanStatus::Active);
        QCOMPARE(stripe.items.size(), 1);
        QCOMPARE(stripe.items.first().priceId, u"price_1PgafmB7WZ01zgkW6dKueIc5"_s); // not `plan`
        QCOMPARE(stripe.items.first().productId, u"prod_QXg1hqf4jFNsqG"_s);
        QCOMPARE(stripe.items.first().quantity, 1);
        QCOMPARE(stripe.currentPeriodEnd, std::optional<qint64>(976287773'000)); // the item's
        QCOMPARE(stripe.endsAt(), std::optional<qint64>(1234567890'000));        // cancel_at
    }

    void aTrialEndsWhenStripeSays()
    {
        const qint64 trialEnd = Now + 4 * Day;
        const auto plan = planOf(
            importOf(u"trial"_s, u"sub_trial"_s,
                     {subscription(u"sub_trial"_s, u"trialing"_s,
                                   [&](QJsonObject &o) { o[u"trial_end"_s] = trialEnd / 1000; }),
                      Customer}));
        QCOMPARE(plan.status, api::PlanStatus::Trialing);
        QCOMPARE(plan.trialEndsAt, std::optional<qint64>(trialEnd));
        QVERIFY(!plan.expiresAt);
        // Stripe asked with the key, for the subscription, then its customer.
        QCOMPARE(m_stripe.requests().at(0).path, QByteArray("/v1/subscriptions/sub_trial"));
        QCOMPARE(m_stripe.requests().at(1).path, QByteArray("/v1/customers/cus_fixture"));
    }

    void canceledAtThePeriodsEndEndsThen()
    {
        const auto plan = planOf(importOf(u"leaving"_s, u"sub_leaving"_s,
                                          {subscription(u"sub_leaving"_s, u"active"_s,
                                                        [&](QJsonObject &o) {
                                                            o[u"cancel_at_period_end"_s] = true;
                                                            o[u"canceled_at"_s] =
                                                                (Now - Day) / 1000;
                                                        }),
                                           Customer}));
        QCOMPARE(plan.status, api::PlanStatus::Active);
        QCOMPARE(plan.expiresAt, std::optional<qint64>(Now + 20 * Day));
        QCOMPARE(plan.canceledAt, std::optional<qint64>(Now - Day));
    }

    // Two plans of one subscription (two items): one read of it.
    void aSubscriptionOfTwoPlansIsReadOnce()
    {
        m_stripe.queueAnswers(
            {{200, subscription(u"sub_two"_s, u"active"_s), {}}, {200, Customer, {}}});
        api::ImportCustomerRequest request;
        request.customerId = u"two"_s;
        for (const QString &plan : {u"pro"_s, u"old"_s}) {
            api::Billable billable;
            billable.link = api::BillableLink{u"sub_two"_s, {}};
            billable.plan.planId = plan;
            request.billables.append(billable);
        }
        const qsizetype before = m_stripe.requests().size();
        auto done = std::async(std::launch::async, [&] {
            return engine::ApiOperations(*m_fixture->engine).importCustomer(*m_key, request);
        });
        QVERIFY(QTest::qWaitFor(
            [&] { return done.wait_for(std::chrono::seconds(0)) == std::future_status::ready; },
            60000));
        const auto imported = done.get();
        QVERIFY2(imported.ok(), imported.ok() ? "" : qPrintable(imported.error().message));
        QCOMPARE(imported.value().customer->subscriptions.size(), 2);
        QCOMPARE(m_stripe.requests().size() - before, 2); // the subscription, its customer
    }

    void unpaidIsPastDue()
    {
        const auto plan = planOf(importOf(u"late"_s, u"sub_late"_s,
                                          {subscription(u"sub_late"_s, u"unpaid"_s), Customer}));
        QCOMPARE(plan.status, api::PlanStatus::PastDue);
    }

    // A canceled subscription ends the plan it imported; another
    // subscription of the same plan is another plan.
    void eachSubscriptionIsItsOwnPlan()
    {
        auto first =
            importOf(u"twice"_s, u"sub_a"_s, {subscription(u"sub_a"_s, u"active"_s), Customer});
        QVERIFY(first.ok());
        QVERIFY(!first.value().flashed.first().skipped);
        auto ended =
            importOf(u"twice"_s, u"sub_a"_s, {subscription(u"sub_a"_s, u"canceled"_s), Customer});
        QVERIFY(ended.ok());
        QCOMPARE(ended.value().flashed.first().expired, std::optional(true));
        QVERIFY(ended.value().customer->subscriptions.isEmpty() ||
                ended.value().customer->subscriptions.first().status != api::PlanStatus::Active);
        auto second =
            importOf(u"twice"_s, u"sub_b"_s, {subscription(u"sub_b"_s, u"active"_s), Customer});
        QVERIFY(second.ok());
        QVERIFY(!second.value().flashed.first().skipped);
        auto old =
            importOf(u"twice"_s, u"sub_a"_s, {subscription(u"sub_a"_s, u"canceled"_s), Customer});
        QVERIFY(old.ok());
        QCOMPARE(old.value().flashed.first().reason, std::optional<QString>(u"already_ended"_s));
    }

    // processors.verify reads the subscription the import linked (one by
    // one: there are few) and lists what Stripe says otherwise now.
    void verifyComparesWithTheRecordedObject()
    {
        const qint64 anchor = Now - 10 * Day;
        const qint64 monthLater =
            QDateTime::fromMSecsSinceEpoch(anchor, Qt::UTC).addMonths(1).toMSecsSinceEpoch();
        const auto stripe = [&](const QString &status, int quantity, const QString &plan) {
            return subscription(u"sub_v"_s, status, [&](QJsonObject &o) {
                QJsonObject items = o.value("items"_L1).toObject();
                QJsonArray data = items.value("data"_L1).toArray();
                QJsonObject item = data.first().toObject();
                item[u"current_period_end"_s] = monthLater / 1000;
                item[u"quantity"_s] = quantity;
                QJsonObject price = item.value("price"_L1).toObject();
                price[u"metadata"_s] = QJsonObject{{u"meterdesk_plan_id"_s, plan}};
                item[u"price"_s] = price;
                data[0] = item;
                items[u"data"_s] = data;
                o[u"items"_s] = items;
            });
        };
        QVERIFY(
            importOf(u"drift"_s, u"sub_v"_s, {stripe(u"active"_s, 2, u"pro"_s), Customer}).ok());
        const auto verify = [&](const QByteArray &answer, int status = 200) {
            m_stripe.queueAnswers({{status, answer, {}}});
            auto done = std::async(std::launch::async, [&] {
                return engine::ApiOperations(*m_fixture->engine).verifyProcessors(*m_key, {});
            });
            if (!QTest::qWaitFor(
                    [&] {
                        return done.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
                    },
                    60000))
                qFatal("verify did not end within a minute");
            auto answered = done.get();
            if (!answered)
                qFatal("verify failed: %s", qPrintable(answered.error().message));
            return answered.value();
        };
        const auto same = verify(stripe(u"active"_s, 2, u"pro"_s));
        QCOMPARE(same.checked, 1);
        QCOMPARE(same.differences, QList<api::ProcessorDrift>());
        QCOMPARE(m_stripe.requests().constLast().path, QByteArray("/v1/subscriptions/sub_v"));
        const auto drift = verify(stripe(u"past_due"_s, 4, u"team"_s));
        QCOMPARE(drift.differences,
                 (QList<api::ProcessorDrift>{
                     {u"drift"_s, u"sub_v"_s, u"pro"_s, u"status"_s, u"active"_s, u"past_due"_s},
                     {u"drift"_s, u"sub_v"_s, u"pro"_s, u"quantity"_s, u"2"_s, u"4"_s},
                     {u"drift"_s, u"sub_v"_s, u"pro"_s, u"plan_id"_s, u"pro"_s, u"team"_s}}));
        const auto gone = verify(R"({"error":{"message":"No such subscription: 'sub_v'"}})", 404);
        QCOMPARE(gone.differences,
                 (QList<api::ProcessorDrift>{{u"drift"_s, u"sub_v"_s, u"pro"_s, u"subscription"_s,
                                              u"sub_v"_s, u"(none)"_s}}));
    }

    // A key Stripe refuses is not kept: the answer names it by its hint,
    // in Stripe's words, and the key connected before stays.
    void aKeyStripeRefusesIsNotConnected()
    {
        m_stripe.queueAnswers(
            {{401,
              R"({"error":{"message":"Invalid API Key provided: sk_test_****************9999"}})",
              {}}});
        auto done = std::async(std::launch::async, [&] {
            return engine::ApiOperations(*m_fixture->engine)
                .connectProcessorKey(*m_key, {u"sk_test_meterdesk_refused_9999"_s});
        });
        QVERIFY(QTest::qWaitFor(
            [&] { return done.wait_for(std::chrono::seconds(0)) == std::future_status::ready; },
            60000));
        const auto refused = done.get();
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().status, 400);
        QVERIFY2(refused.error().message.startsWith(
                     u"secret: Stripe refused sk_test_…9999: Invalid API Key provided"_s),
                 qPrintable(refused.error().message));
        QVERIFY(!refused.error().message.contains(u"refused_9999"_s));
        QCOMPARE(m_stripe.requests().constLast().headers.value("authorization"),
                 QByteArray("Bearer sk_test_meterdesk_refused_9999"));
        auto kept = engine::ApiOperations(*m_fixture->engine).listProcessorKeys(*m_key);
        QVERIFY(kept.ok());
        QCOMPARE(kept.value().list.size(), 1);
        QCOMPARE(kept.value().list.first().hint, u"sk_test_…0001"_s);
    }
};

QTEST_GUILESS_MAIN(TestStripeImport)
#include "tst_stripeimport.moc"
