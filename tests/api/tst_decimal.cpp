// Decimal is the money representation: exact parse, print, JSON and sums.
#include "services/api/Decimal.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using md::api::Decimal;
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

    void jsonRoundTrip_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("integer") << QByteArray("9007199254740991");
        QTest::newRow("negative integer") << QByteArray("-9007199254740991");
        // Found by fuzz_update_reward: written through a double, it read back as ...600.
        QTest::newRow("integer beyond 2^53") << QByteArray("777777777777777601");
        QTest::newRow("largest 64-bit integer") << QByteArray("9223372036854775807");
        QTest::newRow("smallest 64-bit integer") << QByteArray("-9223372036854775808");
        QTest::newRow("fraction") << QByteArray("87.25");
        QTest::newRow("small") << QByteArray("0.000003");
        QTest::newRow("zero") << QByteArray("0");
    }
    void jsonRoundTrip()
    {
        QFETCH(QByteArray, json);
        const QJsonObject in = QJsonDocument::fromJson("{\"v\":" + json + "}").object();
        const auto d = Decimal::fromJson(in.value(u"v"));
        QVERIFY(d);
        QCOMPARE(d->toString().toLatin1(), json);
        // What we write reads back as the same exact value (3e-06 and 0.000003 alike).
        const QJsonObject out{{u"v"_s, d->toJson()}};
        const QByteArray written = QJsonDocument(out).toJson(QJsonDocument::Compact);
        QCOMPARE(Decimal::fromJson(QJsonDocument::fromJson(written).object().value(u"v")), d);
    }

    void jsonRejectsNonNumbers()
    {
        QVERIFY(!Decimal::fromJson(QJsonValue(u"12"_s)));
        QVERIFY(!Decimal::fromJson(QJsonValue(true)));
        QVERIFY(!Decimal::fromJson(QJsonValue()));
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
