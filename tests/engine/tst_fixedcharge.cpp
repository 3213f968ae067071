// What a plan's fixed price comes to in a billing period (docs/billing.md,
// "A plan's fixed prices"), against amounts worked out by hand: per period
// times the quantity, a plan starting within the period, trials, a plan
// that ended, one-off items, items that are no fixed price, rounding, and an
// amount past the largest line.
#include "services/engine/charges/FixedCharge.h"

#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using api::Decimal;

namespace {

Decimal d(const char *text)
{
    return *Decimal::parse(QByteArrayView(text));
}

api::ProductItem fee(const char *price, bool monthly = true)
{
    api::ProductItem item;
    item.price = d(price);
    if (monthly)
        item.interval = api::ResetInterval::Month;
    return item;
}

engine::Subscription on(qint64 startedAt, qint64 quantity = 1)
{
    engine::Subscription s;
    s.startedAt = startedAt;
    s.quantity = quantity;
    return s;
}

// The billing period of these cases: [1000, 2000).
constexpr qint64 Start = 1000;
constexpr qint64 End = 2000;

} // namespace

class TestFixedCharge final : public QObject
{
    Q_OBJECT

    static std::optional<Decimal> owed(const api::ProductItem &item,
                                       const engine::Subscription &subscription,
                                       qint64 start = Start, qint64 end = End)
    {
        const auto charge = engine::FixedCharges::forPeriod(item, subscription, start, end, 2);
        if (!charge)
            qFatal("%s", qPrintable(charge.error().message));
        return charge.value() ? std::optional(charge.value()->amount) : std::nullopt;
    }

private Q_SLOTS:
    void perPeriodTimesTheQuantity()
    {
        // 3 seats at 29.00: 87.00.
        QCOMPARE(owed(fee("29"), on(500, 3)), std::optional(d("87")));
        // Started within the period: owed there in full, no proration.
        QCOMPARE(owed(fee("29"), on(1500, 2)), std::optional(d("58")));
        // Not started yet.
        QCOMPARE(owed(fee("29"), on(2500)), std::nullopt);
        // No seats, nothing.
        QCOMPARE(owed(fee("29"), on(500, 0)), std::nullopt);
    }

    void nothingDuringATrial()
    {
        engine::Subscription trial = on(500);
        trial.trialEndsAt = 1500; // ends within the period: that period is free
        QCOMPARE(owed(fee("29"), trial), std::nullopt);
        QCOMPARE(owed(fee("29"), trial, 2000, 3000), std::optional(d("29")));
        trial.trialEndsAt = 1000; // ended as the period began
        QCOMPARE(owed(fee("29"), trial), std::optional(d("29")));
    }

    void anEndedPlanOwesUpToItsEnd()
    {
        engine::Subscription ended = on(500);
        ended.expiresAt = 900; // before the period: nothing
        QCOMPARE(owed(fee("29"), ended), std::nullopt);
        ended.expiresAt = 1500; // within it: the period began on the plan
        QCOMPARE(owed(fee("29"), ended), std::optional(d("29")));
        ended.expiresAt = 1000; // as it began
        QCOMPARE(owed(fee("29"), ended), std::nullopt);
    }

    void aOneOffItemOnceWhereThePlanStarted()
    {
        const api::ProductItem setup = fee("99", false);
        QCOMPARE(owed(setup, on(1200)), std::optional(d("99")));
        QCOMPARE(owed(setup, on(500)), std::nullopt); // started in an earlier period
        engine::Subscription trial = on(1200);
        trial.trialEndsAt = 5000; // a setup fee is owed in a trial too
        QCOMPARE(owed(setup, trial), std::optional(d("99")));
    }

    void onlyAPriceWithoutAFeatureIsFixed()
    {
        api::ProductItem seats = fee("10");
        seats.featureId = u"seats"_s; // priced per unit of a feature: usage, not fixed
        QCOMPARE(owed(seats, on(500)), std::nullopt);
        api::ProductItem free = fee("0");
        free.price.reset();
        QCOMPARE(owed(free, on(500)), std::nullopt);
    }

    void roundsOnceHalfAwayFromZero()
    {
        // 3 × 3.335 = 10.005 → 10.01; 7 × 0.0014 = 0.0098 → 0.01.
        QCOMPARE(owed(fee("3.335"), on(500, 3)), std::optional(d("10.01")));
        QCOMPARE(owed(fee("0.0014"), on(500, 7)), std::optional(d("0.01")));
    }

    void anAmountPastTheLargestLineIsBilledAtIt()
    {
        // 10^19 × 100 passes what an amount holds; 2 × 10^12 fits but passes
        // the largest line (a trillion): both are billed at a trillion, marked.
        for (const auto &[price, quantity] :
             {std::pair{"10000000000000000000", 100}, std::pair{"1000000000000", 2}}) {
            const auto charge =
                engine::FixedCharges::forPeriod(fee(price), on(500, quantity), Start, End, 2);
            QVERIFY(charge.ok() && charge.value());
            QVERIFY(charge.value()->capped);
            QCOMPARE(charge.value()->amount, d("1000000000000"));
        }
        const auto under =
            engine::FixedCharges::forPeriod(fee("999999999999.99"), on(500, 1), Start, End, 2);
        QVERIFY(!under.value()->capped);
        QCOMPARE(under.value()->amount, d("999999999999.99"));
    }
};

QTEST_APPLESS_MAIN(TestFixedCharge)
#include "tst_fixedcharge.moc"
