// Issue 19, the three ways (ConformanceHarness.h): billing controls set,
// read and enforced by track_tokens (docs/billing-controls.md), the async
// flag checked before a call is accepted, and calls that fail after
// acceptance kept, listed, retried and discarded.
#include "tests/conformance/ConformanceHarness.h"
#include "tests/support/JsonEdit.h"

#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using test::await;
using test::dec;
using test::overHttp;

namespace {

const QString Key = u"sk_test_delta000000000000000000000000000"_s;

api::Decimal credits(qint64 n)
{
    return api::Decimal::fromInteger(n);
}

// At acme/gift a million input tokens cost exactly one credit.
api::TrackTokensRequest call(const QString &customer, qint64 credits, bool overflow = false,
                             bool async = false)
{
    api::TrackTokensRequest request;
    request.customerId = customer;
    request.modelId = u"acme/gift"_s;
    request.inputTokens = credits * 1'000'000;
    request.async = async;
    if (overflow)
        request.overageBehavior = api::OverageBehavior::Overflow;
    return request;
}

api::UsageLimit usageLimit(qint64 units)
{
    api::UsageLimit limit;
    limit.featureId = u"credits"_s;
    limit.limit = credits(units);
    limit.interval = api::LimitInterval::Month;
    return limit;
}

api::Decimal deducted(const api::TrackTokensResponse &response)
{
    api::Decimal total;
    for (const api::Deduction &deduction : response.deductions)
        total = *total.plus(deduction.value);
    return total;
}

} // namespace

