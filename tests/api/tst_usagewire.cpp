// balances.track, balances.check and usage.batch wire types (docs/api.md,
// "Usage of any feature"): round trips, one rejection per rule, and a batch
// answering a bad event at its index rather than refusing the request.
#include "services/api/UsageBatch.h"
#include "tests/api/wiretest.h"

using namespace md::api;
using namespace wiretest;
using namespace Qt::StringLiterals;

namespace {

const QByteArray FullFeatureTrack = R"({"customer_id":"acme","feature_id":"messages",
 "value":2.5,"entity_id":"seat_1","timestamp":1761955200000,"overage_behavior":"overflow",
 "properties":{"channel":"email"},"async":false})";

const QByteArray FullCheck =
    R"({"customer_id":"acme","feature_id":"messages","required_balance":3,"entity_id":"seat_1"})";

QByteArray batchOf(const QByteArray &events)
{
    return R"({"events":[)" + events + "]}";
}

const QByteArray TokensEvent = R"({"kind":"tokens","customer_id":"acme",
 "model_id":"openai/gpt-4o","input_tokens":10,"output_tokens":2,"idempotency_key":"k-1"})";
const QByteArray FeatureEvent = R"({"kind":"feature","customer_id":"acme",
 "feature_id":"messages","value":-1})";

} // namespace

