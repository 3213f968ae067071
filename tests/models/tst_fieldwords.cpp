// Field problems in words, once (issue 33): a wire path becomes places
// numbered from 1, the decoder's stock messages are said plainly, and a
// field named twice is said once. The decoder's own messages are checked
// too, so that a change of its wording shows here.
#include "models/common/FieldWords.h"
#include "services/api/JsonReader.h"

#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using api::ApiError;
using models::FieldWords;

namespace {

constexpr std::pair<QLatin1StringView, int> Intervals[] = {{"day"_L1, 0}, {"week"_L1, 1}};

// The decoder's first problem with `body`, read with `read`.
template <typename Read> ApiError decoded(const char *body, Read read)
{
    const api::JsonReader reader = api::JsonReader::fromBody(body);
    read(reader);
    return reader.error().value_or(ApiError());
}

} // namespace

class TestFieldWords final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void itemsAndTiersAreNumberedFromOne()
    {
        const ApiError error = decoded(R"({"items":[{},{"tiers":[{"amount":"x"}]}]})",
                                       [](const api::JsonReader &body) {
                                           body.field("items"_L1)
                                               .array()
                                               .at(1)
                                               .field("tiers"_L1)
                                               .array()
                                               .at(0)
                                               .field("amount"_L1)
                                               .decimal();
                                       });
        QCOMPARE(error.message, u"items[1].tiers[0].amount: expected a number"_s);
        QCOMPARE(
            FieldWords::sentence(error),
            u"Item 2, tier 1: the amount must be a number, written like 1234.5: digits and a point, no thousands separators"_s);
        QCOMPARE(FieldWords::path(error), u"items[1].tiers[0].amount"_s);
        QCOMPARE(
            FieldWords::problem(error),
            u"must be a number, written like 1234.5: digits and a point, no thousands separators"_s);

        QCOMPARE(FieldWords::sentence(ApiError::invalidInputs(u"items[0].included_usage"_s,
                                                              u"must not be negative"_s)),
                 u"Item 1: the included usage must not be negative"_s);
        // The free-text rule's messages (services/api/TextRule.h).
        QCOMPARE(FieldWords::sentence(ApiError::invalidInputs(u"reason"_s, u"must not be blank"_s)),
                 u"The reason must not be blank"_s);
        QCOMPARE(
            FieldWords::sentence(ApiError::invalidInputs(
                u"reason"_s,
                u"must not hold control or bidi formatting characters (U+202E at character 8)"_s)),
            u"The reason must not hold control or bidi formatting characters (U+202E at "
            "character 8)"_s);
        QCOMPARE(FieldWords::sentence(ApiError::invalidInputs(
                     u"items[0].tiers[1].to"_s, u"tiers must be in increasing order of \"to\""_s)),
                 u"Item 1, tier 2: the up-to value must be greater than the previous tier's"_s);
        // An entry itself, and a problem not said of the field (it joins the place).
        QCOMPARE(
            FieldWords::sentence(ApiError::invalidInputs(u"items[2]"_s, u"expected an object"_s)),
            u"Item 3 must be a JSON object"_s);
        QCOMPARE(FieldWords::sentence(
                     ApiError::invalidInputs(u"items[0].tiers"_s, u"write up-to:amount pairs"_s)),
                 u"Item 1, tiers: write up-to:amount pairs"_s);
    }

    void promoCodes()
    {
        QCOMPARE(FieldWords::sentence(ApiError::invalidInputs(
                     u"feature_grant.promo_codes[1].code"_s, u"must not be empty"_s)),
                 u"Feature grant, promo code 2: the code must not be empty"_s);
        // The code it repeats is said in words too.
        QCOMPARE(FieldWords::sentence(ApiError::invalidInputs(u"coupon.promo_codes[2].code"_s,
                                                              u"duplicates promo_codes[0]"_s)),
                 u"Coupon, promo code 3: the code repeats promo code 1"_s);
        // A server's refusal with a code of its own names its path the same way.
        const ApiError taken{400, md::api::ErrorCode::DuplicatePromoCode,
                             u"feature_grant.promo_codes[1].code: \"TAKEN\" is a promo code of "
                             "reward \"bonus\" already"_s};
        QCOMPARE(FieldWords::sentence(taken),
                 u"Feature grant, promo code 2, code: \"TAKEN\" is a promo code of reward "
                 "\"bonus\" already"_s);
    }

    void aFieldNamedTwiceIsSaidOnce()
    {
        const ApiError doubled =
            ApiError::invalidInputs(u"customer_id"_s, u"customer_id: must not be empty"_s);
        QCOMPARE(doubled.message, u"customer_id: customer_id: must not be empty"_s);
        QCOMPARE(FieldWords::sentence(doubled), u"The customer id must not be empty"_s);
        QCOMPARE(FieldWords::path(doubled), u"customer_id"_s);
        QCOMPARE(FieldWords::problem(doubled), u"must not be empty"_s);
        // Named again by its last name only.
        QCOMPARE(
            FieldWords::sentence(ApiError::invalidInputs(u"billing_controls.usageLimits[0].limit"_s,
                                                         u"limit: expected a number"_s)),
            u"Billing controls, usage limit 1: the limit must be a number, written like 1234.5: digits and a point, no thousands separators"_s);
    }

    void anUnknownPathIsLeftReadable()
    {
        QCOMPARE(FieldWords::sentence(
                     ApiError::invalidInputs(u"widgets[3].frobCount"_s, u"is required"_s)),
                 u"Widget 4: the frob count is required"_s);
        QCOMPARE(FieldWords::sentence(ApiError::invalidInputs(
                     u"gadget_box.serial_no"_s, u"expected \"<provider>/<model>\", got \"x\""_s)),
                 u"Gadget box, serial no: expected \"<provider>/<model>\", got \"x\""_s);
        // No path: a sentence of the form's own, or an error that is no refusal.
        const ApiError sentence =
            ApiError::invalidInputs({}, u"Amount: 0 would not change the balance."_s);
        QCOMPARE(FieldWords::sentence(sentence), sentence.message);
        QVERIFY(FieldWords::path(sentence).isEmpty());
        const ApiError internal = ApiError::internal(u"database: locked"_s);
        QCOMPARE(FieldWords::sentence(internal), internal.message);
        QVERIFY(FieldWords::path(internal).isEmpty());
    }

    void theDecodersMessagesAreSaidPlainly_data()
    {
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("said");
        const auto row = [](const char *name, const ApiError &error, const QString &said) {
            QTest::newRow(name) << error.message << said;
        };
        const auto value = [](const char *body, auto how) {
            return decoded(body, [&](const api::JsonReader &reader) { how(reader.field("x"_L1)); });
        };
        row("string", value(R"({"x":1})", [](const api::JsonReader &x) { x.string(); }),
            u"must be text"_s);
        row("boolean", value(R"({"x":1})", [](const api::JsonReader &x) { x.boolean(); }),
            u"must be true or false"_s);
        row("integer", value(R"({"x":"1"})", [](const api::JsonReader &x) { x.integer(); }),
            u"must be a whole number"_s);
        row("integer range",
            value(R"({"x":12})", [](const api::JsonReader &x) { x.integer(1, 10); }),
            u"must be a whole number from 1 to 10, not 12"_s);
        row("fraction", value(R"({"x":1.5})", [](const api::JsonReader &x) { x.integer(1, 10); }),
            u"must be a whole number from 1 to 10"_s);
        // 2^53 − 1 is JSON's limit, not one a person reads.
        row("no upper limit",
            value(R"({"x":0})", [](const api::JsonReader &x) { x.integer(1, 9007199254740991LL); }),
            u"must be a whole number, 1 or more, not 0"_s);
        row("fraction, no upper limit",
            value(R"({"x":1.5})",
                  [](const api::JsonReader &x) { x.integer(1, 9007199254740991LL); }),
            u"must be a whole number, 1 or more"_s);
        row("null is the form's all",
            ApiError::invalidInputs(u"x"_s, u"must not be negative (null keeps everything)"_s),
            u"must not be negative (\"all\" keeps everything)"_s);
        row("object", value(R"({"x":[]})", [](const api::JsonReader &x) { x.object(); }),
            u"must be a JSON object"_s);
        row("array", value(R"({"x":{}})", [](const api::JsonReader &x) { x.array(); }),
            u"must be a list"_s);
        row("required", value(R"({})", [](const api::JsonReader &x) { x.string(); }),
            u"is required"_s);
        row("empty id", value(R"({"x":" "})", [](const api::JsonReader &x) { x.identifier(); }),
            u"must not be empty"_s);
        row("negative",
            value(R"({"x":-1})", [](const api::JsonReader &x) { x.nonNegativeDecimal(); }),
            u"must not be negative"_s);
        row("word",
            value(R"({"x":"monthly"})", [](const api::JsonReader &x) { x.word(Intervals); }),
            u"must be one of \"day\", \"week\", not \"monthly\""_s);
        row("decimal places",
            value(R"({"x":0.1234567891})", [](const api::JsonReader &x) { x.decimal(); }),
            u"must have at most 9 decimal places, never rounded (0.1234567891 has 10)"_s);
        row("out of range", value(R"({"x":1e30})", [](const api::JsonReader &x) { x.decimal(); }),
            u"must be below 10^20 in size (1e30 is not)"_s);
    }

    void theDecodersMessagesAreSaidPlainly()
    {
        QFETCH(QString, message);
        QFETCH(QString, said);
        const ApiError error = ApiError::invalidInputs({}, message);
        QVERIFY2(message.startsWith(u"x: "_s), qPrintable(message));
        QCOMPARE(FieldWords::path(error), u"x"_s);
        QCOMPARE(FieldWords::problem(error), said);
        QCOMPARE(FieldWords::sentence(error), QString(u"The x "_s + said));
    }
};

QTEST_GUILESS_MAIN(TestFieldWords)
#include "tst_fieldwords.moc"
