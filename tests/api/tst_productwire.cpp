// Product and products-update wire types: round trips and one rejection per rule.
#include "services/api/UpdateProduct.h"
#include "tests/api/wiretest.h"

using namespace md::api;
using namespace wiretest;
using namespace Qt::StringLiterals;

namespace {

const QByteArray FullProduct = R"({"created_at":1761955200000,"id":"pro","name":"Pro",
 "env":"production","is_add_on":false,"is_default":false,"group":"main","version":3,
 "archived":false,
 "items":[{"feature_id":"ai_credits","feature_type":"single_use","included_usage":100,
   "interval":"month","usage_model":"pay_per_use","billing_units":100,
   "entity_feature_id":"seats","reset_usage_when_enabled":true,
   "tiers":[{"to":1000,"amount":0.5},{"to":"inf","amount":0.25,"flat_amount":10}]},
  {"feature_id":"credits_pack","feature_type":"single_use","included_usage":0,"interval":null,
   "usage_model":"prepaid","price":9.99,"billing_units":1}],
 "free_trial":{"duration":"day","length":14,"unique_fingerprint":true}})";

} // namespace

class TestProductWire final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void productRoundTrips_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QByteArray>("value");
        QTest::newRow("full") << QString() << QByteArray();
        QTest::newRow("sandbox add-on") << u"env"_s << QByteArray("\"sandbox\"");
        QTest::newRow("archived") << u"archived"_s << QByteArray("true");
        QTest::newRow("group null") << u"group"_s << QByteArray("null");
        QTest::newRow("no free trial") << u"free_trial"_s << QByteArray("null");
        QTest::newRow("no items") << u"items"_s << QByteArray("[]");
        QTest::newRow("minimal item")
            << u"items.1"_s << QByteArray(R"({"feature_id":"sso","interval":null})");
        QTest::newRow("boolean continuous static types")
            << u"items"_s
            << QByteArray(R"([{"feature_id":"a","feature_type":"boolean","interval":null},
                {"feature_id":"b","feature_type":"continuous_use","interval":"semi_annual"},
                {"feature_id":"c","feature_type":"static","interval":"minute"}])");
        QTest::newRow("created_at at 2^53-1") << u"created_at"_s << QByteArray("9007199254740991");
    }
    void productRoundTrips()
    {
        QFETCH(QString, pointer);
        QFETCH(QByteArray, value);
        const JsonValue full = parse(FullProduct);
        verifyRoundTrip<Product>(pointer.isEmpty() ? full : replaced(full, pointer, value));
    }

    void productDecodesValues()
    {
        const auto product = decode<Product>(parse(FullProduct));
        QVERIFY(product.ok());
        const Product &p = product.value();
        QCOMPARE(p.env, Environment::Production);
        QCOMPARE(p.items.at(0).interval, std::optional(ResetInterval::Month));
        QVERIFY(!p.items.at(1).interval);
        QCOMPARE(p.items.at(1).price->toString(), u"9.99"_s);
        QVERIFY(!p.items.at(0).tiers->at(1).to);
        QCOMPARE(p.freeTrial->duration, TrialDuration::Day);
    }

    void productDefaults()
    {
        // archived may be omitted (false); an item's interval may be omitted (one-off).
        JsonValue json = replaced(parse(FullProduct), u"archived"_s, {});
        json = replaced(json, u"items.1.interval"_s, {});
        const auto product = decode<Product>(json);
        QVERIFY2(product.ok(), qPrintable(product.ok() ? QString() : product.error().message));
        QVERIFY(!product.value().archived);
        QVERIFY(!product.value().items.at(1).interval);
        QCOMPARE(md::test::canonicalText(product.value()),
                 md::test::canonicalText(parse(FullProduct)));
    }

    void productIgnoresUnknownKeys()
    {
        JsonValue json = replaced(parse(FullProduct), u"description"_s, "\"new\"");
        json = replaced(json, u"items.0.display"_s, "{}");
        const auto product = decode<Product>(json);
        QVERIFY(product.ok());
        QCOMPARE(md::test::canonicalText(product.value()),
                 md::test::canonicalText(parse(FullProduct)));
    }

    void productRejects_data()
    {
        addPointerColumns();
        QTest::newRow("created_at text")
            << u"created_at"_s << QByteArray("\"2025\"") << u"created_at: expected an integer"_s;
        QTest::newRow("created_at beyond 2^53") << u"created_at"_s << QByteArray("9007199254740992")
                                                << u"created_at: expected an integer"_s;
        QTest::newRow("missing id") << u"id"_s << QByteArray() << u"id: is required"_s;
        QTest::newRow("name number")
            << u"name"_s << QByteArray("1") << u"name: expected a string"_s;
        QTest::newRow("unknown env")
            << u"env"_s << QByteArray("\"staging\"") << u"env: \"staging\" is not one of"_s;
        QTest::newRow("missing is_add_on")
            << u"is_add_on"_s << QByteArray() << u"is_add_on: is required"_s;
        QTest::newRow("is_default text")
            << u"is_default"_s << QByteArray("\"false\"") << u"is_default: expected a boolean"_s;
        QTest::newRow("group number")
            << u"group"_s << QByteArray("7") << u"group: expected a string"_s;
        QTest::newRow("missing group") << u"group"_s << QByteArray() << u"group: is required"_s;
        QTest::newRow("version zero")
            << u"version"_s << QByteArray("0") << u"version: expected an integer from 1"_s;
        QTest::newRow("version fraction")
            << u"version"_s << QByteArray("1.5") << u"version: expected an integer"_s;
        QTest::newRow("archived text")
            << u"archived"_s << QByteArray("\"no\"") << u"archived: expected a boolean"_s;
        QTest::newRow("items null")
            << u"items"_s << QByteArray("null") << u"items: expected an array"_s;
        QTest::newRow("item missing feature_id")
            << u"items.0.feature_id"_s << QByteArray() << u"items[0].feature_id: is required"_s;
        QTest::newRow("item unknown feature_type")
            << u"items.0.feature_type"_s << QByteArray("\"metered\"")
            << u"items[0].feature_type: \"metered\" is not one of"_s;
        QTest::newRow("item included_usage word")
            << u"items.0.included_usage"_s << QByteArray("\"inf\"")
            << u"items[0].included_usage: expected a number"_s;
        QTest::newRow("item included_usage negative")
            << u"items.0.included_usage"_s << QByteArray("-1")
            << u"items[0].included_usage: must not be negative"_s;
        QTest::newRow("item interval one_off word")
            << u"items.0.interval"_s << QByteArray("\"one_off\"")
            << u"items[0].interval: \"one_off\" is not one of"_s;
        QTest::newRow("item interval multiple")
            << u"items.0.interval"_s << QByteArray("\"multiple\"")
            << u"items[0].interval: \"multiple\" is not one of"_s;
        QTest::newRow("item unknown usage_model")
            << u"items.0.usage_model"_s << QByteArray("\"postpaid\"")
            << u"items[0].usage_model: \"postpaid\" is not one of"_s;
        QTest::newRow("item price negative")
            << u"items.1.price"_s << QByteArray("-1") << u"items[1].price: must not be negative"_s;
        QTest::newRow("item price too precise")
            << u"items.1.price"_s << QByteArray("0.0000000001")
            << u"items[1].price: 0.0000000001 has 10 decimal places"_s;
        QTest::newRow("item billing_units zero")
            << u"items.0.billing_units"_s << QByteArray("0")
            << u"items[0].billing_units: must be greater than 0"_s;
        QTest::newRow("item entity_feature_id number")
            << u"items.0.entity_feature_id"_s << QByteArray("1")
            << u"items[0].entity_feature_id: expected a string"_s;
        QTest::newRow("item reset_usage_when_enabled number")
            << u"items.0.reset_usage_when_enabled"_s << QByteArray("1")
            << u"items[0].reset_usage_when_enabled: expected a boolean"_s;
        QTest::newRow("item tiers object")
            << u"items.0.tiers"_s << QByteArray("{}") << u"items[0].tiers: expected an array"_s;
        QTest::newRow("item tiers empty") << u"items.0.tiers"_s << QByteArray("[]")
                                          << u"items[0].tiers: must hold at least one tier"_s;
        QTest::newRow("item tier to word")
            << u"items.0.tiers.0.to"_s << QByteArray("\"infinity\"")
            << u"items[0].tiers[0].to: expected a number or \"inf\""_s;
        QTest::newRow("item tier to missing")
            << u"items.0.tiers.0.to"_s << QByteArray() << u"items[0].tiers[0].to: is required"_s;
        QTest::newRow("item tier inf not last") << u"items.0.tiers.0.to"_s << QByteArray("\"inf\"")
                                                << u"items[0].tiers[0].to: only the last tier"_s;
        QTest::newRow("item tiers not rising")
            << u"items.0.tiers.1.to"_s << QByteArray("500")
            << u"items[0].tiers[1].to: tiers must be in increasing"_s;
        QTest::newRow("item tier amount missing") << u"items.0.tiers.1.amount"_s << QByteArray()
                                                  << u"items[0].tiers[1].amount: is required"_s;
        QTest::newRow("item tier flat_amount negative")
            << u"items.0.tiers.1.flat_amount"_s << QByteArray("-10")
            << u"items[0].tiers[1].flat_amount: must not be negative"_s;
        QTest::newRow("item price with tiers")
            << u"items.1.tiers"_s << QByteArray(R"([{"to":"inf","amount":1}])")
            << u"items[1].tiers: cannot be combined with price"_s;
        QTest::newRow("free_trial boolean")
            << u"free_trial"_s << QByteArray("true") << u"free_trial: expected an object"_s;
        QTest::newRow("missing free_trial")
            << u"free_trial"_s << QByteArray() << u"free_trial: is required"_s;
        QTest::newRow("free_trial unknown duration")
            << u"free_trial.duration"_s << QByteArray("\"week\"")
            << u"free_trial.duration: \"week\" is not one of \"day\", \"month\", \"year\""_s;
        QTest::newRow("free_trial length zero")
            << u"free_trial.length"_s << QByteArray("0")
            << u"free_trial.length: expected an integer from 1"_s;
        QTest::newRow("free_trial missing length")
            << u"free_trial.length"_s << QByteArray() << u"free_trial.length: is required"_s;
        QTest::newRow("free_trial unique_fingerprint text")
            << u"free_trial.unique_fingerprint"_s << QByteArray("\"yes\"")
            << u"free_trial.unique_fingerprint: expected a boolean"_s;
    }
    void productRejects() { verifyPointerRejects<Product>(parse(FullProduct)); }

    void updateRoundTrips_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("everything")
            << QByteArray(R"({"id":"pro_v2","name":"Pro 2","is_add_on":false,"is_default":true,
               "version":4,"group":"team","archived":true,
               "items":[{"feature_id":"ai_credits","interval":"month","included_usage":50,
                 "tiers":[{"to":"inf","amount":0.1}]}],
               "free_trial":{"duration":"month","length":1,"unique_fingerprint":false}})");
        QTest::newRow("clear group and trial") << QByteArray(R"({"group":null,"free_trial":null})");
        QTest::newRow("remove every item") << QByteArray(R"({"items":[]})");
        QTest::newRow("nothing") << QByteArray("{}");
        QTest::newRow("version at 2^53-1") << QByteArray(R"({"version":9007199254740991})");
        QTest::newRow("dry run") << QByteArray(R"({"name":"Pro 3","dry_run":true})");
    }
    void updateRoundTrips() { verifyBodyRoundTrip<UpdateProductRequest>(); }

    void updateKeepsTriStates()
    {
        const auto absent = decodeBody<UpdateProductRequest>("{}");
        QVERIFY(absent.ok());
        QVERIFY(!absent.value().group && !absent.value().freeTrial && !absent.value().items);
        const auto cleared =
            decodeBody<UpdateProductRequest>(R"({"group":null,"free_trial":null})");
        QVERIFY(cleared.ok());
        QVERIFY(cleared.value().group && !cleared.value().group->has_value());
        QVERIFY(cleared.value().freeTrial && !cleared.value().freeTrial->has_value());
        const auto set = decodeBody<UpdateProductRequest>(R"({"group":"team","items":[]})");
        QVERIFY(set.ok());
        QCOMPARE(set.value().group, std::optional(std::optional(u"team"_s)));
        QVERIFY(set.value().items && set.value().items->isEmpty());
    }

    void updateRejects_data()
    {
        addBodyColumns();
        QTest::newRow("not json") << QByteArray("{") << u"the body is not valid JSON"_s;
        QTest::newRow("not an object") << QByteArray("[]") << u"the body must be a JSON object"_s;
        QTest::newRow("id number") << QByteArray(R"({"id":5})") << u"id: expected a string"_s;
        QTest::newRow("id empty") << QByteArray(R"({"id":""})") << u"id: must not be empty"_s;
        QTest::newRow("name null")
            << QByteArray(R"({"name":null})") << u"name: expected a string"_s;
        QTest::newRow("is_add_on text")
            << QByteArray(R"({"is_add_on":"true"})") << u"is_add_on: expected a boolean"_s;
        QTest::newRow("is_default null")
            << QByteArray(R"({"is_default":null})") << u"is_default: expected a boolean"_s;
        QTest::newRow("version zero")
            << QByteArray(R"({"version":0})") << u"version: expected an integer from 1"_s;
        QTest::newRow("version beyond 2^53")
            << QByteArray(R"({"version":9007199254740992})") << u"version: expected an integer"_s;
        QTest::newRow("group number")
            << QByteArray(R"({"group":5})") << u"group: expected a string"_s;
        QTest::newRow("archived text")
            << QByteArray(R"({"archived":"yes"})") << u"archived: expected a boolean"_s;
        QTest::newRow("items null")
            << QByteArray(R"({"items":null})") << u"items: expected an array"_s;
        QTest::newRow("item missing feature_id")
            << QByteArray(R"({"items":[{"feature_id":"a"},{"feature_type":"boolean"}]})")
            << u"items[1].feature_id: is required"_s;
        QTest::newRow("item unknown interval")
            << QByteArray(R"({"items":[{"feature_id":"a","interval":"fortnight"}]})")
            << u"items[0].interval: \"fortnight\" is not one of"_s;
        QTest::newRow("item tier amount missing")
            << QByteArray(
                   R"({"items":[{"feature_id":"a","tiers":[{"to":10,"amount":1},{"to":"inf"}]}]})")
            << u"items[0].tiers[1].amount: is required"_s;
        // Usage past the last band would have no price (issue 51); a product
        // as stored and answered is still read (productRoundTrips' items).
        QTest::newRow("item tiers without a last inf")
            << QByteArray(R"({"items":[{"feature_id":"a"},{"feature_id":"b",)"
                          R"("tiers":[{"to":10,"amount":1},{"to":100,"amount":0.5}]}]})")
            << u"items[1].tiers: must end with a tier up to \"inf\": usage above 100 would have "
               "no price"_s;
        QTest::newRow("dry_run text")
            << QByteArray(R"({"dry_run":"yes"})") << u"dry_run: expected a boolean"_s;
        QTest::newRow("free_trial missing length")
            << QByteArray(R"({"free_trial":{"duration":"month"}})")
            << u"free_trial.length: is required"_s;
        QTest::newRow("free_trial text")
            << QByteArray(R"({"free_trial":"14d"})") << u"free_trial: expected an object"_s;
    }
    void updateRejects() { verifyBodyRejects<UpdateProductRequest>(); }
};

QTEST_GUILESS_MAIN(TestProductWire)
#include "tst_productwire.moc"
