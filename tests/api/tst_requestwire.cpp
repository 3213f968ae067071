// billing.import, balances.track_tokens, billing_portal and platform link wire
// types: round trips and one rejection per rule.
#include "services/api/BillingPortal.h"
#include "services/api/ImportCustomer.h"
#include "services/api/LinkOrganization.h"
#include "services/api/TrackTokens.h"
#include "tests/api/wiretest.h"

using namespace md::api;
using namespace wiretest;
using namespace Qt::StringLiterals;

namespace {

const QByteArray FullImport = R"({"customer_id":"acme","dry_run":true,
 "processors":[{"type":"stripe","id":"cus_123"},{"type":"revenuecat","id":"app_user_9"}],
 "customer_data":{"name":"Acme Inc","email":"billing@acme.test","fingerprint":"fp_1",
   "created_at":1761955200000},
 "billables":[{"processor":"stripe","link":{"subscription_id":"sub_1","schedule_id":"sched_1"},
   "billing_cycle_anchor":1764547200000,
   "plan":{"plan_id":"pro","version":2,"status":"trialing","started_at":1761955200000,
     "quantity":3,"feature_quantities":[{"feature_id":"seats","quantity":3}],
     "balances":[{"feature_id":"ai_credits","usage":12.5,"balance":87.5,
       "next_reset_at":1767225600000,"filter":{"interval":"month","billing_behavior":"prepaid"}},
       {"feature_id":"messages","usage":0}]}},
  {"processor":"revenuecat","plan":{"plan_id":"mobile_pro","status":"active"}}]})";

QByteArray importResponse(const QByteArray &customer)
{
    return R"({"customer_id":"acme","flashed":[
  {"plan_id":"pro","processor":"stripe","customer_product_id":"cp_1","status":"active","skipped":false},
  {"plan_id":"legacy","processor":"revenuecat","customer_product_id":null,"status":"expired",
   "skipped":true,"expired":true,"mismatch":false,"reason":"already_active"}],
 "customer":)" +
           customer + "}";
}

const QByteArray FullTrack = R"({"customer_id":"acme",
 "model_id":"openrouter/anthropic/claude-sonnet-4","input_tokens":1200,"output_tokens":350,
 "cache_read_tokens":800,"cache_write_tokens":100,"reasoning_tokens":50,"audio_input_tokens":0,
 "audio_output_tokens":9007199254740991,"entity_id":"seat-1","feature_id":"ai_credits",
 "properties":{"conversation":"c_1","tags":["a"]},"timestamp":9007199254740991,
 "overage_behavior":"overflow","async":true})";

QByteArray trackResponse()
{
    return R"({"customer_id":"acme","value":0.01235,"entity_id":"seat-1","balance":)" +
           SnakeSummary + R"(,"balances":{"ai_credits":)" + SnakeSummary +
           R"(,"legacy_credits":null},
 "deductions":[{"balance_id":"bal_1","feature_id":"ai_credits","plan_id":"pro",
   "reset":{"interval":"month","resets_at":1767225600000},"value":0.01},
  {"balance_id":"bal_2","feature_id":"ai_credits","plan_id":null,"reset":null,"value":0.00235}]})";
}

} // namespace

