// What the balance detail says the next reset will do: the grant back, an
// overage forgiven, and what rolls over, held to the rule's max, until the
// reset plus the rule's length on the UTC calendar.
#include "models/balances/ResetOutlook.h"
#include "models/common/AmountFormat.h"

#include <QDateTime>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using models::ResetOutlook;

namespace {

api::Decimal dec(const char *text)
{
    return *api::Decimal::parse(QByteArrayView(text));
}

qint64 utc(int year, int month, int day)
{
    return QDateTime(QDate(year, month, day), QTime(0, 0), Qt::UTC).toMSecsSinceEpoch();
}

// 1,000 included monthly, resetting on 31 January 2027, 500 at most carried for 1 month.
api::BalanceRow monthly(const char *remaining)
{
    api::BalanceRow row;
    row.includedGrant = dec("1000");
    row.remaining = dec(remaining);
    row.usage = *row.includedGrant.plus(row.remaining.negated());
    row.reset = api::Reset{api::ResetInterval::Month, 1, utc(2027, 1, 31),
                           api::RolloverRule{dec("500"), 1, api::ResetInterval::Month}};
    return row;
}

} // namespace

class TestResetOutlook final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    void whatComesBack()
    {
        QCOMPARE(ResetOutlook::atTheReset(monthly("250")), u"1,000.00 back, usage back to 0"_s);
        QCOMPARE(ResetOutlook::atTheReset(monthly("-20.5")),
                 u"1,000.00 back, usage back to 0; the overage of 20.50 is forgiven"_s);
        api::BalanceRow unlimited = monthly("0");
        unlimited.unlimited = true;
        QCOMPARE(ResetOutlook::atTheReset(unlimited), u"usage back to 0"_s);
        QVERIFY(ResetOutlook::rollsOver(unlimited).isEmpty());
        api::BalanceRow once = monthly("5");
        once.reset->interval = api::ResetInterval::OneOff;
        QVERIFY(ResetOutlook::atTheReset(once).isEmpty());
        QVERIFY(ResetOutlook::rollsOver(once).isEmpty());
    }

    // The unused remaining, exact, held to max; nothing when none is left.
    void whatCarriesOver_data()
    {
        QTest::addColumn<QString>("remaining");
        QTest::addColumn<QString>("carried");
        QTest::newRow("some") << u"250.125"_s << u"250.125"_s;
        QTest::newRow("held to max") << u"900"_s << u"500"_s;
        QTest::newRow("all used") << u"0"_s << u"0"_s;
        QTest::newRow("overage") << u"-3"_s << u"0"_s;
    }
    void whatCarriesOver()
    {
        QFETCH(QString, remaining);
        QFETCH(QString, carried);
        const api::BalanceRow row = monthly(remaining.toLatin1().constData());
        QCOMPARE(ResetOutlook::carried(row), dec(carried.toLatin1().constData()));
        api::BalanceRow keepsAll = row;
        keepsAll.reset->rollover->max.reset();
        QCOMPARE(ResetOutlook::carried(keepsAll),
                 std::max(api::Decimal(), row.remaining)); // no max: all of it
    }

    // Reset on 31 January, kept a month: until 28 February (the month's
    // end), as the engine's calendar counts it.
    void untilTheEndOfItsLife()
    {
        const QString text = ResetOutlook::rollsOver(monthly("250"));
        QVERIFY2(text.startsWith(u"250.00 unused now carries over, kept until "_s +
                                 models::formatTimestamp(utc(2027, 2, 28))),
                 qPrintable(text));
        QVERIFY2(text.endsWith(u"; at most 500.00 held, the soonest to expire giving way first"_s),
                 qPrintable(text));
        const QString none = ResetOutlook::rollsOver(monthly("0"));
        QVERIFY2(none.startsWith(u"nothing unused now"_s), qPrintable(none));
        api::BalanceRow noRule = monthly("250");
        noRule.reset->rollover.reset();
        QVERIFY(ResetOutlook::rollsOver(noRule).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestResetOutlook)
#include "tst_resetoutlook.moc"
