// Reward records and rewards.update wire types: round trips and one rejection per rule.
#include "services/api/UpdateReward.h"
#include "tests/api/wiretest.h"

using namespace md::api;
using namespace wiretest;
using namespace Qt::StringLiterals;

namespace {

const QByteArray FullGrant = R"({"id":"rew_1","name":"Launch credits",
 "promo_codes":[{"code":"LAUNCH","max_uses":100},{"code":"FRIENDS","max_uses":5}],
 "grants":[{"feature_id":"ai_credits","included":25.5,"expiry":{"type":"month","length":1}},
   {"feature_id":"seats","included":2,"expiry":null}],
 "created_at":1761955200000})";

const QByteArray FullCoupon = R"({"id":"rew_2","name":"Half off","type":"percentage_discount",
 "value":50,"duration":{"type":"months","length":3},"plan_ids":["pro","team"],
 "promo_codes":[{"code":"HALF","global_max_redemption":1000,"first_time_transaction":true}],
 "created_at":1761955200000})";

} // namespace

class TestRewardWire final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void grantRoundTrips_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QByteArray>("value");
        QTest::newRow("full") << QString() << QByteArray();
        QTest::newRow("no promo codes") << u"promo_codes"_s << QByteArray("[]");
        QTest::newRow("day expiry")
            << u"grants.0.expiry"_s << QByteArray(R"({"type":"day","length":30})");
        QTest::newRow("week expiry")
            << u"grants.0.expiry"_s << QByteArray(R"({"type":"week","length":2})");
        QTest::newRow("year expiry")
            << u"grants.0.expiry"_s << QByteArray(R"({"type":"year","length":1})");
        QTest::newRow("created_at at 2^53-1") << u"created_at"_s << QByteArray("9007199254740991");
    }
    void grantRoundTrips()
    {
        QFETCH(QString, pointer);
        QFETCH(QByteArray, value);
        const JsonValue full = parse(FullGrant);
        verifyRoundTrip<FeatureGrantRecord>(pointer.isEmpty() ? full
                                                              : replaced(full, pointer, value));
    }

    void grantExpiryMayBeOmitted()
    {
        const auto record =
            decode<FeatureGrantRecord>(replaced(parse(FullGrant), u"grants.1.expiry"_s, {}));
        QVERIFY(record.ok());
        QVERIFY(!record.value().grants.at(1).expiry);
        QCOMPARE(md::test::canonicalText(record.value()),
                 md::test::canonicalText(parse(FullGrant)));
        QCOMPARE(record.value().grants.at(0).included.toString(), u"25.5"_s);
    }

    void grantRejects_data()
    {
        addPointerColumns();
        QTest::newRow("missing id") << u"id"_s << QByteArray() << u"id: is required"_s;
        QTest::newRow("name number")
            << u"name"_s << QByteArray("1") << u"name: expected a string"_s;
        QTest::newRow("promo_codes object")
            << u"promo_codes"_s << QByteArray("{}") << u"promo_codes: expected an array"_s;
        QTest::newRow("code empty") << u"promo_codes.0.code"_s << QByteArray("\"\"")
                                    << u"promo_codes[0].code: must not be empty"_s;
        QTest::newRow("code duplicated") << u"promo_codes.1.code"_s << QByteArray("\"LAUNCH\"")
                                         << u"promo_codes[1].code: duplicates promo_codes[0]"_s;
        QTest::newRow("max_uses negative")
            << u"promo_codes.0.max_uses"_s << QByteArray("-1")
            << u"promo_codes[0].max_uses: expected an integer from 0"_s;
        QTest::newRow("max_uses fraction") << u"promo_codes.0.max_uses"_s << QByteArray("1.5")
                                           << u"promo_codes[0].max_uses: expected an integer"_s;
        QTest::newRow("missing max_uses") << u"promo_codes.1.max_uses"_s << QByteArray()
                                          << u"promo_codes[1].max_uses: is required"_s;
        QTest::newRow("grants object")
            << u"grants"_s << QByteArray("{}") << u"grants: expected an array"_s;
        QTest::newRow("grant missing feature_id")
            << u"grants.1.feature_id"_s << QByteArray() << u"grants[1].feature_id: is required"_s;
        QTest::newRow("grant included text") << u"grants.0.included"_s << QByteArray("\"10\"")
                                             << u"grants[0].included: expected a number"_s;
        QTest::newRow("grant included negative") << u"grants.0.included"_s << QByteArray("-1")
                                                 << u"grants[0].included: must not be negative"_s;
        QTest::newRow("expiry text") << u"grants.0.expiry"_s << QByteArray("\"month\"")
                                     << u"grants[0].expiry: expected an object"_s;
        QTest::newRow("expiry type unknown")
            << u"grants.0.expiry.type"_s << QByteArray("\"decade\"")
            << u"grants[0].expiry.type: \"decade\" is not one of"_s;
        QTest::newRow("expiry missing type")
            << u"grants.0.expiry.type"_s << QByteArray() << u"grants[0].expiry.type: is required"_s;
        QTest::newRow("expiry length zero")
            << u"grants.0.expiry.length"_s << QByteArray("0")
            << u"grants[0].expiry.length: expected an integer from 1"_s;
        QTest::newRow("expiry length fraction")
            << u"grants.0.expiry.length"_s << QByteArray("1.5")
            << u"grants[0].expiry.length: expected an integer"_s;
        QTest::newRow("created_at beyond 2^53") << u"created_at"_s << QByteArray("9007199254740992")
                                                << u"created_at: expected an integer"_s;
    }
    void grantRejects() { verifyPointerRejects<FeatureGrantRecord>(parse(FullGrant)); }

    void couponRoundTrips_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QByteArray>("value");
        QTest::newRow("full") << QString() << QByteArray();
        QTest::newRow("every plan") << u"plan_ids"_s << QByteArray("null");
        QTest::newRow("fixed forever")
            << u"duration"_s << QByteArray(R"({"type":"forever","length":0})");
        QTest::newRow("one off") << u"duration"_s << QByteArray(R"({"type":"one_off","length":1})");
        QTest::newRow("fixed discount") << u"type"_s << QByteArray("\"fixed_discount\"");
        QTest::newRow("invoice credits") << u"type"_s << QByteArray("\"invoice_credits\"");
        QTest::newRow("fractional value") << u"value"_s << QByteArray("12.5");
    }
    void couponRoundTrips()
    {
        QFETCH(QString, pointer);
        QFETCH(QByteArray, value);
        const JsonValue full = parse(FullCoupon);
        verifyRoundTrip<CouponRecord>(pointer.isEmpty() ? full : replaced(full, pointer, value));
    }

    void couponLengthMayBeLeftOutOutsideMonths()
    {
        // As the demo workspace writes a one-off coupon.
        const auto coupon = decode<CouponRecord>(
            replaced(parse(FullCoupon), u"duration"_s, QByteArray(R"({"type":"one_off"})")));
        QVERIFY2(coupon.ok(), coupon.ok() ? "" : qPrintable(coupon.error().message));
        QCOMPARE(coupon.value().duration.type, CouponDurationType::OneOff);
        QCOMPARE(coupon.value().duration.length, 0);
    }

    void couponRejects_data()
    {
        addPointerColumns();
        QTest::newRow("missing name") << u"name"_s << QByteArray() << u"name: is required"_s;
        QTest::newRow("unknown type")
            << u"type"_s << QByteArray("\"bogo\"") << u"type: \"bogo\" is not one of"_s;
        QTest::newRow("value text")
            << u"value"_s << QByteArray("\"50\"") << u"value: expected a number"_s;
        QTest::newRow("value negative")
            << u"value"_s << QByteArray("-5") << u"value: must not be negative"_s;
        QTest::newRow("percentage above 100")
            << u"value"_s << QByteArray("100.5") << u"value: must not exceed 100"_s;
        QTest::newRow("missing duration")
            << u"duration"_s << QByteArray() << u"duration: is required"_s;
        QTest::newRow("duration type unknown") << u"duration.type"_s << QByteArray("\"weekly\"")
                                               << u"duration.type: \"weekly\" is not one of"_s;
        QTest::newRow("months without length")
            << u"duration.length"_s << QByteArray("0") << u"duration.length: must be at least 1"_s;
        QTest::newRow("months, length left out")
            << u"duration.length"_s << QByteArray() << u"duration.length: must be at least 1"_s;
        QTest::newRow("duration length negative")
            << u"duration.length"_s << QByteArray("-1")
            << u"duration.length: expected an integer from 0"_s;
        QTest::newRow("missing plan_ids")
            << u"plan_ids"_s << QByteArray() << u"plan_ids: is required"_s;
        QTest::newRow("plan_ids text")
            << u"plan_ids"_s << QByteArray("\"pro\"") << u"plan_ids: expected an array"_s;
        QTest::newRow("plan id number")
            << u"plan_ids.1"_s << QByteArray("3") << u"plan_ids[1]: expected a string"_s;
        QTest::newRow("missing global_max_redemption")
            << u"promo_codes.0.global_max_redemption"_s << QByteArray()
            << u"promo_codes[0].global_max_redemption: is required"_s;
        QTest::newRow("global_max_redemption beyond 2^53")
            << u"promo_codes.0.global_max_redemption"_s << QByteArray("9007199254740992")
            << u"promo_codes[0].global_max_redemption: expected an integer"_s;
        QTest::newRow("first_time_transaction text")
            << u"promo_codes.0.first_time_transaction"_s << QByteArray("\"yes\"")
            << u"promo_codes[0].first_time_transaction: expected a boolean"_s;
        QTest::newRow("created_at negative")
            << u"created_at"_s << QByteArray("-1") << u"created_at: expected an integer from 0"_s;
    }
    void couponRejects() { verifyPointerRejects<CouponRecord>(parse(FullCoupon)); }

    void updateRoundTrips_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("feature grant")
            << QByteArray(R"({"reward_id":"rew_1","feature_grant":{"name":"New",
               "grants":[{"feature_id":"ai_credits","included":10,"expiry":{"type":"week","length":2}},
                 {"feature_id":"seats","included":1,"expiry":null}],
               "promo_codes":[{"code":"NEW","max_uses":3}]}})");
        QTest::newRow("clear grant codes")
            << QByteArray(R"({"reward_id":"rew_1","feature_grant":{"promo_codes":[]}})");
        QTest::newRow("coupon") << QByteArray(
            R"({"reward_id":"rew_2","coupon":{"name":"x","plan_ids":["pro"],
               "promo_codes":[{"code":"A","global_max_redemption":1,"first_time_transaction":false}]}})");
        QTest::newRow("empty coupon update") << QByteArray(R"({"reward_id":"rew_2","coupon":{}})");
    }
    void updateRoundTrips() { verifyBodyRoundTrip<UpdateRewardRequest>(); }

    // As many codes as a 1 MiB body holds: distinct ones decode, and a repeat
    // names the first use however far back it is.
    void manyPromoCodes()
    {
        JsonValue codes = JsonValue::array();
        for (int i = 0; i < 40000; ++i)
            codes.append(JsonValue::object({{"code"_L1, u"C%1"_s.arg(i)}, {"max_uses"_L1, 1}}));
        const auto body = [](const JsonValue &list) {
            return JsonValue::object(
                {{"reward_id"_L1, u"r"_s},
                 {"feature_grant"_L1, JsonValue::object({{"promo_codes"_L1, list}})}});
        };
        const auto distinct = decode<UpdateRewardRequest>(body(codes));
        QVERIFY(distinct.ok());
        QCOMPARE(distinct.value().featureGrant->promoCodes->size(), 40000);
        codes.append(JsonValue::object({{"code"_L1, u"C3"_s}, {"max_uses"_L1, 1}}));
        verifyRejected(decode<UpdateRewardRequest>(body(codes)),
                       u"feature_grant.promo_codes[40000].code: duplicates promo_codes[3]"_s);
    }

    void updateKeepsOmittedFields()
    {
        const auto request = decodeBody<UpdateRewardRequest>(
            R"({"reward_id":"r","feature_grant":{"promo_codes":[]}})");
        QVERIFY(request.ok());
        QVERIFY(!request.value().coupon);
        const FeatureGrantUpdate &update = *request.value().featureGrant;
        QVERIFY(!update.name && !update.grants);
        QVERIFY(update.promoCodes && update.promoCodes->isEmpty());
    }

    void updateRejects_data()
    {
        addBodyColumns();
        QTest::newRow("not json") << QByteArray("nope") << u"the body is not valid JSON"_s;
        QTest::newRow("neither kind")
            << QByteArray(R"({"reward_id":"r"})")
            << u"coupon: exactly one of coupon and feature_grant is required, got neither"_s;
        QTest::newRow("both kinds")
            << QByteArray(R"({"reward_id":"r","coupon":{},"feature_grant":{}})")
            << u"feature_grant: exactly one of coupon and feature_grant is required, got both"_s;
        QTest::newRow("missing reward_id")
            << QByteArray(R"({"coupon":{}})") << u"reward_id: is required"_s;
        QTest::newRow("reward_id number")
            << QByteArray(R"({"reward_id":5,"coupon":{}})") << u"reward_id: expected a string"_s;
        QTest::newRow("coupon null")
            << QByteArray(R"({"reward_id":"r","coupon":null})") << u"coupon: expected an object"_s;
        QTest::newRow("coupon name number")
            << QByteArray(R"({"reward_id":"r","coupon":{"name":1}})")
            << u"coupon.name: expected a string"_s;
        QTest::newRow("coupon plan_ids text")
            << QByteArray(R"({"reward_id":"r","coupon":{"plan_ids":"pro"}})")
            << u"coupon.plan_ids: expected an array"_s;
        QTest::newRow("coupon plan id number")
            << QByteArray(R"({"reward_id":"r","coupon":{"plan_ids":["pro",2]}})")
            << u"coupon.plan_ids[1]: expected a string"_s;
        QTest::newRow("coupon redemption negative")
            << QByteArray(R"({"reward_id":"r","coupon":{"promo_codes":[{"code":"A",
               "global_max_redemption":-1,"first_time_transaction":true}]}})")
            << u"coupon.promo_codes[0].global_max_redemption: expected an integer from 0"_s;
        QTest::newRow("coupon code duplicated")
            << QByteArray(R"({"reward_id":"r","coupon":{"promo_codes":[
               {"code":"A","global_max_redemption":1,"first_time_transaction":true},
               {"code":"A","global_max_redemption":2,"first_time_transaction":false}]}})")
            << u"coupon.promo_codes[1].code: duplicates promo_codes[0]"_s;
        QTest::newRow("coupon missing first_time_transaction")
            << QByteArray(
                   R"({"reward_id":"r","coupon":{"promo_codes":[{"code":"A","global_max_redemption":1}]}})")
            << u"coupon.promo_codes[0].first_time_transaction: is required"_s;
        QTest::newRow("grant name number")
            << QByteArray(R"({"reward_id":"r","feature_grant":{"name":3}})")
            << u"feature_grant.name: expected a string"_s;
        QTest::newRow("grant expiry type unknown")
            << QByteArray(R"({"reward_id":"r","feature_grant":{"grants":[{"feature_id":"f",
               "included":1,"expiry":{"type":"hour","length":1}}]}})")
            << u"feature_grant.grants[0].expiry.type: \"hour\" is not one of"_s;
        QTest::newRow("grant expiry length zero")
            << QByteArray(R"({"reward_id":"r","feature_grant":{"grants":[{"feature_id":"f",
               "included":1,"expiry":{"type":"day","length":0}}]}})")
            << u"feature_grant.grants[0].expiry.length: expected an integer from 1"_s;
        QTest::newRow("grant included negative")
            << QByteArray(
                   R"({"reward_id":"r","feature_grant":{"grants":[{"feature_id":"f","included":-2}]}})")
            << u"feature_grant.grants[0].included: must not be negative"_s;
        QTest::newRow("grant promo code missing max_uses")
            << QByteArray(R"({"reward_id":"r","feature_grant":{"promo_codes":[{"code":"A"}]}})")
            << u"feature_grant.promo_codes[0].max_uses: is required"_s;
        QTest::newRow("grant grants null")
            << QByteArray(R"({"reward_id":"r","feature_grant":{"grants":null}})")
            << u"feature_grant.grants: expected an array"_s;
    }
    void updateRejects() { verifyBodyRejects<UpdateRewardRequest>(); }

    void responseRoundTrips()
    {
        verifyRoundTrip<UpdateRewardResponse>(
            JsonValue::object({{"feature_grant"_L1, parse(FullGrant)}}));
        verifyRoundTrip<UpdateRewardResponse>(
            JsonValue::object({{"coupon"_L1, parse(FullCoupon)}}));
        const auto coupon =
            decode<UpdateRewardResponse>(JsonValue::object({{"coupon"_L1, parse(FullCoupon)}}));
        QVERIFY(coupon.ok());
        QVERIFY(std::holds_alternative<CouponRecord>(coupon.value().reward));
    }

    void responseRejects_data()
    {
        addBodyColumns();
        const QByteArray grant = FullGrant;
        const QByteArray coupon = FullCoupon;
        QTest::newRow("neither")
            << QByteArray("{}")
            << u"coupon: exactly one of coupon and feature_grant is required, got neither"_s;
        QTest::newRow("both")
            << QByteArray("{\"coupon\":" + coupon + ",\"feature_grant\":" + grant + "}")
            << u"feature_grant: exactly one of coupon and feature_grant is required, got both"_s;
        QTest::newRow("grant null")
            << QByteArray(R"({"feature_grant":null})") << u"feature_grant: expected an object"_s;
        QTest::newRow("coupon record broken")
            << QByteArray(R"({"coupon":{"id":"c","name":"n","type":"bogo"}})")
            << u"coupon.type: \"bogo\" is not one of"_s;
        QTest::newRow("grant record broken")
            << QByteArray(
                   R"({"feature_grant":{"id":"g","name":"n","promo_codes":[],"grants":[{}]}})")
            << u"feature_grant.grants[0].feature_id: is required"_s;
    }
    void responseRejects() { verifyBodyRejects<UpdateRewardResponse>(); }
};

QTEST_GUILESS_MAIN(TestRewardWire)
#include "tst_rewardwire.moc"
