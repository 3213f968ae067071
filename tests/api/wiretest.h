// Helpers shared by the wire suites: fixtures, a path-based JSON editor, and
// round-trip / rejection checks that every suite uses the same way.
#pragma once

#include "services/api/WireCodec.h"
#include "tests/support/JsonEdit.h"

#include <QTest>

#include <functional>

namespace wiretest {

using namespace Qt::StringLiterals;

using md::test::canonical;
using md::test::jsonValue;
using md::test::replaced;

inline md::api::JsonValue parse(const QByteArray &json)
{
    const md::api::JsonValue value = jsonValue(json);
    if (!value.isObject())
        qFatal("fixture is not a JSON object");
    return value;
}

template <typename T, typename Read>
md::api::Result<T> decodeWith(const md::api::JsonValue &value, Read read)
{
    const md::api::JsonReader reader(value);
    T decoded = std::invoke(read, reader);
    if (!reader.ok())
        return *reader.error();
    return decoded;
}

// The JSON a value writes, through `write(JsonWriter &)` or another writer member.
template <typename T, typename Write> md::api::JsonValue written(const T &value, Write write)
{
    md::api::JsonWriter writer;
    std::invoke(write, value, writer);
    return jsonValue(writer.take());
}

template <typename T> void writeDefault(const T &value, md::api::JsonWriter &writer)
{
    value.write(writer);
}

// Decodes `json`, re-encodes it to the same JSON (members in any order,
// every number as written), and decodes that to an equal value.
template <typename T, typename Read = decltype(&T::read),
          typename Write = decltype(&writeDefault<T>)>
void verifyRoundTrip(const md::api::JsonValue &json, Read read = &T::read,
                     Write write = &writeDefault<T>)
{
    const md::api::Result<T> decoded = decodeWith<T>(json, read);
    QVERIFY2(decoded.ok(), qPrintable(decoded.ok() ? QString() : decoded.error().message));
    const md::api::JsonValue encoded = written(decoded.value(), write);
    QCOMPARE(canonical(encoded).toJson(), canonical(json).toJson());
    const md::api::Result<T> again = decodeWith<T>(encoded, read);
    QVERIFY(again.ok());
    QVERIFY(again.value() == decoded.value());
}

template <typename T> void verifyRejected(const md::api::Result<T> &result, const QString &message)
{
    QVERIFY2(!result.ok(), "decoded although it breaks a rule");
    QCOMPARE(result.error().status, 400);
    QCOMPARE(result.error().code, u"invalid_inputs"_s);
    QVERIFY2(result.error().message.startsWith(message),
             qPrintable(u"got: "_s + result.error().message));
}

// Columns of a table that edits one field of a full example.
inline void addPointerColumns()
{
    QTest::addColumn<QString>("pointer");  // dotted path of the field to replace
    QTest::addColumn<QByteArray>("value"); // JSON text; empty removes the field
    QTest::addColumn<QString>("message");  // expected start of the error message
}

template <typename T, typename Read = decltype(&T::read)>
void verifyPointerRejects(const md::api::JsonValue &full, Read read = &T::read)
{
    QFETCH(QString, pointer);
    QFETCH(QByteArray, value);
    QFETCH(QString, message);
    verifyRejected(decodeWith<T>(replaced(full, pointer, value), read), message);
}

// Columns of a table of whole request bodies.
inline void addBodyColumns()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("message");
}

template <typename T> void verifyBodyRejects()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, message);
    verifyRejected(md::api::decodeBody<T>(body), message);
}

// Round trip of whole bodies: one column `body`.
template <typename T> void verifyBodyRoundTrip()
{
    QFETCH(QByteArray, body);
    const md::api::Result<T> decoded = md::api::decodeBody<T>(body);
    QVERIFY2(decoded.ok(), qPrintable(decoded.ok() ? QString() : decoded.error().message));
    verifyRoundTrip<T>(parse(body));
}

// A balance summary in the snake_case form of track_tokens (§2.2).
inline const QByteArray SnakeSummary = R"({"feature_id":"ai_credits","granted":120.5,
 "remaining":87.25,"usage":33.25,"unlimited":false,"overage_allowed":true,"max_purchase":500,
 "next_reset_at":1767225600000,
 "breakdown":[{"id":"bal_1","plan_id":"pro","included_grant":100,"prepaid_grant":20.5,
   "remaining":87.25,"usage":33.25,"unlimited":false,
   "reset":{"interval":"month","interval_count":1,"resets_at":1767225600000},
   "price":{"amount":0.5,"tiers":[{"to":100,"amount":0.5},{"to":"inf","amount":0.25,"flat_amount":10}],
     "tier_behavior":"graduated","billing_units":100,"billing_method":"usage_based","max_purchase":null},
   "expires_at":null},
  {"id":"bal_2","plan_id":null,"included_grant":0,"prepaid_grant":0,"remaining":0,"usage":0,
   "unlimited":false,"reset":null,"price":null,"expires_at":1767225600000}]})";

// The customer object of billing.import (§2.3), camelCase.
inline const QByteArray FullCustomer = R"({"id":"acme","name":"Acme Inc",
 "email":"billing@acme.test","createdAt":1761955200000,"fingerprint":null,"stripeId":"cus_123",
 "processors":{"stripe":{"id":"cus_123"}},"env":"sandbox",
 "metadata":{"tier":"gold","seats":3},"sendEmailReceipts":true,
 "billingControls":{"autoTopups":[{"feature_id":"ai_credits","threshold":5}]},
 "subscriptions":[{"planId":"pro","autoEnable":false,"addOn":false,"status":"active",
   "pastDue":false,"canceledAt":null,"expiresAt":null,"trialEndsAt":1762560000000,
   "startedAt":1761955200000,"currentPeriodStart":1764547200000,
   "currentPeriodEnd":1767225600000,"quantity":1}],
 "purchases":[{"planId":"credits_pack","quantity":2}],"licenses":[],
 "balances":{
  "ai_credits":{"featureId":"ai_credits","granted":120.5,"remaining":87.25,"usage":33.25,
   "unlimited":false,"overageAllowed":true,"maxPurchase":null,"nextResetAt":1767225600000,
   "breakdown":[{"id":"bal_1","planId":"pro","includedGrant":100,"prepaidGrant":20.5,
     "remaining":87.25,"usage":33.25,"unlimited":false,
     "reset":{"interval":"month","intervalCount":1,"resetsAt":1767225600000},
     "price":{"amount":0.5,"tiers":[{"to":100,"amount":0.5},{"to":"inf","amount":0.25,"flatAmount":10}],
       "tierBehavior":"graduated","billingUnits":100,"billingMethod":"usage_based","maxPurchase":null},
     "expiresAt":null}]},
  "seats":{"featureId":"seats","granted":5,"remaining":2,"usage":3,"unlimited":false,
   "overageAllowed":false,"maxPurchase":null,"nextResetAt":null,
   "breakdown":[{"id":"bal_2","planId":null,"includedGrant":5,"prepaidGrant":0,"remaining":2,
     "usage":3,"unlimited":false,"reset":null,"price":null,"expiresAt":1767225600000}]}},
 "flags":{"sso":{"id":"flag_1","plan_id":"pro","expires_at":null,"feature_id":"sso"}},
 "config":{"disable_pooled_balance":false,"disable_overage_billing":true}})";

} // namespace wiretest