class TestBillingControls final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;
    test::ServerProcess m_server;
    std::unique_ptr<backend::BillingBackend> m_backend;

    api::Result<api::BillingControlsAnswer>
    set(const QString &customer,
        const std::function<void(api::UpdateBillingControlsRequest &)> &edit,
        std::optional<QString> entity = {})
    {
        api::UpdateBillingControlsRequest request;
        request.customerId = customer;
        request.entityId = entity;
        edit(request);
        return await(m_backend->updateBillingControls(request));
    }

    api::Result<api::TrackTokensResponse> track(const api::TrackTokensRequest &request)
    {
        return await(m_backend->trackTokens(request));
    }

    api::Decimal remaining(const QString &customer)
    {
        api::ListBalancesRequest request;
        request.customerId = customer;
        api::Decimal total;
        const auto page = await(m_backend->listBalances(request));
        for (const api::BalanceRow &row : page.value().list)
            total = *total.plus(row.remaining);
        return total;
    }

    api::QueueCounts queue() { return await(m_backend->about()).value().trackQueue; }

    QList<api::FailedEvent> failed() { return await(m_backend->listFailedEvents({})).value().list; }

    // Leaves one accepted call failed after acceptance: the usage limit has
    // room for one more credit, and two calls are sent at once. When both
    // are checked before the worker applies either (the race this store
    // exists for), both are accepted and the second fails; otherwise the
    // second is refused at once and the attempt is made again.
    void failAnAcceptedCall(int attempts = 100)
    {
        for (int attempt = 0; attempt < attempts; ++attempt) {
            QTRY_COMPARE_WITH_TIMEOUT(queue().pending, 0, 10000);
            const auto controls = await(m_backend->billingControls({u"racer"_s, std::nullopt}));
            const api::Decimal used =
                controls.value().billingControls.usageLimits.value(0).usage.value_or(credits(0));
            const qint64 room = qint64(used.raw() / api::Decimal::One) + 1;
            QVERIFY(set(u"racer"_s, [room](api::UpdateBillingControlsRequest &r) {
                        r.hasUsageLimits = true;
                        r.billingControls.usageLimits = {usageLimit(room)};
                    }).ok());
            // Sent together, so both are checked before either is applied.
            auto first = m_backend->trackTokens(call(u"racer"_s, 1, false, true));
            auto second = m_backend->trackTokens(call(u"racer"_s, 1, false, true));
            if (await(first).ok() && await(second).ok()) {
                QTRY_COMPARE_WITH_TIMEOUT(queue(), (api::QueueCounts{0, 1}), 10000);
                return;
            }
        }
        QFAIL("the second call never raced the first");
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString problem =
            test::openWorkspace(m_database, m_server,
                                QStringLiteral(MD_TEST_CONFORMANCE_DIR "/controls-workspace.json"));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        m_backend = test::backendFor(m_database, m_server, Key);
    }

    void cleanupTestCase()
    {
        m_backend.reset();
        if (overHttp())
            QCOMPARE(m_server.stop(), 0);
    }

    void controlsAreStoredAndRead()
    {
        const auto answer = set(u"alerting"_s, [](api::UpdateBillingControlsRequest &r) {
            r.hasSpendLimits = r.hasUsageLimits = r.hasUsageAlerts = r.hasOverageAllowed = true;
            r.billingControls.spendLimits = {
                {u"credits"_s, true, api::SpendLimitType::UsagePercentage, dec("12.5")}};
            r.billingControls.usageLimits = {usageLimit(1000)};
            r.billingControls.usageAlerts = {
                {u"credits"_s, true, credits(50), api::ThresholdType::UsagePercentage, u"half"_s},
                {u"credits"_s, true, credits(10), api::ThresholdType::Remaining, std::nullopt}};
            r.billingControls.overageAllowed = {{u"credits"_s, true}};
        });
        QVERIFY2(answer.ok(), answer.ok() ? "" : qPrintable(answer.error().message));
        const api::BillingControls &stored = answer.value().billingControls;
        QCOMPARE(stored.usageLimits.first().usage, std::optional(api::Decimal()));
        QCOMPARE(stored.usageAlerts.size(), 2);
        QCOMPARE(stored.spendLimits.first().overageLimit, dec("12.5"));
        // Read back, and in the customer object, alike.
        const auto read = await(m_backend->billingControls({u"alerting"_s, std::nullopt}));
        QCOMPARE(read.value(), answer.value());
        QCOMPARE(await(m_backend->customer(u"alerting"_s)).value().billingControls, stored);
        // A list left out is kept; one sent replaces.
        const auto partial = set(
            u"alerting"_s, [](api::UpdateBillingControlsRequest &r) { r.hasSpendLimits = true; });
        QVERIFY(partial.value().billingControls.spendLimits.isEmpty());
        QCOMPARE(partial.value().billingControls.usageAlerts.size(), 2);
        // An entity's own controls are apart from its customer's.
        const auto entity = set(
            u"teams"_s,
            [](api::UpdateBillingControlsRequest &r) {
                r.hasUsageLimits = true;
                r.billingControls.usageLimits = {usageLimit(5)};
            },
            u"e1"_s);
        QVERIFY2(entity.ok(), entity.ok() ? "" : qPrintable(entity.error().message));
        QCOMPARE(entity.value().entityId, std::optional(u"e1"_s));
        QVERIFY(
            await(m_backend->customer(u"teams"_s)).value().billingControls.usageLimits.isEmpty());
    }

    void controlsRefuseWhatCannotHold_data()
    {
        QTest::addColumn<QString>("customer");
        QTest::addColumn<QString>("entity");
        QTest::addColumn<QString>("feature");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QTest::newRow("unknown customer")
            << u"ghost"_s << QString() << u"credits"_s << 404 << u"customer_not_found"_s;
        QTest::newRow("unknown entity")
            << u"teams"_s << u"e9"_s << u"credits"_s << 404 << u"entity_not_found"_s;
        QTest::newRow("unknown feature")
            << u"capped"_s << QString() << u"nothing"_s << 404 << u"feature_not_found"_s;
    }
    void controlsRefuseWhatCannotHold()
    {
        QFETCH(QString, customer);
        QFETCH(QString, entity);
        QFETCH(QString, feature);
        QFETCH(int, status);
        QFETCH(QString, code);
        const auto refused = set(
            customer,
            [&](api::UpdateBillingControlsRequest &r) {
                r.hasOverageAllowed = true;
                r.billingControls.overageAllowed = {{feature, false}};
            },
            entity.isEmpty() ? std::nullopt : std::optional(entity));
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().status, status);
        QCOMPARE(refused.error().code, code);
    }

    // A capped call is clamped to what the limit leaves, and refused once
    // nothing is left; an overflowing call is not clamped (docs/api.md, balances.track_tokens).
    void usageLimitsClampCappedCalls()
    {
        QVERIFY(set(u"capped"_s, [](api::UpdateBillingControlsRequest &r) {
                    r.hasUsageLimits = true;
                    r.billingControls.usageLimits = {usageLimit(5)};
                }).ok());
        const auto first = track(call(u"capped"_s, 3));
        QCOMPARE(deducted(first.value()), credits(3));
        const auto second = track(call(u"capped"_s, 3));
        QCOMPARE(second.value().value, credits(3));     // recorded whole
        QCOMPARE(deducted(second.value()), credits(2)); // deducted to the limit
        const auto full = track(call(u"capped"_s, 1));
        QVERIFY(!full.ok());
        QCOMPARE(full.error().status, 429);
        QCOMPARE(full.error().code, u"usage_limit_reached"_s);
        QVERIFY2(full.error().message.contains(u"5"_s), qPrintable(full.error().message));
        QCOMPARE(remaining(u"capped"_s), credits(95));
        const auto overflow = track(call(u"capped"_s, 4, true));
        QVERIFY2(overflow.ok(), overflow.ok() ? "" : qPrintable(overflow.error().message));
        QCOMPARE(deducted(overflow.value()), credits(4));
        const auto read = await(m_backend->billingControls({u"capped"_s, std::nullopt}));
        QCOMPARE(read.value().billingControls.usageLimits.first().usage, credits(9));
    }

    // An entity's own limit holds its calls; the customer's calls are free of it.
    void anEntityHasItsOwnLimits()
    {
        api::TrackTokensRequest forEntity = call(u"teams"_s, 8);
        forEntity.entityId = u"e1"_s;
        const auto entity = track(forEntity);
        QVERIFY2(entity.ok(), entity.ok() ? "" : qPrintable(entity.error().message));
        QCOMPARE(deducted(entity.value()), credits(5));
        QCOMPARE(deducted(track(call(u"teams"_s, 30)).value()), credits(30));
    }

    // Overflow may go negative only as far as a spend limit allows; past it
    // the call is refused whole.
    void spendLimitsStopOverflow()
    {
        QVERIFY(set(u"spender"_s, [](api::UpdateBillingControlsRequest &r) {
                    r.hasSpendLimits = true;
                    r.billingControls.spendLimits = {
                        {u"credits"_s, true, api::SpendLimitType::Absolute, credits(2)}};
                }).ok());
        QVERIFY(track(call(u"spender"_s, 2, true)).ok());
        QCOMPARE(remaining(u"spender"_s), credits(-1));
        const auto past = track(call(u"spender"_s, 2, true));
        QVERIFY(!past.ok());
        QCOMPARE(past.error().status, 402);
        QCOMPARE(past.error().code, u"spend_limit_reached"_s);
        QCOMPARE(remaining(u"spender"_s), credits(-1)); // nothing deducted
        // As a percentage of the included allowance (10): 30 % allows 3.
        QVERIFY(set(u"spender"_s, [](api::UpdateBillingControlsRequest &r) {
                    r.hasSpendLimits = true;
                    r.billingControls.spendLimits = {
                        {std::nullopt, true, api::SpendLimitType::UsagePercentage, credits(30)}};
                }).ok());
        QVERIFY(track(call(u"spender"_s, 2, true)).ok());
        QCOMPARE(track(call(u"spender"_s, 1, true)).error().code, u"spend_limit_reached"_s);
        // Capped calls owe nothing: never refused by a spend limit.
        QVERIFY(track(call(u"spender"_s, 1)).ok());
    }

    void overageAllowedOverridesThePlan()
    {
        // Pay-per-use: overage allowed, until the controls say otherwise.
        QVERIFY(await(m_backend->customer(u"noover"_s))
                    .value()
                    .balances.value(u"credits"_s)
                    .overageAllowed);
        QVERIFY(set(u"noover"_s, [](api::UpdateBillingControlsRequest &r) {
                    r.hasOverageAllowed = true;
                    r.billingControls.overageAllowed = {{u"credits"_s, false}};
                }).ok());
        const auto tracked = track(call(u"noover"_s, 5, true));
        QVERIFY(tracked.ok());
        QCOMPARE(deducted(tracked.value()), credits(1)); // overflow taken as cap
        QVERIFY(!tracked.value().balance->overageAllowed);
        QCOMPARE(remaining(u"noover"_s), credits(0));
        QVERIFY(!await(m_backend->customer(u"noover"_s))
                     .value()
                     .balances.value(u"credits"_s)
                     .overageAllowed);
    }

    void crossedAlertsAreListed()
    {
        // alerting: 100 granted; alerts at 50 % used (named "half") and at 10 left.
        QVERIFY(track(call(u"alerting"_s, 40)).ok());
        QVERIFY(await(m_backend->listUsageAlerts({})).value().list.isEmpty());
        QVERIFY(track(call(u"alerting"_s, 20)).ok()); // 60 % used
        QVERIFY(track(call(u"alerting"_s, 35)).ok()); // 5 left
        QVERIFY(track(call(u"alerting"_s, 1)).ok());  // crossed already: no repeat
        api::PageRequest request;
        request.customerId = u"alerting"_s;
        const auto alerts = await(m_backend->listUsageAlerts(request));
        QVERIFY2(alerts.ok(), alerts.ok() ? "" : qPrintable(alerts.error().message));
        QCOMPARE(alerts.value().list.size(), 2);
        const api::UsageAlertEvent &remainingAlert = alerts.value().list.at(0); // newest first
        QCOMPARE(remainingAlert.thresholdType, api::ThresholdType::Remaining);
        QCOMPARE(remainingAlert.value, credits(5));
        const api::UsageAlertEvent &half = alerts.value().list.at(1);
        QCOMPARE(half.name, std::optional(u"half"_s));
        QCOMPARE(half.featureId, u"credits"_s);
        QCOMPARE(half.value, credits(60));
        QCOMPARE(half.threshold, credits(50));
    }

    // Overflow with no active balance is never dropped: a standalone row
    // takes the usage and goes negative. Capped, the event is recorded and
    // nothing is deducted.
    void overflowWithoutABalanceLandsOnANewRow()
    {
        api::TrackTokensRequest capped = call(u"empty"_s, 2);
        capped.featureId = u"credits"_s;
        const auto nothing = track(capped);
        QVERIFY2(nothing.ok(), nothing.ok() ? "" : qPrintable(nothing.error().message));
        QCOMPARE(nothing.value().value, credits(2));
        QVERIFY(nothing.value().deductions.isEmpty());
        api::TrackTokensRequest overflow = call(u"empty"_s, 7, true);
        overflow.featureId = u"credits"_s;
        const auto owed = track(overflow);
        QVERIFY2(owed.ok(), owed.ok() ? "" : qPrintable(owed.error().message));
        QCOMPARE(owed.value().deductions.size(), 1);
        QCOMPARE(owed.value().deductions.first().value, credits(7));
        QCOMPARE(owed.value().balance->remaining, credits(-7));
        api::ListBalancesRequest list;
        list.customerId = u"empty"_s;
        const auto rows = await(m_backend->listBalances(list));
        QCOMPARE(rows.value().list.size(), 1);
        const api::BalanceRow &row = rows.value().list.first();
        QCOMPARE(row.id, owed.value().deductions.first().balanceId);
        QCOMPARE(row.remaining, credits(-7));
        QCOMPARE(row.usage, credits(7));
        QVERIFY(!row.planId);
        // The next overflow goes onto that row, not another one.
        QCOMPARE(track(overflow).value().deductions.first().balanceId, row.id);
    }

    // What a synchronous call would refuse, an async one is refused at once,
    // with the same status and code; nothing is queued.
    void asyncIsCheckedBeforeItIsAccepted_data()
    {
        QTest::addColumn<QString>("customer");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("feature");
        QTest::newRow("unknown customer") << u"ghost"_s << u"acme/gift"_s << QString();
        QTest::newRow("no credit system") << u"portal"_s << u"acme/gift"_s << QString();
        QTest::newRow("unknown feature") << u"capped"_s << u"acme/gift"_s << u"ghost"_s;
        QTest::newRow("not a credit system") << u"capped"_s << u"acme/gift"_s << u"calls"_s;
        QTest::newRow("unknown model") << u"capped"_s << u"acme/ghost"_s << QString();
        QTest::newRow("usage limit full") << u"capped"_s << u"acme/gift"_s << QString();
    }
    void asyncIsCheckedBeforeItIsAccepted()
    {
        QFETCH(QString, customer);
        QFETCH(QString, model);
        QFETCH(QString, feature);
        api::TrackTokensRequest request = call(customer, 1);
        request.modelId = model;
        if (!feature.isEmpty())
            request.featureId = feature;
        const auto sync = track(request);
        request.async = true;
        const auto async = track(request);
        QVERIFY(!sync.ok());
        QVERIFY2(!async.ok(), "accepted although it would fail");
        QCOMPARE(async.error().status, sync.error().status);
        QCOMPARE(async.error().code, sync.error().code);
        QCOMPARE(queue(), (api::QueueCounts{0, 0}));
    }

    // A call that passed the checks and then failed is kept with its
    // reason, and can be retried or discarded.
    void failedCallsAreKeptRetriedAndDiscarded()
    {
        failAnAcceptedCall();
        const api::Decimal before = remaining(u"racer"_s);
        const QList<api::FailedEvent> kept = failed();
        QCOMPARE(kept.size(), 1);
        const api::FailedEvent &event = kept.first();
        QCOMPARE(event.customerId, u"racer"_s);
        QCOMPARE(event.modelId, u"acme/gift"_s);
        QCOMPARE(event.error.status, 429);
        QCOMPARE(event.error.code, u"usage_limit_reached"_s);
        QCOMPARE(event.request.value("input_tokens"_L1).numberText(), QByteArrayView("1000000"));
        QVERIFY(event.failedAt >= event.receivedAt);
        // Retried after the limit is raised, it applies; unknown ids are named.
        QVERIFY(set(u"racer"_s, [](api::UpdateBillingControlsRequest &r) {
                    r.hasUsageLimits = true;
                    r.billingControls.usageLimits = {usageLimit(1000)};
                }).ok());
        const auto retried = await(m_backend->retryFailedEvents({{event.id, u"tq_424242"_s}}));
        QVERIFY2(retried.ok(), retried.ok() ? "" : qPrintable(retried.error().message));
        QCOMPARE(retried.value().done, QStringList{event.id});
        QCOMPARE(retried.value().notFound, QStringList{u"tq_424242"_s});
        QTRY_COMPARE_WITH_TIMEOUT(queue(), (api::QueueCounts{0, 0}), 10000);
        QCOMPARE(remaining(u"racer"_s), *before.minus(credits(1)));
        // Discarded, it is gone and deducts nothing.
        failAnAcceptedCall();
        const api::Decimal left = remaining(u"racer"_s);
        const QString id = failed().first().id;
        QCOMPARE(await(m_backend->discardFailedEvents({{id}})).value().done, QStringList{id});
        QCOMPARE(queue(), (api::QueueCounts{0, 0}));
        QVERIFY(failed().isEmpty());
        QCOMPARE(remaining(u"racer"_s), left);
        // Retry and discard take 1 to 200 ids.
        const auto none = await(m_backend->retryFailedEvents({}));
        QVERIFY(!none.ok());
        QCOMPARE(none.error().code, u"invalid_inputs"_s);
    }

    // A failed event's id is taken only as issued (docs/api.md, "Ids and
    // cursors"; issue 34): a number, zero-padded or not, or the id spelled
    // another way names no event, whichever way the call travels.
    void failedEventIdsAreTakenOnlyAsIssued()
    {
        failAnAcceptedCall();
        const QString id = failed().first().id;
        QVERIFY2(id.startsWith(u"tq_"_s) && id.size() == 16 && id == id.toLower(), qPrintable(id));
        const QString digits = id.mid(3);
        const QStringList respelled{u"tq_000034"_s, u"tq_34"_s,        u"tq_1"_s,
                                    id.toUpper(),   u"TQ_"_s + digits, u"tq_0"_s + digits,
                                    id + u"0"_s,    id.chopped(1),     u"key_"_s + digits};
        for (const QString &other : respelled) {
            const auto answer = await(m_backend->retryFailedEvents({{other}}));
            QVERIFY2(answer.ok(), answer.ok() ? "" : qPrintable(answer.error().message));
            QCOMPARE(answer.value().done, QStringList());
            QCOMPARE(answer.value().notFound, QStringList{other});
        }
        QCOMPARE(queue(), (api::QueueCounts{0, 1}));
        QCOMPARE(failed().first().id, id);
        QCOMPARE(await(m_backend->discardFailedEvents({{id}})).value().done, QStringList{id});
        QCOMPARE(queue(), (api::QueueCounts{0, 0}));
    }
};

QTEST_GUILESS_MAIN(TestBillingControls)
#include "tst_billingcontrols.moc"
