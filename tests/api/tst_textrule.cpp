// The one rule for free text (docs/api.md, "Free text"): what it refuses and
// how it counts, what reaches it from JSON, and every decoder that holds a
// reason or a name to it, each naming the field's path.
#include "services/api/BalanceAdjustment.h"
#include "services/api/BillingControls.h"
#include "services/api/ImportCustomer.h"
#include "services/api/Promotion.h"
#include "services/api/TextRule.h"
#include "services/api/UpdateProduct.h"
#include "services/api/UpdateReward.h"
#include "services/api/WireCodec.h"

#include <QTest>

#include <functional>

using namespace md::api;
using namespace Qt::StringLiterals;

namespace {

QString text(std::initializer_list<char32_t> characters)
{
    return QString::fromUcs4(characters.begin(), qsizetype(characters.size()));
}

// "fix" with `c` after it, as the 4th character.
QString fixWith(char32_t c)
{
    return u"fix"_s + text({c}) + u" it"_s;
}

QString forbidden(const char *codePoint, int at)
{
    return u"must not hold control or bidi formatting characters (%1 at character %2)"_s
        .arg(QLatin1StringView(codePoint))
        .arg(at);
}

template <typename T> QString refusal(const QByteArray &body)
{
    const Result<T> decoded = decodeBody<T>(body);
    return decoded ? QString() : decoded.error().message;
}

// A decoder's body with its free-text field's JSON value at "@".
struct Field
{
    QString path;
    qsizetype maxLength;
    std::function<QString(const QByteArray &)> decode;
};

template <typename T>
Field field(const char *path, const char *body, qsizetype maxLength = MaxNameLength)
{
    return {QString::fromLatin1(path), maxLength, [body](const QByteArray &value) {
                return refusal<T>(QByteArray(body).replace("@", value));
            }};
}

} // namespace

