// Balance row and balances.list wire types: round trips and one rejection per rule.
#include "services/api/ListBalances.h"
#include "services/api/WireCodec.h"
#include "tests/support/JsonEdit.h"

#include <QTest>

using namespace md::api;
using namespace Qt::StringLiterals;

namespace {

using md::test::canonicalText;

JsonValue parse(const QByteArray &json)
{
    return md::test::jsonValue(json);
}

const QByteArray FullRow = R"({"id":"bal_1","plan_id":"pro","included_grant":100,
 "prepaid_grant":20.5,"remaining":87.25,"usage":33.25,"unlimited":false,
 "reset":{"interval":"month","interval_count":1,"resets_at":1764547200000},
 "price":{"amount":0.5,"tiers":[{"to":100,"amount":0.5},{"to":"inf","amount":0.25,"flat_amount":10}],
   "tier_behavior":"graduated","billing_units":100,"billing_method":"usage_based","max_purchase":null},
 "expires_at":null,"feature_id":"ai_credits","status":"active",
 "rollovers":[{"granted":10,"balance":4.5,"expires_at":1767225600000}],
 "customer_id":"acme","entity_id":null,"created_at":1761955200000})";

} // namespace

class TestBalanceWire final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void balanceRowRoundTrips()
    {
        const JsonValue in = parse(FullRow);
        const Result<BalanceRow> row = decode<BalanceRow>(in);
        QVERIFY2(row.ok(), qPrintable(row.ok() ? QString() : row.error().message));
        QCOMPARE(row.value().remaining.toString(), u"87.25"_s);
        QVERIFY(!row.value().price->tiers->at(1).to);
        QCOMPARE(canonicalText(row.value()), canonicalText(in));
    }

    void balanceRowRejects_data()
    {
        QTest::addColumn<QString>("pointer"); // dotted path of the field to replace
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("plan_id wrong type")
            << u"plan_id"_s << QByteArray("5") << u"plan_id: expected a string"_s;
        QTest::newRow("missing feature_id")
            << u"feature_id"_s << QByteArray() << u"feature_id: is required"_s;
        QTest::newRow("unknown status")
            << u"status"_s << QByteArray("\"paused\"") << u"status: \"paused\" is not one of"_s;
        QTest::newRow("unknown reset interval")
            << u"reset.interval"_s << QByteArray("\"fortnight\"")
            << u"reset.interval: \"fortnight\" is not one of"_s;
        QTest::newRow("tier to is a word") << u"price.tiers.0.to"_s << QByteArray("\"infinity\"")
                                           << u"price.tiers[0].to: expected a number or \"inf\""_s;
        QTest::newRow("inf not last") << u"price.tiers.0.to"_s << QByteArray("\"inf\"")
                                      << u"price.tiers[0].to: only the last tier"_s;
        QTest::newRow("tiers not rising")
            << u"price.tiers.1.to"_s << QByteArray("50") << u"price.tiers[1].to"_s;
        QTest::newRow("billing units zero") << u"price.billing_units"_s << QByteArray("0")
                                            << u"price.billing_units: must be greater than 0"_s;
        QTest::newRow("bad billing method")
            << u"price.billing_method"_s << QByteArray("\"monthly\"")
            << u"price.billing_method: \"monthly\" is not one of"_s;
        QTest::newRow("bad tier behavior") << u"price.tier_behavior"_s << QByteArray("\"flat\"")
                                           << u"price.tier_behavior: \"flat\" is not one of"_s;
        QTest::newRow("rollover balance missing")
            << u"rollovers.0.balance"_s << QByteArray() << u"rollovers[0].balance: is required"_s;
        QTest::newRow("created_at fraction")
            << u"created_at"_s << QByteArray("1.5") << u"created_at: expected an integer"_s;
        QTest::newRow("timestamp beyond 2^53") << u"created_at"_s << QByteArray("9007199254740992")
                                               << u"created_at: expected an integer"_s;
        QTest::newRow("too many decimals") << u"usage"_s << QByteArray("0.0000000001")
                                           << u"usage: 0.0000000001 has 10 decimal places"_s;
        QTest::newRow("unlimited not bool")
            << u"unlimited"_s << QByteArray("\"no\"") << u"unlimited: expected a boolean"_s;
    }
    void balanceRowRejects()
    {
        QFETCH(QString, pointer);
        QFETCH(QByteArray, value);
        QFETCH(QString, message);
        const JsonValue row = md::test::replaced(parse(FullRow), pointer, value);
        const Result<BalanceRow> decoded = decode<BalanceRow>(row);
        QVERIFY(!decoded.ok());
        QCOMPARE(decoded.error().status, 400);
        QCOMPARE(decoded.error().code, u"invalid_inputs"_s);
        QVERIFY2(decoded.error().message.startsWith(message), qPrintable(decoded.error().message));
    }

    void listRequestDefaults()
    {
        const auto request = decodeBody<ListBalancesRequest>("{}");
        QVERIFY(request.ok());
        QCOMPARE(request.value().limit, 50);
        QCOMPARE(request.value().statuses, QList<BalanceStatus>{BalanceStatus::Active});
        QVERIFY(!request.value().planId.has_value());
        QVERIFY(request.value().startCursor.isEmpty());
    }

    void listRequestRoundTrips_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("all filters")
            << QByteArray(R"({"customer_id":"acme","entity_id":"seat-1","limit":200,
               "start_cursor":"abc","statuses":["active","expired"],"plan_id":"pro",
               "feature_id":"ai_credits"})");
        QTest::newRow("plan null")
            << QByteArray(R"({"limit":1,"statuses":["expired"],"plan_id":null})");
    }
    void listRequestRoundTrips()
    {
        QFETCH(QByteArray, body);
        const auto request = decodeBody<ListBalancesRequest>(body);
        QVERIFY2(request.ok(), qPrintable(request.ok() ? QString() : request.error().message));
        QCOMPARE(canonicalText(request.value()), canonicalText(parse(body)));
        const auto again = decode<ListBalancesRequest>(md::test::json(request.value()));
        QVERIFY(again.ok());
        QCOMPARE(again.value(), request.value());
    }

    void nestingLimitCountsOnlyStructure()
    {
        // As deep as allowed, with brackets and escaped quotes inside strings.
        QByteArray body = "{\"customer_id\":\"[[[{{\\\"[[[\",\"p\":";
        body +=
            QByteArray(JsonReader::MaxDepth - 1, '[') + QByteArray(JsonReader::MaxDepth - 1, ']');
        body += "}";
        QVERIFY(JsonReader::fromBody(body).ok());
    }

    void listRequestRejects_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("message");
        QTest::newRow("not json") << QByteArray("{") << u"the body is not valid JSON"_s;
        QTest::newRow("not an object") << QByteArray("[]") << u"the body must be a JSON object"_s;
        QTest::newRow("nested too deep")
            << QByteArray(R"({"p":)" + QByteArray(JsonReader::MaxDepth, '[') +
                          QByteArray(JsonReader::MaxDepth, ']') + "}")
            << u"the body nests arrays and objects deeper than 32 levels"_s;
        QTest::newRow("limit zero")
            << QByteArray(R"({"limit":0})") << u"limit: expected an integer from 1 to 200"_s;
        QTest::newRow("limit 201")
            << QByteArray(R"({"limit":201})") << u"limit: expected an integer from 1 to 200"_s;
        QTest::newRow("limit fraction")
            << QByteArray(R"({"limit":2.5})") << u"limit: expected an integer"_s;
        QTest::newRow("statuses empty")
            << QByteArray(R"({"statuses":[]})") << u"statuses: must hold at least one"_s;
        QTest::newRow("statuses bad word") << QByteArray(R"({"statuses":["active","gone"]})")
                                           << u"statuses[1]: \"gone\" is not one of"_s;
        QTest::newRow("entity without customer")
            << QByteArray(R"({"entity_id":"e"})") << u"entity_id: requires customer_id"_s;
        QTest::newRow("plan_id number")
            << QByteArray(R"({"plan_id":3})") << u"plan_id: expected a string"_s;
        QTest::newRow("cursor number")
            << QByteArray(R"({"start_cursor":3})") << u"start_cursor: expected a string"_s;
        QTest::newRow("customer null")
            << QByteArray(R"({"customer_id":null})") << u"customer_id: expected a string"_s;
    }
    void listRequestRejects()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, message);
        const auto request = decodeBody<ListBalancesRequest>(body);
        QVERIFY(!request.ok());
        QCOMPARE(request.error().code, u"invalid_inputs"_s);
        QVERIFY2(request.error().message.startsWith(message), qPrintable(request.error().message));
    }

    void listResponseRoundTrips()
    {
        JsonValue response = JsonValue::object({{"list"_L1, JsonValue::array({parse(FullRow)})},
                                                {"has_more"_L1, true},
                                                {"next_cursor"_L1, u"xyz"_s}});
        const auto decoded = decode<ListBalancesResponse>(response);
        QVERIFY(decoded.ok());
        QCOMPARE(canonicalText(decoded.value()), canonicalText(response));
        response.insert(u"next_cursor"_s, JsonValue::null());
        QVERIFY(!decode<ListBalancesResponse>(response).ok());
    }
};

QTEST_GUILESS_MAIN(TestBalanceWire)
#include "tst_balancewire.moc"
