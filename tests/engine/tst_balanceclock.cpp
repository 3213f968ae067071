// The billing clock's rule on one balance, without a database
// (services/engine/clock/BalanceClock; docs/api.md, "The billing clock"):
// the reset calendar at its edges, what a reset restores and forgives,
// every missed period in order, rollovers and their cap, expiries, and that
// the ledger events it makes chain: each event's balance_after is what the
// ones before it add up to, and they add up to the change of what the
// balance holds.
#include "services/engine/clock/BalanceClock.h"

#include <QDateTime>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using api::Decimal;
using api::ResetInterval;
using engine::BalanceClock;
using engine::ClockedBalance;

namespace {

qint64 at(const QString &iso)
{
    const QDateTime time = QDateTime::fromString(iso, Qt::ISODate);
    if (!time.isValid())
        qFatal("bad date %s", qPrintable(iso));
    return QDateTime(time.date(), time.time(), Qt::UTC).toMSecsSinceEpoch();
}

QString iso(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(u"yyyy-MM-ddTHH:mm:ss"_s);
}

Decimal dec(const char *text)
{
    return *Decimal::parse(QByteArrayView(text));
}

// A monthly balance of 100 from Jan 31, 2025, 40 used.
ClockedBalance monthly()
{
    ClockedBalance b;
    b.includedGrant = dec("100");
    b.remaining = dec("60");
    b.usage = dec("40");
    b.interval = ResetInterval::Month;
    b.anchor = at(u"2025-01-31T00:00:00"_s);
    b.resetsAt = b.anchor;
    return b;
}

// Every event's balance_after is what the balance held before plus the
// events up to it; together they are the change of what it holds.
void checkChain(const ClockedBalance &before, const BalanceClock::Outcome &outcome)
{
    Decimal held = BalanceClock::held(before);
    qint64 last = std::numeric_limits<qint64>::min();
    for (const engine::ClockEvent &event : outcome.events) {
        QVERIFY2(event.amount.isAmount(), qPrintable(event.amount.toString()));
        held = *held.sum(event.amount);
        QCOMPARE(event.balanceAfter, held);
        QVERIFY2(event.at >= last, "events come oldest first");
        last = event.at;
    }
    if (outcome.balance.expired)
        QCOMPARE(held, Decimal()); // an expiry gives everything up
    else
        QCOMPARE(held, BalanceClock::held(outcome.balance));
}

} // namespace