class TestUsageWire final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void trackRoundTrips_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("full") << FullFeatureTrack;
        QTest::newRow("required only") << QByteArray(
            R"({"customer_id":"c","feature_id":"f","value":1,"overage_behavior":"cap","async":false})");
        QTest::newRow("usage given back")
            << QByteArray(R"({"customer_id":"c","feature_id":"f","value":-0.000000001,)"
                          R"("overage_behavior":"cap","async":false})");
    }
    void trackRoundTrips() { verifyBodyRoundTrip<TrackRequest>(); }

    void trackDefaults()
    {
        const auto minimal = decodeBody<TrackRequest>(R"({"customer_id":"c","feature_id":"f"})");
        QVERIFY(minimal.ok());
        QCOMPARE(minimal.value().value, Decimal::fromInteger(1)); // Autumn's default
        QCOMPARE(minimal.value().overageBehavior, OverageBehavior::Cap);
        QVERIFY(!minimal.value().async && !minimal.value().timestamp);
        // The pipeline's call carries the value and no model, and comes back whole.
        const auto full = decodeBody<TrackRequest>(FullFeatureTrack);
        QVERIFY(full.ok());
        const TrackTokensRequest call = full.value().asCall();
        QCOMPARE(call.value, std::optional(*Decimal::parse(QByteArrayView("2.5"))));
        QVERIFY(call.modelId.isEmpty());
        QCOMPARE(TrackRequest::fromCall(call), full.value());
    }

    void storedCallsReadBackAsTheirKind()
    {
        const auto feature = decodeBody<TrackRequest>(FullFeatureTrack);
        QVERIFY(feature.ok());
        const auto back = readCallText(callText(feature.value().asCall()));
        QVERIFY(back.ok());
        QCOMPARE(back.value(), feature.value().asCall());
        TrackTokensRequest tokens;
        tokens.customerId = u"acme"_s;
        tokens.modelId = u"openai/gpt-4o"_s;
        tokens.inputTokens = 7;
        const auto tokensBack = readCallText(callText(tokens));
        QVERIFY(tokensBack.ok());
        QCOMPARE(tokensBack.value(), tokens);
        QVERIFY(!tokensBack.value().value);
    }

    void trackRejects_data()
    {
        addPointerColumns();
        QTest::newRow("missing customer_id")
            << u"customer_id"_s << QByteArray() << u"customer_id: is required"_s;
        QTest::newRow("missing feature_id")
            << u"feature_id"_s << QByteArray() << u"feature_id: is required"_s;
        QTest::newRow("feature_id with slash")
            << u"feature_id"_s << QByteArray("\"a/b\"") << u"feature_id:"_s;
        QTest::newRow("value text")
            << u"value"_s << QByteArray("\"2\"") << u"value: expected a number"_s;
        QTest::newRow("value past an amount") << u"value"_s << QByteArray("1e20") << u"value:"_s;
        QTest::newRow("value too precise")
            << u"value"_s << QByteArray("0.0000000001") << u"value:"_s;
        QTest::newRow("timestamp zero")
            << u"timestamp"_s << QByteArray("0") << u"timestamp: expected an integer from 1"_s;
        QTest::newRow("overage_behavior unknown")
            << u"overage_behavior"_s << QByteArray("\"clamp\"")
            << u"overage_behavior: \"clamp\" is not one of"_s;
        QTest::newRow("properties array")
            << u"properties"_s << QByteArray("[]") << u"properties: expected an object"_s;
    }
    void trackRejects() { verifyPointerRejects<TrackRequest>(parse(FullFeatureTrack)); }

    void checkRoundTrips()
    {
        verifyRoundTrip<CheckRequest>(parse(FullCheck));
        const auto minimal = decodeBody<CheckRequest>(R"({"customer_id":"c","feature_id":"f"})");
        QVERIFY(minimal.ok());
        QCOMPARE(minimal.value().requiredBalance, Decimal::fromInteger(1));
        verifyRoundTrip<CheckResponse>(parse(R"({"allowed":true,"balance":)" + SnakeSummary + "}"));
        verifyRoundTrip<CheckResponse>(parse(R"({"allowed":false,"balance":null})"));
    }

    void checkRejects_data()
    {
        addPointerColumns();
        QTest::newRow("required_balance negative") << u"required_balance"_s << QByteArray("-1")
                                                   << u"required_balance: must not be negative"_s;
        QTest::newRow("required_balance null") << u"required_balance"_s << QByteArray("null")
                                               << u"required_balance: expected a number"_s;
        QTest::newRow("missing feature_id")
            << u"feature_id"_s << QByteArray() << u"feature_id: is required"_s;
        QTest::newRow("entity_id number")
            << u"entity_id"_s << QByteArray("3") << u"entity_id: expected a string"_s;
    }
    void checkRejects() { verifyPointerRejects<CheckRequest>(parse(FullCheck)); }

    void batchReadsEachEventOnItsOwn()
    {
        const auto batch = decodeBody<UsageBatchRequest>(batchOf(
            TokensEvent + "," + FeatureEvent + R"(,{"kind":"feature","customer_id":"acme"},)" +
            R"({"kind":"points","customer_id":"acme"},7,)" +
            R"({"kind":"feature","customer_id":"a","feature_id":"f","async":true},)" +
            R"({"kind":"feature","customer_id":"a","feature_id":"f","idempotency_key":"a b"})"));
        QVERIFY2(batch.ok(), qPrintable(batch.ok() ? QString() : batch.error().message));
        const auto &events = batch.value().events;
        QCOMPARE(events.size(), 7);
        QVERIFY(events.at(0).ok() && events.at(1).ok());
        QCOMPARE(events.at(0).value().idempotencyKey, std::optional(u"k-1"_s));
        QVERIFY(!events.at(0).value().call.value);
        QCOMPARE(events.at(1).value().call.value, std::optional(Decimal::fromInteger(-1)));
        const auto refusedWith = [&](qsizetype i, const QString &start) {
            return !events.at(i).ok() && events.at(i).error().status == 400 &&
                   events.at(i).error().message.startsWith(start);
        };
        QVERIFY(refusedWith(2, u"feature_id: is required"_s));
        QVERIFY(refusedWith(3, u"kind: \"points\" is not one of \"tokens\", \"feature\""_s));
        QVERIFY(refusedWith(4, u"expected an object"_s));
        QVERIFY(refusedWith(5, u"async: set async on the batch"_s));
        QVERIFY(refusedWith(6, u"idempotency_key: must be visible ASCII"_s));
    }

    void batchRoundTrips()
    {
        const QByteArray body =
            R"({"async":true,"events":[)" + TokensEvent + "," + FeatureEvent + "]}";
        const auto batch = decodeBody<UsageBatchRequest>(body);
        QVERIFY(batch.ok());
        QVERIFY(batch.value().async);
        const auto again = decodeBody<UsageBatchRequest>(toJsonText(batch.value()));
        QVERIFY(again.ok());
        QCOMPARE(again.value().events.size(), 2);
        for (qsizetype i = 0; i < 2; ++i)
            QCOMPARE(again.value().events.at(i).value(), batch.value().events.at(i).value());
    }

    void batchRejects_data()
    {
        addBodyColumns();
        QTest::newRow("no events")
            << QByteArray(R"({"events":[]})") << u"events: must hold 1 to 1000 events, got 0"_s;
        QTest::newRow("events missing") << QByteArray("{}") << u"events: is required"_s;
        QTest::newRow("events object")
            << QByteArray(R"({"events":{}})") << u"events: expected an array"_s;
        QByteArray many;
        for (int i = 0; i < 1001; ++i)
            many += (i ? "," : "") + FeatureEvent;
        QTest::newRow("1,001 events")
            << batchOf(many) << u"events: must hold 1 to 1000 events, got 1001"_s;
        QTest::newRow("async text")
            << QByteArray(R"({"events":[)" + FeatureEvent + R"(],"async":1})")
            << u"async: expected a boolean"_s;
    }
    void batchRejects() { verifyBodyRejects<UsageBatchRequest>(); }

    void batchResponseRoundTrips()
    {
        const QByteArray response =
            R"({"results":[{"status":202},{"status":409,"error":{"code":"duplicate_idempotency_key",)"
            R"("message":"already recorded"}}]})";
        verifyRoundTrip<UsageBatchResponse>(parse(response));
        const auto decoded = decodeBody<UsageBatchResponse>(response);
        QVERIFY(decoded.ok());
        QCOMPARE(decoded.value().results.at(1).error->status, 409);
    }
};

QTEST_APPLESS_MAIN(TestUsageWire)
#include "tst_usagewire.moc"