class TestRequestWire final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // --- billing.import request ---
    void importRoundTrips_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("full") << FullImport;
        QTest::newRow("no billables, no processor")
            << QByteArray(R"({"customer_id":"free_user","billables":[],"dry_run":false})");
        QTest::newRow("every plan status")
            << QByteArray(R"({"customer_id":"c","dry_run":false,"billables":[
               {"processor":"stripe","plan":{"plan_id":"a","status":"active"}},
               {"processor":"stripe","plan":{"plan_id":"b","status":"past_due"}},
               {"processor":"stripe","plan":{"plan_id":"c","status":"canceled"}},
               {"processor":"stripe","plan":{"plan_id":"d","status":"expired"}}]})");
    }
    void importRoundTrips() { verifyBodyRoundTrip<ImportCustomerRequest>(); }

    void importDefaults()
    {
        const auto request = decodeBody<ImportCustomerRequest>(
            R"({"customer_id":"c","billables":[{"plan":{"plan_id":"pro"}}]})");
        QVERIFY2(request.ok(), qPrintable(request.ok() ? QString() : request.error().message));
        QCOMPARE(request.value().billables.at(0).processor, Processor::Stripe);
        QVERIFY(!request.value().dryRun);
        QVERIFY(request.value().processors.isEmpty());
        QVERIFY(!request.value().customerData);
        QVERIFY(!request.value().billables.at(0).plan.status);
        const auto full = decodeBody<ImportCustomerRequest>(FullImport);
        QVERIFY(full.ok());
        const ImportBalance &balance = full.value().billables.at(0).plan.balances.at(0);
        QCOMPARE(balance.usage->toString(), u"12.5"_s);
        QCOMPARE(balance.filter->billingBehavior, std::optional(BillingMethod::Prepaid));
    }

    void importRejects_data()
    {
        addPointerColumns();
        QTest::newRow("missing customer_id")
            << u"customer_id"_s << QByteArray() << u"customer_id: is required"_s;
        QTest::newRow("customer_id number")
            << u"customer_id"_s << QByteArray("1") << u"customer_id: expected a string"_s;
        QTest::newRow("missing billables")
            << u"billables"_s << QByteArray() << u"billables: is required"_s;
        QTest::newRow("billables object")
            << u"billables"_s << QByteArray("{}") << u"billables: expected an array"_s;
        QTest::newRow("billable unknown processor")
            << u"billables.0.processor"_s << QByteArray("\"paypal\"")
            << u"billables[0].processor: \"paypal\" is not one of \"stripe\", \"revenuecat\""_s;
        QTest::newRow("billable link text") << u"billables.0.link"_s << QByteArray("\"sub_1\"")
                                            << u"billables[0].link: expected an object"_s;
        QTest::newRow("link subscription_id number")
            << u"billables.0.link.subscription_id"_s << QByteArray("1")
            << u"billables[0].link.subscription_id: expected a string"_s;
        QTest::newRow("link schedule_id null")
            << u"billables.0.link.schedule_id"_s << QByteArray("null")
            << u"billables[0].link.schedule_id: expected a string"_s;
        QTest::newRow("billing_cycle_anchor text")
            << u"billables.0.billing_cycle_anchor"_s << QByteArray("\"now\"")
            << u"billables[0].billing_cycle_anchor: expected an integer"_s;
        QTest::newRow("billing_cycle_anchor beyond 2^53")
            << u"billables.0.billing_cycle_anchor"_s << QByteArray("9007199254740992")
            << u"billables[0].billing_cycle_anchor: expected an integer"_s;
        QTest::newRow("missing plan")
            << u"billables.1.plan"_s << QByteArray() << u"billables[1].plan: is required"_s;
        QTest::newRow("missing plan_id") << u"billables.0.plan.plan_id"_s << QByteArray()
                                         << u"billables[0].plan.plan_id: is required"_s;
        QTest::newRow("plan version zero")
            << u"billables.0.plan.version"_s << QByteArray("0")
            << u"billables[0].plan.version: expected an integer from 1"_s;
        QTest::newRow("plan status unknown")
            << u"billables.0.plan.status"_s << QByteArray("\"paused\"")
            << u"billables[0].plan.status: \"paused\" is not one of"_s;
        QTest::newRow("plan started_at negative")
            << u"billables.0.plan.started_at"_s << QByteArray("-1")
            << u"billables[0].plan.started_at: expected an integer from 0"_s;
        QTest::newRow("plan quantity negative")
            << u"billables.0.plan.quantity"_s << QByteArray("-3")
            << u"billables[0].plan.quantity: must not be negative"_s;
        QTest::newRow("feature quantity negative")
            << u"billables.0.plan.feature_quantities.0.quantity"_s << QByteArray("-1")
            << u"billables[0].plan.feature_quantities[0].quantity: must not be negative"_s;
        QTest::newRow("feature quantity missing feature_id")
            << u"billables.0.plan.feature_quantities.0.feature_id"_s << QByteArray()
            << u"billables[0].plan.feature_quantities[0].feature_id: is required"_s;
        QTest::newRow("plan balances object") << u"billables.0.plan.balances"_s << QByteArray("{}")
                                              << u"billables[0].plan.balances: expected an array"_s;
        QTest::newRow("balance missing feature_id")
            << u"billables.0.plan.balances.1.feature_id"_s << QByteArray()
            << u"billables[0].plan.balances[1].feature_id: is required"_s;
        QTest::newRow("balance usage negative")
            << u"billables.0.plan.balances.0.usage"_s << QByteArray("-1")
            << u"billables[0].plan.balances[0].usage: must not be negative"_s;
        QTest::newRow("balance usage text")
            << u"billables.0.plan.balances.0.usage"_s << QByteArray("\"12\"")
            << u"billables[0].plan.balances[0].usage: expected a number"_s;
        QTest::newRow("balance balance text")
            << u"billables.0.plan.balances.0.balance"_s << QByteArray("\"87\"")
            << u"billables[0].plan.balances[0].balance: expected a number"_s;
        QTest::newRow("balance next_reset_at beyond 2^53")
            << u"billables.0.plan.balances.0.next_reset_at"_s << QByteArray("9007199254740992")
            << u"billables[0].plan.balances[0].next_reset_at: expected an integer"_s;
        QTest::newRow("filter interval unknown")
            << u"billables.0.plan.balances.0.filter.interval"_s << QByteArray("\"fortnight\"")
            << u"billables[0].plan.balances[0].filter.interval: \"fortnight\" is not one of"_s;
        QTest::newRow("filter billing_behavior unknown")
            << u"billables.0.plan.balances.0.filter.billing_behavior"_s
            << QByteArray("\"postpaid\"")
            << u"billables[0].plan.balances[0].filter.billing_behavior: \"postpaid\" is not one of"_s;
        QTest::newRow("filter null")
            << u"billables.0.plan.balances.0.filter"_s << QByteArray("null")
            << u"billables[0].plan.balances[0].filter: expected an object"_s;
        QTest::newRow("processors object")
            << u"processors"_s << QByteArray("{}") << u"processors: expected an array"_s;
        QTest::newRow("processor type unknown")
            << u"processors.1.type"_s << QByteArray("\"paddle\"")
            << u"processors[1].type: \"paddle\" is not one of"_s;
        QTest::newRow("processor missing id")
            << u"processors.0.id"_s << QByteArray() << u"processors[0].id: is required"_s;
        QTest::newRow("customer_data text") << u"customer_data"_s << QByteArray("\"Acme\"")
                                            << u"customer_data: expected an object"_s;
        QTest::newRow("customer_data email null") << u"customer_data.email"_s << QByteArray("null")
                                                  << u"customer_data.email: expected a string"_s;
        QTest::newRow("customer_data created_at negative")
            << u"customer_data.created_at"_s << QByteArray("-5")
            << u"customer_data.created_at: expected an integer from 0"_s;
        QTest::newRow("dry_run text")
            << u"dry_run"_s << QByteArray("\"yes\"") << u"dry_run: expected a boolean"_s;
    }
    void importRejects() { verifyPointerRejects<ImportCustomerRequest>(parse(FullImport)); }

    // --- billing.import response ---
    void importResponseRoundTrips_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("imported") << importResponse(FullCustomer);
        QTest::newRow("dry run") << importResponse("null");
    }
    void importResponseRoundTrips() { verifyBodyRoundTrip<ImportCustomerResponse>(); }

    void importResponseRejects_data()
    {
        addPointerColumns();
        QTest::newRow("missing customer")
            << u"customer"_s << QByteArray() << u"customer: is required"_s;
        QTest::newRow("customer text")
            << u"customer"_s << QByteArray("\"acme\"") << u"customer: expected an object"_s;
        QTest::newRow("missing flashed")
            << u"flashed"_s << QByteArray() << u"flashed: is required"_s;
        QTest::newRow("flashed missing plan_id")
            << u"flashed.0.plan_id"_s << QByteArray() << u"flashed[0].plan_id: is required"_s;
        QTest::newRow("flashed unknown processor")
            << u"flashed.0.processor"_s << QByteArray("\"paddle\"")
            << u"flashed[0].processor: \"paddle\" is not one of"_s;
        QTest::newRow("flashed customer_product_id number")
            << u"flashed.0.customer_product_id"_s << QByteArray("5")
            << u"flashed[0].customer_product_id: expected a string"_s;
        QTest::newRow("flashed missing customer_product_id")
            << u"flashed.1.customer_product_id"_s << QByteArray()
            << u"flashed[1].customer_product_id: is required"_s;
        QTest::newRow("flashed unknown status") << u"flashed.0.status"_s << QByteArray("\"done\"")
                                                << u"flashed[0].status: \"done\" is not one of"_s;
        QTest::newRow("flashed missing skipped")
            << u"flashed.0.skipped"_s << QByteArray() << u"flashed[0].skipped: is required"_s;
        QTest::newRow("flashed expired text") << u"flashed.1.expired"_s << QByteArray("\"no\"")
                                              << u"flashed[1].expired: expected a boolean"_s;
        QTest::newRow("flashed mismatch null") << u"flashed.1.mismatch"_s << QByteArray("null")
                                               << u"flashed[1].mismatch: expected a boolean"_s;
        QTest::newRow("flashed reason number") << u"flashed.1.reason"_s << QByteArray("1")
                                               << u"flashed[1].reason: expected a string"_s;
        QTest::newRow("customer env unknown") << u"customer.env"_s << QByteArray("\"staging\"")
                                              << u"customer.env: \"staging\" is not one of"_s;
        QTest::newRow("customer deep tier")
            << u"customer.balances.ai_credits.breakdown.0.price.tiers.0.to"_s
            << QByteArray("\"infinity\"")
            << u"customer.balances.ai_credits.breakdown[0].price.tiers[0].to: expected a number or \"inf\""_s;
    }
    void importResponseRejects()
    {
        verifyPointerRejects<ImportCustomerResponse>(parse(importResponse(FullCustomer)));
    }

    // --- balances.track_tokens request ---
    void trackRoundTrips_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("full") << FullTrack;
        QTest::newRow("required only")
            << QByteArray(R"({"customer_id":"c","model_id":"openai/gpt-4o","input_tokens":0,
               "output_tokens":0,"overage_behavior":"cap","async":false})");
        QTest::newRow("counts at 2^53-1")
            << QByteArray(R"({"customer_id":"c","model_id":"a/b","input_tokens":9007199254740991,
               "output_tokens":9007199254740991,"cache_read_tokens":9007199254740991,
               "timestamp":1,"overage_behavior":"cap","async":false})");
    }
    void trackRoundTrips() { verifyBodyRoundTrip<TrackTokensRequest>(); }

    void trackDefaultsAndValues()
    {
        const auto minimal = decodeBody<TrackTokensRequest>(
            R"({"customer_id":"c","model_id":"openai/gpt-4o","input_tokens":10,"output_tokens":2})");
        QVERIFY(minimal.ok());
        QCOMPARE(minimal.value().overageBehavior, OverageBehavior::Cap);
        QVERIFY(!minimal.value().async);
        QVERIFY(!minimal.value().timestamp && !minimal.value().cacheReadTokens);
        QCOMPARE(minimal.value().provider(), u"openai"_s);
        const auto full = decodeBody<TrackTokensRequest>(FullTrack);
        QVERIFY(full.ok());
        QCOMPARE(full.value().provider(), u"openrouter"_s);
        QCOMPARE(full.value().modelId, u"openrouter/anthropic/claude-sonnet-4"_s);
        QCOMPARE(full.value().timestamp, std::optional<qint64>(MaxSafeInteger));
        QCOMPARE(full.value().audioOutputTokens, std::optional<qint64>(MaxSafeInteger));
        QCOMPARE(full.value().overageBehavior, OverageBehavior::Overflow);
    }

    void trackRejects_data()
    {
        addPointerColumns();
        QTest::newRow("missing customer_id")
            << u"customer_id"_s << QByteArray() << u"customer_id: is required"_s;
        QTest::newRow("missing model_id")
            << u"model_id"_s << QByteArray() << u"model_id: is required"_s;
        QTest::newRow("model_id number")
            << u"model_id"_s << QByteArray("5") << u"model_id: expected a string"_s;
        QTest::newRow("model_id without provider")
            << u"model_id"_s << QByteArray("\"gpt-4o\"")
            << u"model_id: expected \"<provider>/<model>\""_s;
        QTest::newRow("model_id empty provider") << u"model_id"_s << QByteArray("\"/gpt-4o\"")
                                                 << u"model_id: expected \"<provider>/<model>\""_s;
        QTest::newRow("model_id empty model") << u"model_id"_s << QByteArray("\"openai/\"")
                                              << u"model_id: expected \"<provider>/<model>\""_s;
        QTest::newRow("model_id empty") << u"model_id"_s << QByteArray("\"\"")
                                        << u"model_id: expected \"<provider>/<model>\""_s;
        QTest::newRow("missing input_tokens")
            << u"input_tokens"_s << QByteArray() << u"input_tokens: is required"_s;
        QTest::newRow("missing output_tokens")
            << u"output_tokens"_s << QByteArray() << u"output_tokens: is required"_s;
        QTest::newRow("input_tokens negative")
            << u"input_tokens"_s << QByteArray("-1")
            << u"input_tokens: expected an integer from 0 to 9007199254740991"_s;
        QTest::newRow("input_tokens text")
            << u"input_tokens"_s << QByteArray("\"12\"") << u"input_tokens: expected an integer"_s;
        QTest::newRow("output_tokens beyond 2^53")
            << u"output_tokens"_s << QByteArray("9007199254740992")
            << u"output_tokens: expected an integer"_s;
        QTest::newRow("output_tokens null")
            << u"output_tokens"_s << QByteArray("null") << u"output_tokens: expected an integer"_s;
        QTest::newRow("cache_read_tokens fraction") << u"cache_read_tokens"_s << QByteArray("1.5")
                                                    << u"cache_read_tokens: expected an integer"_s;
        QTest::newRow("cache_write_tokens negative")
            << u"cache_write_tokens"_s << QByteArray("-1")
            << u"cache_write_tokens: expected an integer from 0"_s;
        QTest::newRow("reasoning_tokens beyond 2^53")
            << u"reasoning_tokens"_s << QByteArray("9007199254740992")
            << u"reasoning_tokens: expected an integer"_s;
        QTest::newRow("audio_input_tokens text") << u"audio_input_tokens"_s << QByteArray("\"10\"")
                                                 << u"audio_input_tokens: expected an integer"_s;
        QTest::newRow("audio_output_tokens beyond 2^53")
            << u"audio_output_tokens"_s << QByteArray("9007199254740992")
            << u"audio_output_tokens: expected an integer"_s;
        QTest::newRow("audio_output_tokens huge") << u"audio_output_tokens"_s << QByteArray("1e300")
                                                  << u"audio_output_tokens: expected an integer"_s;
        QTest::newRow("entity_id number")
            << u"entity_id"_s << QByteArray("1") << u"entity_id: expected a string"_s;
        QTest::newRow("feature_id null")
            << u"feature_id"_s << QByteArray("null") << u"feature_id: expected a string"_s;
        QTest::newRow("properties array")
            << u"properties"_s << QByteArray("[]") << u"properties: expected an object"_s;
        QTest::newRow("timestamp zero")
            << u"timestamp"_s << QByteArray("0")
            << u"timestamp: expected an integer from 1 to 9007199254740991"_s;
        QTest::newRow("timestamp negative")
            << u"timestamp"_s << QByteArray("-5") << u"timestamp: expected an integer from 1"_s;
        QTest::newRow("timestamp beyond 2^53") << u"timestamp"_s << QByteArray("9007199254740992")
                                               << u"timestamp: expected an integer"_s;
        QTest::newRow("timestamp text") << u"timestamp"_s << QByteArray("\"2025-01-01\"")
                                        << u"timestamp: expected an integer"_s;
        QTest::newRow("overage_behavior unknown")
            << u"overage_behavior"_s << QByteArray("\"clamp\"")
            << u"overage_behavior: \"clamp\" is not one of \"cap\", \"overflow\""_s;
        QTest::newRow("async text")
            << u"async"_s << QByteArray("\"true\"") << u"async: expected a boolean"_s;
    }
    void trackRejects() { verifyPointerRejects<TrackTokensRequest>(parse(FullTrack)); }

    // --- balances.track_tokens response ---
    void trackResponseRoundTrips_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QByteArray>("value");
        QTest::newRow("full") << QString() << QByteArray();
        QTest::newRow("event name, several features") << u"balance"_s << QByteArray("null");
        QTest::newRow("no entity") << u"entity_id"_s << QByteArray();
        QTest::newRow("no deductions") << u"deductions"_s << QByteArray("[]");
        QTest::newRow("free model") << u"value"_s << QByteArray("0");
        // balances.track with a negative value answers in this shape too.
        QTest::newRow("usage given back") << u"value"_s << QByteArray("-0.5");
        QTest::newRow("deduction given back") << u"deductions.0.value"_s << QByteArray("-0.25");
    }
    void trackResponseRoundTrips()
    {
        QFETCH(QString, pointer);
        QFETCH(QByteArray, value);
        JsonValue full = parse(trackResponse());
        if (!pointer.isEmpty())
            full = replaced(full, pointer, value);
        if (QTest::currentDataTag() == QByteArrayView("event name, several features"))
            full = replaced(full, u"event_name"_s, "\"tokens\"");
        verifyRoundTrip<TrackTokensResponse>(full);
    }

    void trackResponseValues()
    {
        const auto response = decode<TrackTokensResponse>(parse(trackResponse()));
        QVERIFY(response.ok());
        QCOMPARE(response.value().value.toString(), u"0.01235"_s);
        QVERIFY(response.value().balances.contains(u"legacy_credits"_s));
        QVERIFY(!response.value().balances.value(u"legacy_credits"_s));
        QCOMPARE(response.value().deductions.at(1).value.toString(), u"0.00235"_s);
    }

    void trackResponseRejects_data()
    {
        addPointerColumns();
        QTest::newRow("missing customer_id")
            << u"customer_id"_s << QByteArray() << u"customer_id: is required"_s;
        QTest::newRow("value text")
            << u"value"_s << QByteArray("\"0.1\"") << u"value: expected a number"_s;
        QTest::newRow("missing balance")
            << u"balance"_s << QByteArray() << u"balance: is required"_s;
        QTest::newRow("balance broken") << u"balance.overage_allowed"_s << QByteArray("\"no\"")
                                        << u"balance.overage_allowed: expected a boolean"_s;
        QTest::newRow("entity_id number")
            << u"entity_id"_s << QByteArray("1") << u"entity_id: expected a string"_s;
        QTest::newRow("event_name null")
            << u"event_name"_s << QByteArray("null") << u"event_name: expected a string"_s;
        QTest::newRow("missing balances")
            << u"balances"_s << QByteArray() << u"balances: is required"_s;
        QTest::newRow("balances value number") << u"balances.legacy_credits"_s << QByteArray("5")
                                               << u"balances.legacy_credits: expected an object"_s;
        QTest::newRow("balances deep")
            << u"balances.ai_credits.breakdown.0.reset.interval"_s << QByteArray("\"fortnight\"")
            << u"balances.ai_credits.breakdown[0].reset.interval: \"fortnight\" is not one of"_s;
        QTest::newRow("missing deductions")
            << u"deductions"_s << QByteArray() << u"deductions: is required"_s;
        QTest::newRow("deduction missing balance_id")
            << u"deductions.0.balance_id"_s << QByteArray()
            << u"deductions[0].balance_id: is required"_s;
        QTest::newRow("deduction missing plan_id")
            << u"deductions.1.plan_id"_s << QByteArray() << u"deductions[1].plan_id: is required"_s;
        QTest::newRow("deduction reset interval unknown")
            << u"deductions.0.reset.interval"_s << QByteArray("\"fortnight\"")
            << u"deductions[0].reset.interval: \"fortnight\" is not one of"_s;
        QTest::newRow("deduction missing reset")
            << u"deductions.1.reset"_s << QByteArray() << u"deductions[1].reset: is required"_s;
    }
    void trackResponseRejects()
    {
        verifyPointerRejects<TrackTokensResponse>(parse(trackResponse()));
    }

    // --- billing_portal ---
    void portalRoundTrips_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("with return_url")
            << QByteArray("{\"return_url\":\"https://acme.test/account\"}");
        QTest::newRow("without return_url") << QByteArray("{}");
    }
    void portalRoundTrips() { verifyBodyRoundTrip<BillingPortalRequest>(); }

    void portalRejects_data()
    {
        addBodyColumns();
        QTest::newRow("not an object")
            << QByteArray("[\"url\"]") << u"the body must be a JSON object"_s;
        QTest::newRow("return_url number")
            << QByteArray(R"({"return_url":5})") << u"return_url: expected a string"_s;
        QTest::newRow("return_url null")
            << QByteArray(R"({"return_url":null})") << u"return_url: expected a string"_s;
    }
    void portalRejects() { verifyBodyRejects<BillingPortalRequest>(); }

    void portalResponse()
    {
        verifyRoundTrip<BillingPortalResponse>(
            parse("{\"customer_id\":\"acme\",\"url\":\"https://billing.example/p/session_1\"}"));
    }

    void portalResponseRejects_data()
    {
        addBodyColumns();
        QTest::newRow("missing url")
            << QByteArray(R"({"customer_id":"acme"})") << u"url: is required"_s;
        QTest::newRow("customer_id number")
            << QByteArray(R"({"customer_id":1,"url":"u"})") << u"customer_id: expected a string"_s;
    }
    void portalResponseRejects() { verifyBodyRejects<BillingPortalResponse>(); }

    // --- platform link ---
    void linkRoundTrips_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("both accounts") << QByteArray(
            R"({"organization_slug":"tenant","test_account_id":"acct_t","live_account_id":"acct_l"})");
        QTest::newRow("test only")
            << QByteArray(R"({"organization_slug":"tenant","test_account_id":"acct_t"})");
        QTest::newRow("live only")
            << QByteArray(R"({"organization_slug":"tenant","live_account_id":"acct_l"})");
    }
    void linkRoundTrips() { verifyBodyRoundTrip<LinkOrganizationRequest>(); }

    void linkRejects_data()
    {
        addBodyColumns();
        QTest::newRow("missing slug")
            << QByteArray(R"({"test_account_id":"a"})") << u"organization_slug: is required"_s;
        QTest::newRow("slug number")
            << QByteArray(R"({"organization_slug":3,"test_account_id":"a"})")
            << u"organization_slug: expected a string"_s;
        QTest::newRow("slug empty")
            << QByteArray(R"({"organization_slug":"","test_account_id":"a"})")
            << u"organization_slug: must not be empty"_s;
        QTest::newRow("no account")
            << QByteArray(R"({"organization_slug":"t"})")
            << u"test_account_id: at least one of test_account_id and live_account_id is required"_s;
        QTest::newRow("test account empty")
            << QByteArray(R"({"organization_slug":"t","test_account_id":""})")
            << u"test_account_id: must not be empty"_s;
        QTest::newRow("test account null")
            << QByteArray(
                   R"({"organization_slug":"t","test_account_id":null,"live_account_id":"l"})")
            << u"test_account_id: expected a string"_s;
        QTest::newRow("live account number")
            << QByteArray(R"({"organization_slug":"t","live_account_id":5})")
            << u"live_account_id: expected a string"_s;
    }
    void linkRejects() { verifyBodyRejects<LinkOrganizationRequest>(); }

    void linkResponse()
    {
        verifyRoundTrip<LinkOrganizationResponse>(
            parse(R"({"message":"Linked","organization":{"id":"org_2","slug":"tenant"}})"));
        verifyRoundTrip<Organization>(parse(R"({"id":"org_2","slug":"tenant"})"));
    }

    void linkResponseRejects_data()
    {
        addBodyColumns();
        QTest::newRow("missing message")
            << QByteArray(R"({"organization":{"id":"o","slug":"s"}})") << u"message: is required"_s;
        QTest::newRow("organization text") << QByteArray(R"({"message":"m","organization":"org"})")
                                           << u"organization: expected an object"_s;
        QTest::newRow("organization missing slug")
            << QByteArray(R"({"message":"m","organization":{"id":"o"}})")
            << u"organization.slug: is required"_s;
        QTest::newRow("organization id number")
            << QByteArray(R"({"message":"m","organization":{"id":1,"slug":"s"}})")
            << u"organization.id: expected a string"_s;
    }
    void linkResponseRejects() { verifyBodyRejects<LinkOrganizationResponse>(); }
};

QTEST_GUILESS_MAIN(TestRequestWire)
#include "tst_requestwire.moc"
