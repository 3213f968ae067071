// Issue 19, the three ways (ConformanceHarness.h): amounts cross the wire
// digit for digit through every route that carries one, a number with more
// places than the engine keeps is refused naming the field, imported
// subscriptions have a real period, and the smaller promises (max_purchase
// always written, one coupon shape, 204 without body fields, the portal's
// back link).
#include "tests/conformance/ConformanceHarness.h"
#include "tests/support/JsonEdit.h"

#include <QDateTime>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using test::await;
using test::dec;
using test::overHttp;

namespace {

const QString Key = u"sk_test_delta000000000000000000000000000"_s;
const QList<std::pair<QByteArray, QByteArray>> Auth{{"authorization", "Bearer " + Key.toLatin1()},
                                                    {"x-api-version", "2.4.0"}};
// 20 significant digits: a double keeps 17 (12345678901.123457).
const char *const Long = "12345678901.123456789";

constexpr qint64 Day = 86'400'000;

} // namespace

class TestExactness final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;
    test::ServerProcess m_server;
    std::unique_ptr<backend::BillingBackend> m_backend;

    api::BalanceRow row(const QString &customer, const QString &id)
    {
        api::ListBalancesRequest request;
        request.customerId = customer;
        const auto page = await(m_backend->listBalances(request));
        for (const api::BalanceRow &r : page.value().list)
            if (r.id == id)
                return r;
        qFatal("no balance %s", qPrintable(id));
    }

    // Over HTTP, the raw answer's text holds the digits; nothing to see embedded.
    void expectOnTheWire(const QString &path, const QByteArray &body,
                         const QList<QByteArray> &digits)
    {
        if (!overHttp())
            return;
        const test::RawAnswer answer = test::rawRequest(m_server, path, Auth, body);
        QCOMPARE(answer.status, 200);
        for (const QByteArray &text : digits)
            QVERIFY2(answer.body.contains(text), answer.body.left(600).constData());
    }

    api::Subscription importedTo(const QString &customer, const QString &plan, qint64 startedAt,
                                 std::optional<qint64> anchor = {})
    {
        api::ImportCustomerRequest request;
        request.customerId = customer;
        api::Billable billable;
        billable.plan.planId = plan;
        billable.plan.startedAt = startedAt;
        billable.billingCycleAnchor = anchor;
        request.billables = {billable};
        const auto imported = await(m_backend->importCustomer(request));
        if (!imported || !imported.value().customer)
            qFatal("import failed: %s",
                   imported ? "no customer" : qPrintable(imported.error().message));
        return imported.value().customer->subscriptions.first();
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

    void balancesKeepEveryDigit()
    {
        QCOMPARE(row(u"exact"_s, u"b_exact"_s).remaining, dec("99999999999999.999999999"));
        const api::BalanceRow calls = row(u"exact"_s, u"b_exact_calls"_s);
        QCOMPARE(calls.includedGrant, dec(Long));
        QCOMPARE(calls.prepaidGrant, dec("0.000000001"));
        QCOMPARE(calls.remaining, dec("12345678901.12345679"));
        expectOnTheWire(u"/v1/balances.list"_s, R"({"customer_id":"exact"})",
                        {"99999999999999.999999999", Long, "12345678901.12345679"});
    }

    void totalsAreExact()
    {
        api::BalanceTotalsRequest request;
        request.filter.customerId = u"exact"_s;
        const auto totals = await(m_backend->balanceTotals(request));
        QVERIFY(totals.ok());
        api::ListBalancesRequest rows;
        rows.customerId = u"exact"_s;
        api::Decimal remaining;
        const auto page = await(m_backend->listBalances(rows));
        QVERIFY(page.ok());
        for (const api::BalanceRow &r : page.value().list)
            remaining = *remaining.plus(r.remaining);
        QCOMPARE(totals.value().total.remaining, remaining);
        QVERIFY(!remaining.isInteger()); // nine places, past what a double keeps
        expectOnTheWire(u"/v1/meterdesk/balances.totals"_s, R"({"customer_id":"exact"})",
                        {remaining.toString().toLatin1()});
    }

    void trackedValuesAreExact()
    {
        // 9007199254740991 tokens at 1234.567891234 per million: 23 digits.
        api::TrackTokensRequest call;
        call.customerId = u"exact"_s;
        call.modelId = u"acme/precise"_s;
        call.inputTokens = 9007199254740991;
        const auto tracked = await(m_backend->trackTokens(call));
        QVERIFY2(tracked.ok(), tracked.ok() ? "" : qPrintable(tracked.error().message));
        const api::Decimal value = dec("11119998989850.041635729");
        QCOMPARE(tracked.value().value, value);
        QCOMPARE(tracked.value().deductions.first().value, value);
        const api::Decimal left = *dec("99999999999999.999999999").minus(value);
        QCOMPARE(tracked.value().balance->remaining, left);
        QCOMPARE(row(u"exact"_s, u"b_exact"_s).remaining, left);
        QCOMPARE(left.toString(), u"88880001010149.95836427"_s);
        expectOnTheWire(u"/v1/balances.list"_s, R"({"customer_id":"exact"})",
                        {"88880001010149.95836427"});
    }

    void rewardGrantsAreExact()
    {
        api::UpdateRewardRequest request;
        request.rewardId = u"boost"_s;
        request.featureGrant = api::FeatureGrantUpdate{};
        request.featureGrant->grants = QList<api::FeatureGrant>{{u"credits"_s, dec(Long), {}}};
        const auto updated = await(m_backend->updateReward(request));
        QVERIFY2(updated.ok(), updated.ok() ? "" : qPrintable(updated.error().message));
        QCOMPARE(std::get<api::FeatureGrantRecord>(updated.value().reward).grants.first().included,
                 dec(Long));
        const auto rewards = await(m_backend->listRewards());
        bool seen = false;
        for (const api::RewardEntry &entry : rewards.value().list)
            if (const auto *grant = std::get_if<api::FeatureGrantRecord>(&entry.reward))
                seen = seen || grant->grants.value(0).included == dec(Long);
        QVERIFY(seen);
        expectOnTheWire(u"/v1/meterdesk/rewards.list"_s, "{}", {Long});
    }

    void productAmountsAreExact()
    {
        api::UpdateProductRequest request;
        api::ProductItem credits;
        credits.featureId = u"credits"_s;
        credits.includedUsage = dec(Long);
        credits.price = dec("98765432109.87654321");
        credits.billingUnits = dec("0.000000001");
        api::ProductItem calls;
        calls.featureId = u"calls"_s;
        calls.tiers =
            QList<api::Tier>{{dec(Long), dec("0.123456789"), dec("10000000000.000000001")},
                             {std::nullopt, dec("0.000000001"), {}}};
        request.items = QList<api::ProductItem>{credits, calls};
        const auto updated = await(m_backend->updateProduct(u"spare"_s, request));
        QVERIFY2(updated.ok(), updated.ok() ? "" : qPrintable(updated.error().message));
        QCOMPARE(updated.value().items, *request.items);
        const auto products = await(m_backend->listProducts());
        bool seen = false;
        for (const api::Product &product : products.value().list)
            seen = seen || (product.id == u"spare"_s && product.items == *request.items);
        QVERIFY(seen);
        expectOnTheWire(u"/v1/meterdesk/products.list"_s, "{}",
                        {Long, "98765432109.87654321", "0.123456789", "10000000000.000000001"});
    }

    void importedUsageIsExact()
    {
        api::ImportCustomerRequest request;
        request.customerId = u"imported-exact"_s;
        api::Billable billable;
        billable.plan.planId = u"metered"_s;
        billable.plan.balances = {{u"credits"_s, dec("12.123456789"), {}, {}, {}}};
        request.billables = {billable};
        const auto imported = await(m_backend->importCustomer(request));
        QVERIFY2(imported.ok(), imported.ok() ? "" : qPrintable(imported.error().message));
        const api::BalanceSummary &credits =
            imported.value().customer->balances.value(u"credits"_s);
        QCOMPARE(credits.usage, dec("12.123456789"));
        QCOMPARE(credits.remaining, dec("87.876543211"));
    }

    // The engine keeps 9 places: a 10th is refused, naming the field, never rounded.
    void morePlacesThanKeptAreRefused_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("field");
        QTest::newRow("grant") << u"/v1/rewards.update"_s
                               << QByteArray(R"({"reward_id":"boost","feature_grant":{"grants":[
                                    {"feature_id":"credits","included":0.1234567891}]}})")
                               << u"feature_grant.grants[0].included"_s;
        QTest::newRow("price") << u"/v1/products/spare"_s
                               << QByteArray(
                                      R"({"items":[{"feature_id":"credits","price":1e-10}]})")
                               << u"items[0].price"_s;
        QTest::newRow("import usage")
            << u"/v1/billing.import"_s
            << QByteArray(R"({"customer_id":"x","billables":[{"plan":{"plan_id":"metered",
                 "balances":[{"feature_id":"credits","usage":12345678901.1234567891}]}}]})")
            << u"billables[0].plan.balances[0].usage"_s;
    }
    void morePlacesThanKeptAreRefused()
    {
        QFETCH(QString, path);
        QFETCH(QByteArray, body);
        QFETCH(QString, field);
        // Embedded, the request never leaves a Decimal: the decoders are what
        // both the server and EngineBackend read with.
        const api::Result<api::Done> decoded = [&]() -> api::Result<api::Done> {
            if (path.contains(u"rewards"_s))
                if (auto r = api::decodeBody<api::UpdateRewardRequest>(body); !r)
                    return r.error();
            if (path.contains(u"products"_s))
                if (auto r = api::decodeBody<api::UpdateProductRequest>(body); !r)
                    return r.error();
            if (path.contains(u"import"_s))
                if (auto r = api::decodeBody<api::ImportCustomerRequest>(body); !r)
                    return r.error();
            return api::Done{};
        }();
        QVERIFY(!decoded.ok());
        QCOMPARE(decoded.error().code, u"invalid_inputs"_s);
        QVERIFY2(decoded.error().message.startsWith(field + u": "_s),
                 qPrintable(decoded.error().message));
        QVERIFY2(decoded.error().message.contains(u"decimal places"_s),
                 qPrintable(decoded.error().message));
        if (!overHttp())
            return;
        const test::RawAnswer answer = test::rawRequest(m_server, path, Auth, body);
        QCOMPARE(answer.status, 400);
        QCOMPARE(answer.json().value(u"message"_s).toString(), decoded.error().message);
    }

    // The period of the plan's recurring price holding now, counted from
    // the plan's start (or the billing cycle anchor).
    void importedSubscriptionsHaveARealPeriod()
    {
        const QDateTime now = QDateTime::currentDateTimeUtc();
        const QDateTime started = now.addDays(-45);
        // Monthly recurring price: the second month of the plan.
        api::Subscription monthly =
            importedTo(u"period-m"_s, u"metered"_s, started.toMSecsSinceEpoch());
        QCOMPARE(monthly.startedAt, started.toMSecsSinceEpoch());
        QCOMPARE(monthly.currentPeriodStart, started.addMonths(1).toMSecsSinceEpoch());
        QCOMPARE(monthly.currentPeriodEnd, started.addMonths(2).toMSecsSinceEpoch());
        // No price, a weekly reset: weeks from the start (45 days: the 7th week).
        api::Subscription weekly =
            importedTo(u"period-w"_s, u"weekly"_s, started.toMSecsSinceEpoch());
        QCOMPARE(weekly.currentPeriodStart, started.toMSecsSinceEpoch() + 42 * Day);
        QCOMPARE(weekly.currentPeriodEnd, started.toMSecsSinceEpoch() + 49 * Day);
        // Nothing that recurs: a month, the rule docs/api.md states.
        api::Subscription once = importedTo(u"period-o"_s, u"once"_s, started.toMSecsSinceEpoch());
        QCOMPARE(once.currentPeriodEnd, started.addMonths(2).toMSecsSinceEpoch());
        // A billing cycle anchor sets the day periods turn on.
        const QDateTime anchor = now.addDays(-3);
        api::Subscription anchored = importedTo(
            u"period-a"_s, u"metered"_s, started.toMSecsSinceEpoch(), anchor.toMSecsSinceEpoch());
        QCOMPARE(anchored.currentPeriodStart, anchor.toMSecsSinceEpoch());
        QCOMPARE(anchored.currentPeriodEnd, anchor.addMonths(1).toMSecsSinceEpoch());
        QVERIFY(anchored.currentPeriodStart <= now.toMSecsSinceEpoch() &&
                now.toMSecsSinceEpoch() < anchored.currentPeriodEnd);
    }

    // The published client requires the key: null when nothing caps a purchase.
    void maxPurchaseIsAlwaysWritten()
    {
        api::TrackTokensRequest call;
        call.customerId = u"teams"_s;
        call.modelId = u"acme/gift"_s;
        call.inputTokens = 1'000'000;
        const auto tracked = await(m_backend->trackTokens(call));
        QVERIFY(tracked.ok());
        QVERIFY(!tracked.value().balance->maxPurchase);
        QVERIFY(test::json(*tracked.value().balance).value("max_purchase"_L1).isNull());
        const auto customer = await(m_backend->customer(u"noover"_s));
        QCOMPARE(customer.value().balances.value(u"credits"_s).maxPurchase,
                 std::optional(api::Decimal::fromInteger(40)));
        if (!overHttp())
            return;
        const test::RawAnswer answer = test::rawRequest(
            m_server, u"/v1/balances.track_tokens"_s, Auth,
            R"({"customer_id":"teams","model_id":"acme/gift","input_tokens":1,"output_tokens":0})");
        QCOMPARE(answer.status, 200);
        const QByteArray unlimited = R"("max_purchase":null)";
        QVERIFY2(answer.body.contains(unlimited), answer.body.constData());
    }

    // rewards.list and rewards.update show a coupon alike (duration included).
    void aCouponHasOneShape()
    {
        const auto listed = [this] {
            const auto rewards = await(m_backend->listRewards());
            for (const api::RewardEntry &entry : rewards.value().list)
                if (const auto *coupon = std::get_if<api::CouponRecord>(&entry.reward);
                    coupon && coupon->id == u"spring"_s)
                    return test::json(entry);
            qFatal("no coupon spring");
        };
        const api::JsonValue before = listed();
        api::UpdateRewardRequest request;
        request.rewardId = u"spring"_s;
        request.coupon = api::CouponUpdate{};
        request.coupon->name = u"Spring"_s; // unchanged: the answer is the stored record
        const auto updated = await(m_backend->updateReward(request));
        QVERIFY(updated.ok());
        QCOMPARE(test::canonicalText(updated.value()), test::canonicalText(before));
        QCOMPARE(test::canonicalText(listed()), test::canonicalText(before));
        const api::JsonValue duration = before.value("coupon"_L1).value("duration"_L1);
        QCOMPARE(duration.value("type"_L1).toString(), u"months"_s);
        QCOMPARE(duration.value("length"_L1).numberText(), QByteArrayView("2"));
        if (!overHttp())
            return;
        const test::RawAnswer list =
            test::rawRequest(m_server, u"/v1/meterdesk/rewards.list"_s, Auth, "{}");
        const QByteArray shape = R"("duration":{"type":"months","length":2})";
        QVERIFY2(list.body.contains(shape), list.body.constData());
    }

    // RFC 9110: a 204 carries no Content-Type nor Content-Length.
    void asyncAnswerHasNoBodyFields()
    {
        if (!overHttp())
            QSKIP("about the wire");
        const test::RawAnswer answer = test::rawRequest(
            m_server, u"/v1/balances.track_tokens"_s, Auth,
            R"({"customer_id":"teams","model_id":"acme/gift","input_tokens":1,"output_tokens":0,"async":true})");
        QCOMPARE(answer.status, 204);
        for (const auto &[name, value] : answer.headers)
            QVERIFY2(name != "content-type" && name != "content-length", name.constData());
    }

    // The portal page's back button leads to the return_url it was given.
    void portalBackLinkIsTheReturnUrl()
    {
        api::BillingPortalRequest request;
        request.returnUrl = u"https://app.example/settings?tab=billing&x=1"_s;
        const auto portal = await(m_backend->billingPortal(u"portal"_s, request));
        QVERIFY2(portal.ok(), portal.ok() ? "" : qPrintable(portal.error().message));
        QNetworkAccessManager network;
        QNetworkRequest get{QUrl(portal.value().url)};
        if (test::conformanceMode() == "remote-tls"_L1) {
            QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
            tls.addCaCertificates(test::testCa());
            get.setSslConfiguration(tls);
        }
        QNetworkReply *reply = network.get(get);
        QSignalSpy finished(reply, &QNetworkReply::finished);
        QVERIFY(finished.wait(10000));
        const QByteArray page = reply->readAll();
        reply->deleteLater();
        const QByteArray link = R"(href="https://app.example/settings?tab=billing&amp;x=1")";
        QVERIFY2(page.contains(link), page.left(2000).constData());
    }
};

QTEST_GUILESS_MAIN(TestExactness)
#include "tst_exactness.moc"
