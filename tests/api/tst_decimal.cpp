// Decimal is the money representation: exact parse, print, JSON and sums.
// JSON crosses in both directions from the digits, never through a double.
#include "services/api/Decimal.h"
#include "services/api/JsonReader.h"
#include "services/api/JsonWriter.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>

using md::api::Decimal;
using md::api::JsonReader;
using md::api::JsonWriter;
using namespace Qt::StringLiterals;

class TestDecimal final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parsePrintsCanonically_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("canonical");
        QTest::newRow("integer") << u"42"_s << u"42"_s;
        QTest::newRow("fraction") << u"87.250"_s << u"87.25"_s;
        QTest::newRow("negative") << u"-0.5"_s << u"-0.5"_s;
        QTest::newRow("nano") << u"0.000000001"_s << u"0.000000001"_s;
        QTest::newRow("exponent") << u"1.5e-7"_s << u"0.00000015"_s;
        QTest::newRow("big exponent") << u"3e+19"_s << u"30000000000000000000"_s;
        QTest::newRow("max safe int") << u"9007199254740991"_s << u"9007199254740991"_s;
        QTest::newRow("leading zeros") << u"007.10"_s << u"7.1"_s;
        // Either side of the one-pass reader's limits (18 digits, 9 places).
        QTest::newRow("18 digits") << u"123456789.123456789"_s << u"123456789.123456789"_s;
        QTest::newRow("19 digits") << u"1234567890.123456789"_s << u"1234567890.123456789"_s;
        QTest::newRow("19 integer digits")
            << u"-1234567890123456789"_s << u"-1234567890123456789"_s;
        QTest::newRow("trailing point") << u"5."_s << u"5"_s;
        QTest::newRow("leading point") << u".5"_s << u"0.5"_s;
        QTest::newRow("plus") << u"+2.5"_s << u"2.5"_s;
        QTest::newRow("minus zero") << u"-0"_s << u"0"_s;
    }
    void parsePrintsCanonically()
    {
        QFETCH(QString, input);
        QFETCH(QString, canonical);
        const auto d = Decimal::parse(input);
        QVERIFY(d);
        QCOMPARE(d->toString(), canonical);
    }

    void parseRejects_data()
    {
        QTest::addColumn<QString>("input");
        QTest::newRow("empty") << QString();
        QTest::newRow("word") << u"abc"_s;
        QTest::newRow("ten decimals") << u"0.0000000001"_s;
        QTest::newRow("too large") << u"1e30"_s;
        QTest::newRow("trailing junk") << u"1.5x"_s;
        QTest::newRow("two points") << u"1.2.3"_s;
        QTest::newRow("minus alone") << u"-"_s;
        QTest::newRow("point alone") << u"."_s;
        QTest::newRow("ten places, short") << u"1.0000000001"_s;
    }
    void parseRejects()
    {
        QFETCH(QString, input);
        QVERIFY(!Decimal::parse(input));
    }

    void sumIsExactWhereDoubleIsNot()
    {
        // 0.1 added ten times is exactly 1 here; a double gives 0.9999999999999999.
        Decimal sum;
        const Decimal tenth = *Decimal::parse(u"0.1");
        for (int i = 0; i < 10; ++i)
            sum = *sum.plus(tenth);
        QCOMPARE(sum, Decimal::fromInteger(1));
        double d = 0;
        for (int i = 0; i < 10; ++i)
            d += 0.1;
        QVERIFY(d != 1.0);
    }

    void overflowIsReported()
    {
        const Decimal max = Decimal::fromRaw(Decimal::MaxRaw);
        QVERIFY(!max.plus(Decimal::fromInteger(1)));
        QVERIFY(max.negated().minus(Decimal::fromInteger(1)) == std::nullopt);
        QVERIFY(max.minus(Decimal::fromInteger(1)));
    }

    // A running sum goes past one amount's range (10^20) exactly, and keeps
    // what it had only past the range of sums (10^29).
    void runningSumsPassAnAmountsRange()
    {
        const Decimal max = Decimal::fromRaw(Decimal::MaxRaw - 1);
        const Decimal twice = max.runningSum(max);
        QVERIFY(!twice.isAmount());
        QCOMPARE(twice.raw(), 2 * (Decimal::MaxRaw - 1));
        QCOMPARE(twice.runningSum(max.negated()), max);
        const Decimal sums = Decimal::fromRaw(Decimal::SumMaxRaw - 1);
        QCOMPARE(sums.runningSum(Decimal::fromInteger(1)), sums);
    }

    // Formatting takes a 64-bit path below 2^64 raw units and a 128-bit one
    // above; both must print what long division digit by digit prints.
    void formatMatchesLongDivisionAcrossTheWidths()
    {
        const auto reference = [](md::api::Int128 raw) {
            const bool negative = raw < 0;
            md::api::Int128 magnitude = negative ? -raw : raw;
            QString digits;
            do {
                digits.prepend(QChar(u'0' + int(magnitude % 10)));
                magnitude /= 10;
            } while (magnitude > 0);
            digits = digits.rightJustified(Decimal::Scale + 1, u'0');
            QString text = digits.left(digits.size() - Decimal::Scale);
            QString fraction = digits.right(Decimal::Scale);
            while (fraction.endsWith(u'0'))
                fraction.chop(1);
            if (!fraction.isEmpty())
                text += u'.' + fraction;
            return negative ? u'-' + text : text;
        };
        const md::api::Int128 two64 = md::api::Int128(1) << 64;
        QList<md::api::Int128> raws{
            0,     1,         Decimal::One - 1,         Decimal::One,       two64 - 1,
            two64, two64 + 1, two64 * Decimal::One + 7, Decimal::MaxRaw - 1};
        for (int shift = 0; shift < 127; shift += 3)
            raws.append(std::min((md::api::Int128(1) << shift) + shift, Decimal::MaxRaw - 1));
        for (const md::api::Int128 raw : std::as_const(raws))
            for (const md::api::Int128 signedRaw : {raw, -raw}) {
                const QString expected = reference(signedRaw);
                QCOMPARE(Decimal::fromRaw(signedRaw).toString(), expected);
                QCOMPARE(Decimal::parse(expected), Decimal::fromRaw(signedRaw));
            }
        // Sums reach past an amount, to just below 10^29, and read back exactly.
        for (const md::api::Int128 raw : {Decimal::MaxRaw, Decimal::MaxRaw + 1,
                                          Decimal::SumMaxRaw - 1, Decimal::SumMaxRaw / 3 + 7})
            for (const md::api::Int128 signedRaw : {raw, -raw}) {
                const QString expected = reference(signedRaw);
                QCOMPARE(Decimal::fromRaw(signedRaw).toString(), expected);
                QVERIFY(!Decimal::parse(expected));
                QCOMPARE(Decimal::parseSum(expected.toLatin1()), Decimal::fromRaw(signedRaw));
            }
        QVERIFY(!Decimal::parseSum(reference(Decimal::SumMaxRaw).toLatin1()));
    }

    void jsonRoundTrip_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QByteArray>("written");
        QTest::newRow("integer") << QByteArray("9007199254740991") << QByteArray();
        QTest::newRow("negative integer") << QByteArray("-9007199254740991") << QByteArray();
        // Found by fuzz_update_reward: written through a double, it read back as ...600.
        QTest::newRow("integer beyond 2^53") << QByteArray("777777777777777601") << QByteArray();
        QTest::newRow("beyond 64 bits") << QByteArray("18446744073709551617") << QByteArray();
        QTest::newRow("fraction") << QByteArray("87.25") << QByteArray();
        QTest::newRow("small") << QByteArray("0.000003") << QByteArray();
        QTest::newRow("zero") << QByteArray("0") << QByteArray();
        // 20 significant digits: a double keeps 17 (12345678901.123457).
        QTest::newRow("20 digits") << QByteArray("12345678901.123456789") << QByteArray();
        QTest::newRow("20 digits negative") << QByteArray("-99999999999.999999999") << QByteArray();
        QTest::newRow("trailing zero") << QByteArray("1.50") << QByteArray("1.5");
        QTest::newRow("exponent") << QByteArray("1.5e-7") << QByteArray("0.00000015");
        QTest::newRow("upper exponent") << QByteArray("2E3") << QByteArray("2000");
        QTest::newRow("minus zero") << QByteArray("-0.0") << QByteArray("0");
    }
    void jsonRoundTrip()
    {
        QFETCH(QByteArray, json);
        QFETCH(QByteArray, written);
        const JsonReader body = JsonReader::fromBody(QByteArray("{\"v\":" + json + "}"));
        const Decimal d = body.field("v"_L1).decimal();
        QVERIFY2(body.ok(), qPrintable(body.ok() ? QString() : body.error()->message));
        JsonWriter writer;
        writer.beginObject().field("v"_L1, d).endObject();
        const QByteArray out = writer.take();
        QCOMPARE(out, "{\"v\":" + (written.isEmpty() ? json : written) + "}");
        QCOMPARE(JsonReader::fromBody(out).field("v"_L1).decimal(), d);
    }

    void jsonRefusesWhatItWouldRound_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("ten places") << QByteArray("0.0000000001");
        QTest::newRow("twenty places") << QByteArray("1.12345678901234567891");
        QTest::newRow("out of range") << QByteArray("1e30");
        QTest::newRow("tiny exponent") << QByteArray("1e-10");
    }
    void jsonRefusesWhatItWouldRound()
    {
        QFETCH(QByteArray, json);
        const JsonReader body =
            JsonReader::fromBody(QByteArray("{\"grants\":[{\"included\":" + json + "}]}"));
        const JsonReader included = body.field("grants"_L1).array().at(0).field("included"_L1);
        included.decimal();
        QVERIFY(!body.ok());
        QCOMPARE(body.error()->status, 400);
        // The message names the field and what to fix; it never rounds.
        QVERIFY2(body.error()->message.startsWith(u"grants[0].included: "_s),
                 qPrintable(body.error()->message));
        QVERIFY2(body.error()->message.contains(u"decimal places"_s) ||
                     body.error()->message.contains(u"out of range"_s),
                 qPrintable(body.error()->message));
    }

    void jsonRejectsNonNumbers()
    {
        for (const QByteArray &value :
             {QByteArray("\"12\""), QByteArray("true"), QByteArray("null")}) {
            const JsonReader body = JsonReader::fromBody(QByteArray("{\"v\":" + value + "}"));
            body.field("v"_L1).decimal();
            QVERIFY2(!body.ok(), value.constData());
        }
    }

    // Random decimals across the whole range cross the wire digit for digit;
    // the same values through Qt's JSON (a double) mostly do not.
    void propertyRandomDecimalsRoundTrip()
    {
        const quint32 seed = QRandomGenerator::global()->generate();
        QRandomGenerator random(seed);
        int lostByDouble = 0;
        constexpr int Count = 20000;
        for (int i = 0; i < Count; ++i) {
            // Up to 30 digits, 0 to 9 of them after the point, either sign.
            const int digits = 1 + int(random.bounded(29));
            md::api::Int128 raw = 0;
            for (int k = 0; k < digits; ++k)
                raw = raw * 10 + random.bounded(10);
            raw %= Decimal::MaxRaw;
            if (random.bounded(2))
                raw = -raw;
            const Decimal d = Decimal::fromRaw(raw);
            JsonWriter writer;
            writer.beginObject().field("v"_L1, d).endObject();
            const QByteArray text = writer.take();
            const JsonReader back = JsonReader::fromBody(text);
            const Decimal read = back.field("v"_L1).decimal();
            if (!back.ok() || read != d)
                QFAIL(qPrintable(u"seed %1: %2 came back as %3"_s.arg(seed).arg(
                    QString::fromLatin1(text), read.toString())));
            const double viaQt = QJsonDocument::fromJson(text).object().value(u"v"_s).toDouble();
            if (Decimal::parse(QString::number(viaQt, 'g', 17)) != d)
                ++lostByDouble;
        }
        QVERIFY2(lostByDouble > Count / 2,
                 qPrintable(u"only %1 of %2 lost through a double"_s.arg(lostByDouble).arg(Count)));
    }

    void mulDivRoundsHalfAwayFromZero_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<qint64>("numerator");
        QTest::addColumn<qint64>("denominator");
        QTest::addColumn<QString>("result");
        QTest::newRow("exact") << u"0.0075"_s << qint64(120) << qint64(100) << u"0.009"_s;
        QTest::newRow("half up") << u"0.000000001"_s << qint64(1) << qint64(2) << u"0.000000001"_s;
        QTest::newRow("below half") << u"0.000000001"_s << qint64(1) << qint64(3) << u"0"_s;
        QTest::newRow("negative half")
            << u"-0.000000001"_s << qint64(1) << qint64(2) << u"-0.000000001"_s;
        QTest::newRow("negative factor") << u"2"_s << qint64(-3) << qint64(4) << u"-1.5"_s;
    }
    void mulDivRoundsHalfAwayFromZero()
    {
        QFETCH(QString, value);
        QFETCH(qint64, numerator);
        QFETCH(qint64, denominator);
        QFETCH(QString, result);
        QCOMPARE(Decimal::parse(value)->mulDiv(numerator, denominator)->toString(), result);
    }

    void mulDivRefusesOverflowAndZero()
    {
        QVERIFY(!Decimal::fromRaw(Decimal::MaxRaw).mulDiv(2, 1));
        QVERIFY(!Decimal::fromInteger(1).mulDiv(1, 0));
        QVERIFY(!Decimal::fromRaw(Decimal::MaxRaw).mulDiv(std::numeric_limits<qint64>::max(), 1));
    }

    void ordering()
    {
        QVERIFY(*Decimal::parse(u"0.5") < *Decimal::parse(u"0.6"));
        QVERIFY(*Decimal::parse(u"-1") < Decimal());
        QCOMPARE(*Decimal::parse(u"1.0"), Decimal::fromInteger(1));
    }
};

QTEST_GUILESS_MAIN(TestDecimal)
#include "tst_decimal.moc"