class TestBalanceClock final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void calendar_data()
    {
        QTest::addColumn<int>("interval");
        QTest::addColumn<qint64>("count");
        QTest::addColumn<QString>("anchor");
        QTest::addColumn<QStringList>("resets"); // the first ones after the anchor
        const auto month = int(ResetInterval::Month);
        QTest::newRow("the 31st, through February and back")
            << month << qint64(1) << u"2025-01-31T00:00:00"_s
            << QStringList{u"2025-02-28T00:00:00"_s, u"2025-03-31T00:00:00"_s,
                           u"2025-04-30T00:00:00"_s, u"2025-05-31T00:00:00"_s};
        QTest::newRow("the 31st in a leap year")
            << month << qint64(1) << u"2024-01-31T12:30:00"_s
            << QStringList{u"2024-02-29T12:30:00"_s, u"2024-03-31T12:30:00"_s};
        QTest::newRow("Feb 29 yearly: Feb 28 in other years, Feb 29 again in 2028")
            << int(ResetInterval::Year) << qint64(1) << u"2024-02-29T00:00:00"_s
            << QStringList{u"2025-02-28T00:00:00"_s, u"2026-02-28T00:00:00"_s,
                           u"2027-02-28T00:00:00"_s, u"2028-02-29T00:00:00"_s};
        QTest::newRow("across a year's end")
            << month << qint64(1) << u"2025-11-30T23:59:59"_s
            << QStringList{u"2025-12-30T23:59:59"_s, u"2026-01-30T23:59:59"_s};
        QTest::newRow("every 3 months from the 31st")
            << month << qint64(3) << u"2025-01-31T00:00:00"_s
            << QStringList{u"2025-04-30T00:00:00"_s, u"2025-07-31T00:00:00"_s,
                           u"2025-10-31T00:00:00"_s, u"2026-01-31T00:00:00"_s};
        QTest::newRow("quarter from Nov 30")
            << int(ResetInterval::Quarter) << qint64(1) << u"2025-11-30T00:00:00"_s
            << QStringList{u"2026-02-28T00:00:00"_s, u"2026-05-30T00:00:00"_s};
        QTest::newRow("semi-annual from Aug 31")
            << int(ResetInterval::SemiAnnual) << qint64(1) << u"2025-08-31T00:00:00"_s
            << QStringList{u"2026-02-28T00:00:00"_s, u"2026-08-31T00:00:00"_s};
        QTest::newRow("every 2 weeks")
            << int(ResetInterval::Week) << qint64(2) << u"2025-12-25T06:00:00"_s
            << QStringList{u"2026-01-08T06:00:00"_s, u"2026-01-22T06:00:00"_s};
        QTest::newRow("daily across a year's end")
            << int(ResetInterval::Day) << qint64(1) << u"2025-12-31T00:00:00"_s
            << QStringList{u"2026-01-01T00:00:00"_s, u"2026-01-02T00:00:00"_s};
        QTest::newRow("every 90 minutes")
            << int(ResetInterval::Minute) << qint64(90) << u"2025-06-01T23:00:00"_s
            << QStringList{u"2025-06-02T00:30:00"_s, u"2025-06-02T02:00:00"_s};
        QTest::newRow("hourly") << int(ResetInterval::Hour) << qint64(1) << u"2025-06-01T23:00:00"_s
                                << QStringList{u"2025-06-02T00:00:00"_s};
    }
    void calendar()
    {
        QFETCH(int, interval);
        QFETCH(qint64, count);
        QFETCH(QString, anchor);
        QFETCH(QStringList, resets);
        qint64 after = at(anchor);
        for (const QString &expected : resets) {
            after = BalanceClock::nextReset(ResetInterval(interval), count, at(anchor), after);
            QCOMPARE(iso(after), expected);
        }
        // From far later, straight to the right one (no drift from stepping).
        const qint64 late = at(resets.last()) - 1;
        QCOMPARE(iso(BalanceClock::nextReset(ResetInterval(interval), count, at(anchor), late)),
                 resets.last());
        // An anchor still to come is itself the next reset.
        QCOMPARE(
            BalanceClock::nextReset(ResetInterval(interval), count, at(anchor), at(anchor) - 1),
            at(anchor));
    }

    void aResetRestoresTheGrantAndZeroesUsage()
    {
        ClockedBalance b = monthly();
        b.prepaidGrant = dec("25.5");
        const auto out = BalanceClock::advance(b, at(u"2025-01-31T00:00:00"_s));
        QCOMPARE(out.resets, 1);
        QCOMPARE(out.balance.remaining, dec("125.5")); // included and prepaid
        QCOMPARE(out.balance.usage, Decimal());
        QCOMPARE(iso(*out.balance.resetsAt), u"2025-02-28T00:00:00"_s);
        QCOMPARE(out.events.size(), 1);
        QCOMPARE(out.events.first().kind, u"reset"_s);
        QCOMPARE(out.events.first().amount, dec("65.5"));
        QCOMPARE(out.events.first().usage, dec("-40"));
        checkChain(b, out);
    }

    void nothingBeforeItsTime()
    {
        const ClockedBalance b = monthly();
        const auto out = BalanceClock::advance(b, b.anchor - 1);
        QVERIFY(!out.changed());
        QCOMPARE(out.balance, b);
        QCOMPARE(BalanceClock::dueAt(b), b.anchor);
    }

    void anOverageIsForgiven()
    {
        ClockedBalance b = monthly();
        b.remaining = dec("-30");
        b.usage = dec("130");
        const auto out = BalanceClock::advance(b, b.anchor);
        QCOMPARE(out.balance.remaining, dec("100"));
        QCOMPARE(out.events.first().amount, dec("130"));
        checkChain(b, out);
    }

    void everyMissedPeriodOnceInOrder()
    {
        // Down from Jan 31 to May 1: resets on Jan 31, Feb 28, Mar 31 and
        // Apr 30, each an entry; usage only before the first.
        ClockedBalance b = monthly();
        b.rollover = api::RolloverRule{std::nullopt, 1, ResetInterval::Month};
        const auto out = BalanceClock::advance(b, at(u"2025-05-01T00:00:00"_s));
        QCOMPARE(out.resets, 4);
        QStringList when;
        for (const engine::ClockEvent &event : out.events)
            if (event.kind == "reset"_L1)
                when << iso(event.at);
        QCOMPARE(when, (QStringList{u"2025-01-31T00:00:00"_s, u"2025-02-28T00:00:00"_s,
                                    u"2025-03-31T00:00:00"_s, u"2025-04-30T00:00:00"_s}));
        QCOMPARE(iso(*out.balance.resetsAt), u"2025-05-31T00:00:00"_s);
        // Each rollover lasts a month: only April's is left on May 1.
        QCOMPARE(out.balance.rollovers.size(), 1);
        QCOMPARE(out.balance.rollovers.first().balance, dec("100"));
        QCOMPARE(iso(out.balance.rollovers.first().expiresAt), u"2025-05-30T00:00:00"_s);
        checkChain(b, out);
        // The same as stepping there in short hops.
        ClockedBalance stepped = b;
        for (qint64 t = b.anchor; t <= at(u"2025-05-01T00:00:00"_s); t += 86'400'000LL * 5)
            stepped = BalanceClock::advance(stepped, t).balance;
        stepped = BalanceClock::advance(stepped, at(u"2025-05-01T00:00:00"_s)).balance;
        QCOMPARE(stepped, out.balance);
    }

    void idlePeriodsAreSteppedOver()
    {
        // A minute balance nobody used for ten years: no entry per minute.
        ClockedBalance b;
        b.includedGrant = dec("5");
        b.remaining = dec("5");
        b.interval = ResetInterval::Minute;
        b.anchor = at(u"2020-01-01T00:00:00"_s);
        b.resetsAt = b.anchor;
        const auto out = BalanceClock::advance(b, at(u"2030-01-01T00:00:30"_s));
        QCOMPARE(out.events.size(), 0);
        QCOMPARE(iso(*out.balance.resetsAt), u"2030-01-01T00:01:00"_s);
    }

    void rolloversAreCappedSoonestFirst()
    {
        ClockedBalance b = monthly();
        b.rollover = api::RolloverRule{dec("80"), 3, ResetInterval::Month};
        b.rollovers = {{dec("50"), dec("50"), at(u"2025-03-15T00:00:00"_s)},
                       {dec("20"), dec("20"), at(u"2025-02-15T00:00:00"_s)}};
        const auto out = BalanceClock::advance(b, b.anchor);
        // 60 carried; 130 held in rollovers, 50 over the cap: the one that
        // expires first (20) goes, then 30 of the next.
        QCOMPARE(out.rollovers, 1);
        QCOMPARE(out.balance.rollovers.size(), 2);
        QCOMPARE(out.balance.rollovers.at(0).balance, dec("20"));
        QCOMPARE(out.balance.rollovers.at(0).granted, dec("50"));
        QCOMPARE(out.balance.rollovers.at(1).balance, dec("60"));
        QCOMPARE(iso(out.balance.rollovers.at(1).expiresAt), u"2025-04-30T00:00:00"_s);
        QCOMPARE(out.events.at(0).kind, u"rollover"_s);
        QCOMPARE(out.events.at(0).amount, dec("-50"));
        QCOMPARE(out.events.at(0).carried, dec("60"));
        checkChain(b, out);
    }

    void aMaxOfZeroCarriesNothing()
    {
        ClockedBalance b = monthly();
        b.rollover = api::RolloverRule{Decimal(), 1, ResetInterval::Month};
        const auto out = BalanceClock::advance(b, b.anchor);
        QVERIFY(out.balance.rollovers.isEmpty());
        QCOMPARE(out.balance.remaining, dec("100"));
        checkChain(b, out);
    }

    void anExpiredRolloverLeavesWithAnEntry()
    {
        ClockedBalance b = monthly();
        b.rollovers = {{dec("10"), dec("7.25"), at(u"2025-01-10T00:00:00"_s)}};
        const auto out = BalanceClock::advance(b, at(u"2025-01-20T00:00:00"_s));
        QVERIFY(out.balance.rollovers.isEmpty());
        QCOMPARE(out.expiries, 1);
        QCOMPARE(out.events.size(), 1);
        QCOMPARE(out.events.first().kind, u"expiry"_s);
        QCOMPARE(out.events.first().amount, dec("-7.25"));
        QCOMPARE(out.events.first().at, at(u"2025-01-10T00:00:00"_s));
        checkChain(b, out);
    }

    void aStandaloneBalanceExpiresOnceAndThenNothing()
    {
        ClockedBalance b = monthly();
        b.standalone = true;
        b.expiresAt = at(u"2025-03-01T00:00:00"_s);
        b.rollovers = {{dec("5"), dec("5"), at(u"2025-06-01T00:00:00"_s)}};
        const auto out = BalanceClock::advance(b, at(u"2026-01-01T00:00:00"_s));
        QVERIFY(out.balance.expired);
        // Jan 31's; Feb 28's found nothing used (no entry), and none after Mar 1.
        QCOMPARE(out.resets, 1);
        QCOMPARE(out.events.size(), 2);
        QCOMPARE(out.events.last().kind, u"expiry"_s);
        QCOMPARE(out.events.last().balanceAfter, Decimal());
        QVERIFY(out.balance.rollovers.isEmpty());
        QVERIFY(!BalanceClock::dueAt(out.balance));
        checkChain(b, out);
        QVERIFY(!BalanceClock::advance(out.balance, at(u"2027-01-01T00:00:00"_s)).changed());
    }

    void nothingAtOrAfterThePlansEnd()
    {
        ClockedBalance b = monthly();
        b.planEndsAt = at(u"2025-02-28T00:00:00"_s); // the plan's expiry takes it from there
        b.rollovers = {{dec("5"), dec("5"), at(u"2025-03-01T00:00:00"_s)}};
        const auto out = BalanceClock::advance(b, at(u"2025-06-01T00:00:00"_s));
        QCOMPARE(out.resets, 1);
        QCOMPARE(out.balance.rollovers.size(), 1);
        QVERIFY(!BalanceClock::dueAt(out.balance));
    }

    void anUnlimitedBalanceOnlyForgetsItsUsage()
    {
        ClockedBalance b = monthly();
        b.unlimited = true;
        b.remaining = Decimal();
        b.rollover = api::RolloverRule{std::nullopt, 1, ResetInterval::Month};
        const auto out = BalanceClock::advance(b, b.anchor);
        QCOMPARE(out.balance.remaining, Decimal());
        QCOMPARE(out.balance.usage, Decimal());
        QVERIFY(out.balance.rollovers.isEmpty());
        QCOMPARE(out.events.first().amount, Decimal());
        checkChain(b, out);
    }

    void aRolloverNeverTakesABalancePastAnAmount()
    {
        // 6·10^19 unused and a grant of 6·10^19 back: only what keeps the
        // balance below 10^20 carries over; the rest leaves with the reset.
        ClockedBalance b = monthly();
        b.includedGrant = dec("60000000000000000000");
        b.remaining = b.includedGrant;
        b.usage = Decimal();
        b.rollover = api::RolloverRule{std::nullopt, 3, ResetInterval::Month};
        const auto out = BalanceClock::advance(b, at(u"2025-04-01T00:00:00"_s));
        QVERIFY(BalanceClock::held(out.balance).isAmount());
        QCOMPARE(BalanceClock::held(out.balance), Decimal::fromRaw(Decimal::MaxRaw - 1));
        checkChain(b, out);
    }

    void theLargestAmountsStayAmounts()
    {
        // From the most overdrawn a balance can be back to the largest
        // grant: more than one amount, so two entries.
        const Decimal largest = Decimal::fromRaw(Decimal::MaxRaw - 1);
        ClockedBalance b = monthly();
        b.includedGrant = largest;
        b.remaining = largest.negated();
        b.usage = largest;
        const auto out = BalanceClock::advance(b, b.anchor);
        QCOMPARE(out.resets, 1);
        QCOMPARE(out.events.size(), 2);
        QCOMPARE(out.balance.remaining, largest);
        checkChain(b, out);
    }
};

QTEST_APPLESS_MAIN(TestBalanceClock)
#include "tst_balanceclock.moc"
