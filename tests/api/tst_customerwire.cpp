// Balance summaries (snake_case and camelCase) and the import's customer object:
// round trips and one rejection per rule.
#include "services/api/Customer.h"
#include "tests/api/wiretest.h"

using namespace md::api;
using namespace wiretest;
using namespace Qt::StringLiterals;

class TestCustomerWire final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void summaryRoundTrips_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QByteArray>("value");
        QTest::newRow("full") << QString() << QByteArray();
        QTest::newRow("max_purchase null") << u"max_purchase"_s << QByteArray("null");
        QTest::newRow("next_reset_at null") << u"next_reset_at"_s << QByteArray("null");
        QTest::newRow("row without interval_count")
            << u"breakdown.0.reset.interval_count"_s << QByteArray();
        QTest::newRow("no breakdown") << u"breakdown"_s << QByteArray("[]");
        QTest::newRow("timestamp at 2^53-1")
            << u"next_reset_at"_s << QByteArray("9007199254740991");
    }
    void summaryRoundTrips()
    {
        QFETCH(QString, pointer);
        QFETCH(QByteArray, value);
        const JsonValue full = parse(SnakeSummary);
        verifyRoundTrip<BalanceSummary>(pointer.isEmpty() ? full : replaced(full, pointer, value));
    }

    // The published client requires max_purchase (null when unlimited), so
    // it is always written and always read.
    void summaryAlwaysCarriesMaxPurchase()
    {
        const JsonValue full = parse(SnakeSummary);
        const auto set = decode<BalanceSummary>(full);
        QVERIFY(set.ok());
        QCOMPARE(set.value().maxPurchase, std::optional(Decimal::fromInteger(500)));
        const auto null = decode<BalanceSummary>(replaced(full, u"max_purchase"_s, "null"));
        QVERIFY(null.ok());
        QVERIFY(!null.value().maxPurchase.has_value());
        QVERIFY(md::test::json(null.value()).value("max_purchase"_L1).isNull());
        QVERIFY(!decode<BalanceSummary>(replaced(full, u"max_purchase"_s, {})).ok());
        QCOMPARE(set.value().breakdown.at(0).remaining.toString(), u"87.25"_s);
    }

    // A summary's max_purchase is the largest of its rows' prices, null when
    // no row's price sets one.
    void summaryTakesMaxPurchaseFromPrices()
    {
        BalanceRow row;
        row.id = u"b1"_s;
        BalanceSummary summary;
        QVERIFY(summary.add(row));
        QVERIFY(!summary.maxPurchase);
        Price price;
        price.maxPurchase = Decimal::fromInteger(40);
        row.price = price;
        QVERIFY(summary.add(row));
        price.maxPurchase = Decimal::fromInteger(90);
        row.price = price;
        QVERIFY(summary.add(row));
        QCOMPARE(summary.maxPurchase, std::optional(Decimal::fromInteger(90)));
    }

    void summaryRejects_data()
    {
        addPointerColumns();
        QTest::newRow("missing feature_id")
            << u"feature_id"_s << QByteArray() << u"feature_id: is required"_s;
        QTest::newRow("feature_id wrong type")
            << u"feature_id"_s << QByteArray("7") << u"feature_id: expected a string"_s;
        QTest::newRow("granted is text")
            << u"granted"_s << QByteArray("\"120\"") << u"granted: expected a number"_s;
        QTest::newRow("remaining null")
            << u"remaining"_s << QByteArray("null") << u"remaining: expected a number"_s;
        QTest::newRow("usage too precise") << u"usage"_s << QByteArray("0.0000000001")
                                           << u"usage: 0.0000000001 has 10 decimal places"_s;
        QTest::newRow("unlimited not bool")
            << u"unlimited"_s << QByteArray("0") << u"unlimited: expected a boolean"_s;
        QTest::newRow("missing overage_allowed")
            << u"overage_allowed"_s << QByteArray() << u"overage_allowed: is required"_s;
        QTest::newRow("max_purchase negative")
            << u"max_purchase"_s << QByteArray("-1") << u"max_purchase: must not be negative"_s;
        QTest::newRow("max_purchase word")
            << u"max_purchase"_s << QByteArray("\"inf\"") << u"max_purchase: expected a number"_s;
        QTest::newRow("missing next_reset_at")
            << u"next_reset_at"_s << QByteArray() << u"next_reset_at: is required"_s;
        QTest::newRow("next_reset_at beyond 2^53")
            << u"next_reset_at"_s << QByteArray("9007199254740992")
            << u"next_reset_at: expected an integer"_s;
        QTest::newRow("next_reset_at negative") << u"next_reset_at"_s << QByteArray("-1")
                                                << u"next_reset_at: expected an integer from 0"_s;
        QTest::newRow("breakdown not array")
            << u"breakdown"_s << QByteArray("{}") << u"breakdown: expected an array"_s;
        QTest::newRow("missing breakdown")
            << u"breakdown"_s << QByteArray() << u"breakdown: is required"_s;
        QTest::newRow("row not object")
            << u"breakdown.1"_s << QByteArray("5") << u"breakdown[1]: expected an object"_s;
        QTest::newRow("row missing included_grant")
            << u"breakdown.0.included_grant"_s << QByteArray()
            << u"breakdown[0].included_grant: is required"_s;
        QTest::newRow("row prepaid_grant text")
            << u"breakdown.0.prepaid_grant"_s << QByteArray("\"20\"")
            << u"breakdown[0].prepaid_grant: expected a number"_s;
        QTest::newRow("row plan_id number") << u"breakdown.0.plan_id"_s << QByteArray("1")
                                            << u"breakdown[0].plan_id: expected a string"_s;
        QTest::newRow("row missing plan_id")
            << u"breakdown.1.plan_id"_s << QByteArray() << u"breakdown[1].plan_id: is required"_s;
        QTest::newRow("row missing reset")
            << u"breakdown.1.reset"_s << QByteArray() << u"breakdown[1].reset: is required"_s;
        QTest::newRow("row reset interval unknown")
            << u"breakdown.0.reset.interval"_s << QByteArray("\"fortnight\"")
            << u"breakdown[0].reset.interval: \"fortnight\" is not one of"_s;
        QTest::newRow("row reset interval_count zero")
            << u"breakdown.0.reset.interval_count"_s << QByteArray("0")
            << u"breakdown[0].reset.interval_count: expected an integer from 1"_s;
        QTest::newRow("row missing resets_at") << u"breakdown.0.reset.resets_at"_s << QByteArray()
                                               << u"breakdown[0].reset.resets_at: is required"_s;
        QTest::newRow("row tier to word")
            << u"breakdown.0.price.tiers.0.to"_s << QByteArray("\"infinity\"")
            << u"breakdown[0].price.tiers[0].to: expected a number or \"inf\""_s;
        QTest::newRow("row billing method unknown")
            << u"breakdown.0.price.billing_method"_s << QByteArray("\"monthly\"")
            << u"breakdown[0].price.billing_method: \"monthly\" is not one of"_s;
        QTest::newRow("row expires_at beyond 2^53")
            << u"breakdown.1.expires_at"_s << QByteArray("9007199254740992")
            << u"breakdown[1].expires_at: expected an integer"_s;
        QTest::newRow("row unlimited text") << u"breakdown.1.unlimited"_s << QByteArray("\"no\"")
                                            << u"breakdown[1].unlimited: expected a boolean"_s;
    }
    void summaryRejects() { verifyPointerRejects<BalanceSummary>(parse(SnakeSummary)); }

    void camelSummaryRoundTrips()
    {
        const JsonValue customer = parse(FullCustomer);
        const JsonValue &balances = customer.value("balances"_L1);
        QVERIFY(balances.size() > 0);
        for (qsizetype i = 0; i < balances.size(); ++i)
            verifyRoundTrip<BalanceSummary>(balances.at(i), &BalanceSummary::readCamel,
                                            &BalanceSummary::writeCamel);
    }

    void camelAndSnakeFormsAgree()
    {
        // The same summary in both spellings decodes to equal values.
        const JsonValue snake = replaced(parse(SnakeSummary), u"breakdown"_s, "[]");
        JsonValue camel = parse(FullCustomer).value("balances"_L1).value("ai_credits"_L1);
        camel = replaced(camel, u"breakdown"_s, "[]");
        camel = replaced(camel, u"maxPurchase"_s, "500");
        const auto fromSnake = decode<BalanceSummary>(snake);
        const auto fromCamel = decodeWith<BalanceSummary>(camel, &BalanceSummary::readCamel);
        QVERIFY(fromSnake.ok());
        QVERIFY(fromCamel.ok());
        QVERIFY(fromSnake.value() == fromCamel.value());
        QCOMPARE(md::test::canonicalText(written(fromSnake.value(), &BalanceSummary::writeCamel)),
                 md::test::canonicalText(camel));
        QCOMPARE(md::test::canonicalText(fromCamel.value()), md::test::canonicalText(snake));
    }

    void customerRoundTrips_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QByteArray>("value");
        QTest::newRow("full") << QString() << QByteArray();
        QTest::newRow("no stripe id") << u"stripeId"_s << QByteArray("null");
        QTest::newRow("fingerprint set") << u"fingerprint"_s << QByteArray("\"fp_1\"");
        QTest::newRow("production") << u"env"_s << QByteArray("\"production\"");
        QTest::newRow("no balances") << u"balances"_s << QByteArray("{}");
        QTest::newRow("createdAt at 2^53-1") << u"createdAt"_s << QByteArray("9007199254740991");
        QTest::newRow("canceled subscription")
            << u"subscriptions.0"_s
            << QByteArray(R"({"planId":"pro","autoEnable":true,"addOn":true,"status":"canceled",
               "pastDue":true,"canceledAt":1764547200000,"expiresAt":9007199254740991,
               "trialEndsAt":null,"startedAt":0,"currentPeriodStart":0,"currentPeriodEnd":0,
               "quantity":2.5})");
    }
    void customerRoundTrips()
    {
        QFETCH(QString, pointer);
        QFETCH(QByteArray, value);
        const JsonValue full = parse(FullCustomer);
        verifyRoundTrip<Customer>(pointer.isEmpty() ? full : replaced(full, pointer, value));
    }

    void customerDecodesValues()
    {
        const auto customer = decode<Customer>(parse(FullCustomer));
        QVERIFY(customer.ok());
        const Customer &c = customer.value();
        QCOMPARE(c.stripeId, std::optional(u"cus_123"_s));
        QCOMPARE(c.processors.value(u"stripe"_s), u"cus_123"_s);
        QCOMPARE(c.env, Environment::Sandbox);
        QCOMPARE(c.balances.value(u"ai_credits"_s).remaining.toString(), u"87.25"_s);
        QVERIFY(!c.balances.value(u"ai_credits"_s).breakdown.at(0).price->tiers->at(1).to);
        QCOMPARE(c.subscriptions.at(0).status, PlanStatus::Active);
        QCOMPARE(c.subscriptions.at(0).trialEndsAt, std::optional<qint64>(1762560000000));
        QCOMPARE(c.flags.value(u"sso"_s).planId, std::optional(u"pro"_s));
        QVERIFY(c.config.disableOverageBilling);
        QCOMPARE(c.billingControls.autoTopups.size(), 1);
    }

    void customerIgnoresUnknownKeys()
    {
        const JsonValue full = parse(FullCustomer);
        JsonValue extended = replaced(full, u"futureField"_s, "{\"x\":1}");
        extended = replaced(extended, u"subscriptions.0.renewsAt"_s, "5");
        extended =
            replaced(extended, u"balances.ai_credits.breakdown.0.price.currency"_s, "\"usd\"");
        extended = replaced(extended, u"config.disable_everything"_s, "true");
        const auto decoded = decode<Customer>(extended);
        QVERIFY2(decoded.ok(), qPrintable(decoded.ok() ? QString() : decoded.error().message));
        QCOMPARE(md::test::canonicalText(decoded.value()), md::test::canonicalText(full));
    }

    void customerRejects_data()
    {
        addPointerColumns();
        QTest::newRow("missing id") << u"id"_s << QByteArray() << u"id: is required"_s;
        QTest::newRow("missing email") << u"email"_s << QByteArray() << u"email: is required"_s;
        QTest::newRow("name number")
            << u"name"_s << QByteArray("1") << u"name: expected a string"_s;
        QTest::newRow("createdAt text")
            << u"createdAt"_s << QByteArray("\"yesterday\"") << u"createdAt: expected an integer"_s;
        QTest::newRow("createdAt beyond 2^53") << u"createdAt"_s << QByteArray("9007199254740992")
                                               << u"createdAt: expected an integer"_s;
        QTest::newRow("createdAt negative")
            << u"createdAt"_s << QByteArray("-1") << u"createdAt: expected an integer from 0"_s;
        QTest::newRow("fingerprint number")
            << u"fingerprint"_s << QByteArray("5") << u"fingerprint: expected a string"_s;
        QTest::newRow("missing stripeId")
            << u"stripeId"_s << QByteArray() << u"stripeId: is required"_s;
        QTest::newRow("processors array")
            << u"processors"_s << QByteArray("[]") << u"processors: expected an object"_s;
        QTest::newRow("processor value text") << u"processors.stripe"_s << QByteArray("\"cus_1\"")
                                              << u"processors.stripe: expected an object"_s;
        QTest::newRow("processor id number") << u"processors.stripe.id"_s << QByteArray("3")
                                             << u"processors.stripe.id: expected a string"_s;
        QTest::newRow("unknown env")
            << u"env"_s << QByteArray("\"staging\"")
            << u"env: \"staging\" is not one of \"sandbox\", \"production\""_s;
        QTest::newRow("metadata array")
            << u"metadata"_s << QByteArray("[]") << u"metadata: expected an object"_s;
        QTest::newRow("sendEmailReceipts text") << u"sendEmailReceipts"_s << QByteArray("\"yes\"")
                                                << u"sendEmailReceipts: expected a boolean"_s;
        QTest::newRow("missing billingControls")
            << u"billingControls"_s << QByteArray() << u"billingControls: is required"_s;
        QTest::newRow("autoTopups object") << u"billingControls.autoTopups"_s << QByteArray("{}")
                                           << u"billingControls.autoTopups: expected an array"_s;
        QTest::newRow("subscriptions object")
            << u"subscriptions"_s << QByteArray("{}") << u"subscriptions: expected an array"_s;
        QTest::newRow("subscription status unknown")
            << u"subscriptions.0.status"_s << QByteArray("\"paused\"")
            << u"subscriptions[0].status: \"paused\" is not one of"_s;
        QTest::newRow("subscription missing planId") << u"subscriptions.0.planId"_s << QByteArray()
                                                     << u"subscriptions[0].planId: is required"_s;
        QTest::newRow("subscription autoEnable null")
            << u"subscriptions.0.autoEnable"_s << QByteArray("null")
            << u"subscriptions[0].autoEnable: expected a boolean"_s;
        QTest::newRow("subscription canceledAt text")
            << u"subscriptions.0.canceledAt"_s << QByteArray("\"never\"")
            << u"subscriptions[0].canceledAt: expected an integer"_s;
        QTest::newRow("subscription trialEndsAt missing")
            << u"subscriptions.0.trialEndsAt"_s << QByteArray()
            << u"subscriptions[0].trialEndsAt: is required"_s;
        QTest::newRow("subscription startedAt fraction")
            << u"subscriptions.0.startedAt"_s << QByteArray("1.5")
            << u"subscriptions[0].startedAt: expected an integer"_s;
        QTest::newRow("subscription period ends before start")
            << u"subscriptions.0.currentPeriodEnd"_s << QByteArray("1764547199999")
            << u"subscriptions[0].currentPeriodEnd: must not be before currentPeriodStart"_s;
        QTest::newRow("subscription period start beyond 2^53")
            << u"subscriptions.0.currentPeriodStart"_s << QByteArray("9007199254740992")
            << u"subscriptions[0].currentPeriodStart: expected an integer"_s;
        QTest::newRow("subscription quantity negative")
            << u"subscriptions.0.quantity"_s << QByteArray("-1")
            << u"subscriptions[0].quantity: must not be negative"_s;
        QTest::newRow("purchases object")
            << u"purchases"_s << QByteArray("{}") << u"purchases: expected an array"_s;
        QTest::newRow("licenses null")
            << u"licenses"_s << QByteArray("null") << u"licenses: expected an array"_s;
        QTest::newRow("balances array")
            << u"balances"_s << QByteArray("[]") << u"balances: expected an object"_s;
        QTest::newRow("balance value null")
            << u"balances.seats"_s << QByteArray("null") << u"balances.seats: expected an object"_s;
        QTest::newRow("balance missing featureId")
            << u"balances.ai_credits.featureId"_s << QByteArray()
            << u"balances.ai_credits.featureId: is required"_s;
        QTest::newRow("balance overageAllowed text")
            << u"balances.ai_credits.overageAllowed"_s << QByteArray("\"yes\"")
            << u"balances.ai_credits.overageAllowed: expected a boolean"_s;
        QTest::newRow("balance maxPurchase negative")
            << u"balances.ai_credits.maxPurchase"_s << QByteArray("-1")
            << u"balances.ai_credits.maxPurchase: must not be negative"_s;
        QTest::newRow("balance nextResetAt beyond 2^53")
            << u"balances.ai_credits.nextResetAt"_s << QByteArray("9007199254740992")
            << u"balances.ai_credits.nextResetAt: expected an integer"_s;
        QTest::newRow("row planId number")
            << u"balances.ai_credits.breakdown.0.planId"_s << QByteArray("1")
            << u"balances.ai_credits.breakdown[0].planId: expected a string"_s;
        QTest::newRow("row missing includedGrant")
            << u"balances.seats.breakdown.0.includedGrant"_s << QByteArray()
            << u"balances.seats.breakdown[0].includedGrant: is required"_s;
        QTest::newRow("row reset resetsAt text")
            << u"balances.ai_credits.breakdown.0.reset.resetsAt"_s << QByteArray("\"soon\"")
            << u"balances.ai_credits.breakdown[0].reset.resetsAt: expected an integer"_s;
        QTest::newRow("row reset interval unknown")
            << u"balances.ai_credits.breakdown.0.reset.interval"_s << QByteArray("\"fortnight\"")
            << u"balances.ai_credits.breakdown[0].reset.interval: \"fortnight\" is not one of"_s;
        QTest::newRow("row reset intervalCount zero")
            << u"balances.ai_credits.breakdown.0.reset.intervalCount"_s << QByteArray("0")
            << u"balances.ai_credits.breakdown[0].reset.intervalCount: expected an integer from 1"_s;
        QTest::newRow("row tier to word")
            << u"balances.ai_credits.breakdown.0.price.tiers.0.to"_s << QByteArray("\"infinity\"")
            << u"balances.ai_credits.breakdown[0].price.tiers[0].to: expected a number or \"inf\""_s;
        QTest::newRow("row tier inf not last")
            << u"balances.ai_credits.breakdown.0.price.tiers.0.to"_s << QByteArray("\"inf\"")
            << u"balances.ai_credits.breakdown[0].price.tiers[0].to: only the last tier"_s;
        QTest::newRow("row tiers not rising")
            << u"balances.ai_credits.breakdown.0.price.tiers.1.to"_s << QByteArray("50")
            << u"balances.ai_credits.breakdown[0].price.tiers[1].to: tiers must be in increasing"_s;
        QTest::newRow("row tier flatAmount negative")
            << u"balances.ai_credits.breakdown.0.price.tiers.1.flatAmount"_s << QByteArray("-1")
            << u"balances.ai_credits.breakdown[0].price.tiers[1].flatAmount: must not be negative"_s;
        QTest::newRow("row billingUnits zero")
            << u"balances.ai_credits.breakdown.0.price.billingUnits"_s << QByteArray("0")
            << u"balances.ai_credits.breakdown[0].price.billingUnits: must be greater than 0"_s;
        QTest::newRow("row missing billingMethod")
            << u"balances.ai_credits.breakdown.0.price.billingMethod"_s << QByteArray()
            << u"balances.ai_credits.breakdown[0].price.billingMethod: is required"_s;
        QTest::newRow("row tierBehavior unknown")
            << u"balances.ai_credits.breakdown.0.price.tierBehavior"_s << QByteArray("\"flat\"")
            << u"balances.ai_credits.breakdown[0].price.tierBehavior: \"flat\" is not one of"_s;
        QTest::newRow("row price maxPurchase missing")
            << u"balances.ai_credits.breakdown.0.price.maxPurchase"_s << QByteArray()
            << u"balances.ai_credits.breakdown[0].price.maxPurchase: is required"_s;
        QTest::newRow("row expiresAt beyond 2^53")
            << u"balances.seats.breakdown.0.expiresAt"_s << QByteArray("9007199254740992")
            << u"balances.seats.breakdown[0].expiresAt: expected an integer"_s;
        QTest::newRow("flags array")
            << u"flags"_s << QByteArray("[]") << u"flags: expected an object"_s;
        QTest::newRow("flag missing feature_id")
            << u"flags.sso.feature_id"_s << QByteArray() << u"flags.sso.feature_id: is required"_s;
        QTest::newRow("flag plan_id number") << u"flags.sso.plan_id"_s << QByteArray("2")
                                             << u"flags.sso.plan_id: expected a string"_s;
        QTest::newRow("flag expires_at fraction") << u"flags.sso.expires_at"_s << QByteArray("1.5")
                                                  << u"flags.sso.expires_at: expected an integer"_s;
        QTest::newRow("config flag number")
            << u"config.disable_pooled_balance"_s << QByteArray("0")
            << u"config.disable_pooled_balance: expected a boolean"_s;
        QTest::newRow("missing config flag") << u"config.disable_overage_billing"_s << QByteArray()
                                             << u"config.disable_overage_billing: is required"_s;
    }
    void customerRejects() { verifyPointerRejects<Customer>(parse(FullCustomer)); }
};

QTEST_GUILESS_MAIN(TestCustomerWire)
#include "tst_customerwire.moc"