class TestTextRule final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void refusesAndCounts_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("maxLength");
        QTest::addColumn<QString>("problem"); // empty: accepted

        QTest::newRow("plain") << u"credit note 17, ticket #4411"_s << 500 << QString();
        QTest::newRow("NUL") << fixWith(0x0000) << 500 << forbidden("U+0000", 4);
        QTest::newRow("ESC") << fixWith(0x001B) << 500 << forbidden("U+001B", 4);
        QTest::newRow("BEL") << fixWith(0x0007) << 500 << forbidden("U+0007", 4);
        QTest::newRow("tab") << fixWith(0x0009) << 500 << forbidden("U+0009", 4);
        QTest::newRow("line feed") << fixWith(0x000A) << 500 << forbidden("U+000A", 4);
        QTest::newRow("C1 control") << fixWith(0x009B) << 500 << forbidden("U+009B", 4);
        QTest::newRow("line separator") << fixWith(0x2028) << 500 << forbidden("U+2028", 4);
        QTest::newRow("U+202E") << fixWith(0x202E) << 500 << forbidden("U+202E", 4);
        QTest::newRow("U+2066") << fixWith(0x2066) << 500 << forbidden("U+2066", 4);
        QTest::newRow("U+200F") << fixWith(0x200F) << 500 << forbidden("U+200F", 4);
        QTest::newRow("U+061C") << fixWith(0x061C) << 500 << forbidden("U+061C", 4);
        QTest::newRow("after an emoji, by character")
            << text({0x1F600, 0x202E}) << 500 << forbidden("U+202E", 2);
        QTest::newRow("empty") << QString() << 500 << u"must not be blank"_s;
        QTest::newRow("whitespace only")
            << text({0x20, 0xA0, 0x3000, 0x2003}) << 500 << u"must not be blank"_s;
        QTest::newRow("zero-width only")
            << text({0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF}) << 500 << u"must not be blank"_s;
        QTest::newRow("fillers only")
            << text({0x3164, 0x115F, 0xFE0F, 0x00AD}) << 500 << u"must not be blank"_s;
        QTest::newRow("emoji at the limit")
            << QString(u"abcd"_s + text({0x1F600})) << 5 << QString();
        QTest::newRow("emoji past the limit") << QString(u"abcde"_s + text({0x1F600})) << 5
                                              << u"must be at most 5 characters, got 6"_s;
        QTest::newRow("joined emoji") << text({0x1F469, 0x200D, 0x1F4BB}) << 3 << QString();
        QTest::newRow("combining sequence")
            << QString(u"Cafe"_s + text({0x0301})) << 5 << QString();
        QTest::newRow("combining mark, a character of its own")
            << QString(u"Cafe"_s + text({0x0301})) << 4 << u"must be at most 4 characters, got 5"_s;
        QTest::newRow("lone surrogate")
            << QString(u"a"_s + QChar(0xD800) + u"b"_s) << 500
            << u"is not valid Unicode: a lone surrogate at character 2"_s;
    }
    void refusesAndCounts()
    {
        QFETCH(QString, text);
        QFETCH(int, maxLength);
        QFETCH(QString, problem);
        QCOMPARE(freeTextProblem(text, maxLength).value_or(QString()), problem);
    }

    // JSON escapes reach the rule as the characters they stand for; a lone
    // surrogate never does, the parser refuses it first.
    void fromJson()
    {
        const QString nul =
            refusal<BalanceAdjustment>(R"({"balance_id":"b","amount":1,"reason":"fix\u0000 it"})");
        QCOMPARE(nul, QString(u"reason: "_s + forbidden("U+0000", 4)));
        const QString zeroWidth =
            refusal<BalanceAdjustment>(R"({"balance_id":"b","amount":1,"reason":"\u200b\u200b"})");
        QCOMPARE(zeroWidth, u"reason: must not be blank"_s);
        const QString lone =
            refusal<BalanceAdjustment>(R"({"balance_id":"b","amount":1,"reason":"x\ud800"})");
        QVERIFY2(lone.contains(u"lone surrogate"_s), qPrintable(lone));
        const auto adjusted = decodeBody<BalanceAdjustment>(
            R"({"balance_id":"b","amount":1,"reason":"  goodwill \ud83d\ude00  "})");
        QVERIFY(adjusted);
        QCOMPARE(adjusted.value().reason, QString(u"goodwill "_s + text({0x1F600})));
    }

    void everyDecoderHoldsItsFreeText()
    {
        const Field fields[] = {
            field<BalanceAdjustment>("reason", R"({"balance_id":"b","amount":1,"reason":@})",
                                     BalanceAdjustment::MaxReasonLength),
            field<UpdateProductRequest>("name", R"({"name":@})"),
            field<UpdateProductRequest>("group", R"({"group":@})"),
            field<UpdateRewardRequest>("coupon.name", R"({"reward_id":"r","coupon":{"name":@}})"),
            field<UpdateRewardRequest>("feature_grant.name",
                                       R"({"reward_id":"r","feature_grant":{"name":@}})"),
            field<UpdateBillingControlsRequest>(
                "billing_controls.usageAlerts[0].name",
                R"({"customer_id":"c","billing_controls":{"usageAlerts":[
                   {"threshold":5,"thresholdType":"usage","name":@}]}})"),
            field<ImportCustomerRequest>(
                "customer_data.name",
                R"({"customer_id":"c","billables":[],"customer_data":{"name":@}})"),
            field<EnvironmentPromotion>(
                "products[0].to.name",
                R"({"products":[{"id":"p","production":null,"to":{"created_at":1,"id":"p",
                   "name":@,"env":"production","is_add_on":false,"is_default":false,
                   "group":null,"version":1,"items":[],"free_trial":null}}]})"),
            field<EnvironmentPromotion>(
                "products[0].to.group",
                R"({"products":[{"id":"p","production":null,"to":{"created_at":1,"id":"p",
                   "name":"Pro","env":"production","is_add_on":false,"is_default":false,
                   "group":@,"version":1,"items":[],"free_trial":null}}]})"),
            field<EnvironmentPromotion>(
                "rewards[0].to.feature_grant.name",
                R"({"rewards":[{"id":"r","production":null,"to":{"feature_grant":{"id":"r",
                   "name":@,"promo_codes":[],"grants":[],"created_at":1}}}]})"),
        };
        // JSON string values: text the rule takes, then text it refuses.
        const QByteArray fine = R"("Spring \u00e9dition \ud83c\udf31")";
        const QByteArray overridden = R"("ok\u202eevil")";
        const QByteArray blank = R"(" \u200b ")";
        for (const Field &f : fields) {
            const QByteArray full(f.maxLength - 1, 'x');
            const QByteArray emojiAtTheLimit = QByteArray("\"" + full + "\\ud83d\\ude00\"");
            const QByteArray oneTooMany = QByteArray("\"" + full + "xx\"");
            QCOMPARE(f.decode(fine), QString());
            QCOMPARE(f.decode(overridden), QString(f.path + u": "_s + forbidden("U+202E", 3)));
            QCOMPARE(f.decode(blank), QString(f.path + u": must not be blank"_s));
            QCOMPARE(f.decode(emojiAtTheLimit), QString());
            const QString tooLong =
                f.path +
                u": must be at most %1 characters, got %2"_s.arg(f.maxLength).arg(f.maxLength + 1);
            QCOMPARE(f.decode(oneTooMany), tooLong);
        }
    }

    // A name left out keeps its value, as before the rule.
    void optionalNamesMayBeLeftOut()
    {
        QCOMPARE(refusal<UpdateProductRequest>("{}"), QString());
        const QString coupon = refusal<UpdateRewardRequest>(R"({"reward_id":"r","coupon":{}})");
        QCOMPARE(coupon, QString());
        const QString alert = refusal<UpdateBillingControlsRequest>(
            R"({"customer_id":"c","billing_controls":{"usageAlerts":[
                {"threshold":5,"thresholdType":"usage"}]}})");
        QCOMPARE(alert, QString());
    }
};

QTEST_GUILESS_MAIN(TestTextRule)
#include "tst_textrule.moc"
