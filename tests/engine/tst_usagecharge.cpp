// What a usage-based row's usage comes to (docs/billing.md, "Usage past the
// grant"): every price shape against amounts worked out by hand in each case
// (amount, billing units rounded up, graduated and volume tiers, flat
// amounts, zero usage, rounding to the minor unit), purchases within
// max_purchase, amounts past the largest line billed at it, and prices that
// cannot be applied refused with what to fix.
#include "services/engine/charges/UsageCharge.h"

#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using api::Decimal;

namespace {

Decimal d(const char *text)
{
    return *Decimal::parse(QByteArrayView(text));
}

api::Tier tier(std::optional<const char *> to, const char *amount,
               std::optional<const char *> flat = std::nullopt)
{
    api::Tier t;
    if (to)
        t.to = d(*to);
    t.amount = d(amount);
    if (flat)
        t.flatAmount = d(*flat);
    return t;
}

api::Price perUnit(const char *amount, const char *units = "1")
{
    api::Price price;
    price.amount = d(amount);
    price.billingUnits = d(units);
    return price;
}

api::Price tiered(QList<api::Tier> tiers, api::TierBehavior behavior, const char *units = "1")
{
    api::Price price;
    price.tiers = std::move(tiers);
    price.tierBehavior = behavior;
    price.billingUnits = d(units);
    return price;
}

// The API's bands of 1,000 at 0.01, to 10,000 at 0.008, then 0.005.
QList<api::Tier> apiBands()
{
    return {tier("1000", "0.01"), tier("10000", "0.008"), tier(std::nullopt, "0.005")};
}

} // namespace

class TestUsageCharge final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pricesUsagePastTheGrant_data()
    {
        QTest::addColumn<api::Price>("price");
        QTest::addColumn<QString>("usage");
        QTest::addColumn<QString>("grant");
        QTest::addColumn<int>("digits");
        QTest::addColumn<QString>("billable"); // units billed, rounded up
        QTest::addColumn<QString>("amount");
        const auto graduated = api::TierBehavior::Graduated;
        const auto volume = api::TierBehavior::Volume;

        // 1,425 calls, 1,000 included: 425 × 0.002 = 0.85.
        QTest::newRow("amount") << perUnit("0.002") << "1425"
                                << "1000" << 2 << "425"
                                << "0.85";
        QTest::newRow("within the grant") << perUnit("0.002") << "999"
                                          << "1000" << 2 << "0"
                                          << "0";
        QTest::newRow("no usage") << perUnit("0.002") << "0"
                                  << "0" << 2 << "0"
                                  << "0";
        // 4,001 past the grant in units of 1,000: 5 units, 5 × 1.00.
        QTest::newRow("billing units round up") << perUnit("1", "1000") << "5001"
                                                << "1000" << 2 << "5000"
                                                << "5";
        QTest::newRow("exactly whole units") << perUnit("1", "1000") << "5000"
                                             << "1000" << 2 << "4000"
                                             << "4";
        // A fraction of a unit: 0.3 GB past in units of 0.25 GB is 2 units.
        QTest::newRow("fractional units") << perUnit("0.4", "0.25") << "10.3"
                                          << "10" << 2 << "0.5"
                                          << "0.8";
        // 1,000 × 0.01 + 9,000 × 0.008 + 5,000 × 0.005 = 10 + 72 + 25.
        QTest::newRow("graduated across three bands") << tiered(apiBands(), graduated) << "15000"
                                                      << "0" << 2 << "15000"
                                                      << "107";
        // 1,000 × 0.01 + 500 × 0.008 = 14.
        QTest::newRow("graduated into the second band") << tiered(apiBands(), graduated) << "2500"
                                                        << "1000" << 2 << "1500"
                                                        << "14";
        QTest::newRow("graduated at a bound") << tiered(apiBands(), graduated) << "1000"
                                              << "0" << 2 << "1000"
                                              << "10";
        // Volume: every unit at the band reached. 15,000 × 0.005 = 75.
        QTest::newRow("volume, last band") << tiered(apiBands(), volume) << "15000"
                                           << "0" << 2 << "15000"
                                           << "75";
        // 5,000 × 0.008 = 40.
        QTest::newRow("volume, middle band") << tiered(apiBands(), volume) << "5000"
                                             << "0" << 2 << "5000"
                                             << "40";
        // 1,000 reaches only the first band (its bound included): 10.
        QTest::newRow("volume at a bound") << tiered(apiBands(), volume) << "1000"
                                           << "0" << 2 << "1000"
                                           << "10";
        // Flat amounts once a band is reached: 5 + (50 × 0.1 + 2) = 12.
        const QList<api::Tier> flat{tier("100", "0", "5"), tier(std::nullopt, "0.1", "2")};
        QTest::newRow("graduated flat amounts") << tiered(flat, graduated) << "150"
                                                << "0" << 2 << "150"
                                                << "12";
        QTest::newRow("graduated flat, first band only") << tiered(flat, graduated) << "40"
                                                         << "0" << 2 << "40"
                                                         << "5";
        // Volume: 150 × 0.1 + 2 = 17.
        QTest::newRow("volume flat amount") << tiered(flat, volume) << "150"
                                            << "0" << 2 << "150"
                                            << "17";
        QTest::newRow("tiers, no usage") << tiered(flat, volume) << "0"
                                         << "0" << 2 << "0"
                                         << "0";
        // Units of 100: 1,050 is 11 units, 1,100; 10 × 1 + 1 × 0.5 = 10.5.
        QTest::newRow("graduated with billing units")
            << tiered({tier("1000", "1"), tier(std::nullopt, "0.5")}, graduated, "100") << "1050"
            << "0" << 2 << "1100"
            << "10.5";
        // Rounding once, on the line, half away from zero: 3 × 0.0015 = 0.0045.
        QTest::newRow("rounds down below half") << perUnit("0.0015") << "3"
                                                << "0" << 2 << "3"
                                                << "0";
        // 5 × 0.001 = 0.005: half, away from zero.
        QTest::newRow("rounds half away") << perUnit("0.001") << "5"
                                          << "0" << 2 << "5"
                                          << "0.01";
        // 7 × 0.333333333 = 2.333333331.
        QTest::newRow("many decimals") << perUnit("0.333333333") << "7"
                                       << "0" << 2 << "7"
                                       << "2.33";
        // A currency without minor units: 3 × 0.5 = 1.5 → 2.
        QTest::newRow("no minor unit") << perUnit("0.5") << "3"
                                       << "0" << 0 << "3"
                                       << "2";
        QTest::newRow("three minor digits") << perUnit("0.0015") << "3"
                                            << "0" << 3 << "3"
                                            << "0.005";
    }

    void pricesUsagePastTheGrant()
    {
        QFETCH(api::Price, price);
        QFETCH(QString, usage);
        QFETCH(QString, grant);
        QFETCH(int, digits);
        QFETCH(QString, billable);
        QFETCH(QString, amount);
        const auto charge =
            engine::UsageCharges::charge(price, d(qPrintable(usage)), d(qPrintable(grant)), digits);
        QVERIFY2(charge.ok(), charge.ok() ? "" : qPrintable(charge.error().message));
        QCOMPARE(charge.value().billableUnits, d(qPrintable(billable)));
        QCOMPARE(charge.value().amount, d(qPrintable(amount)));
        // Bands add up to the exact amount.
        if (!charge.value().bands.isEmpty()) {
            Decimal bands;
            for (const auto &band : charge.value().bands)
                bands = *bands.plus(band.amount);
            QCOMPARE(bands, charge.value().exact);
        }
    }

    void bandsSayWhatEachCame()
    {
        const auto charge = engine::UsageCharges::charge(
            tiered(apiBands(), api::TierBehavior::Graduated), d("15000"), d("0"), 2);
        QVERIFY(charge.ok());
        const auto &bands = charge.value().bands;
        QCOMPARE(bands.size(), 3);
        QCOMPARE(bands.at(0).units, d("1000"));
        QCOMPARE(bands.at(1).units, d("9000"));
        QCOMPARE(bands.at(1).amount, d("72"));
        QCOMPARE(bands.at(2).units, d("5000"));
        QCOMPARE(bands.at(2).rate, d("0.005"));
    }

    void roundsHalfAwayFromZero()
    {
        using engine::UsageCharges;
        QCOMPARE(UsageCharges::rounded(d("0.125"), 2), d("0.13"));
        QCOMPARE(UsageCharges::rounded(d("-0.125"), 2), d("-0.13"));
        QCOMPARE(UsageCharges::rounded(d("0.124999999"), 2), d("0.12"));
        QCOMPARE(UsageCharges::rounded(d("2.5"), 0), d("3"));
        QCOMPARE(UsageCharges::rounded(d("0.000000001"), 9), d("0.000000001"));
    }

    void refusesPricesItCannotApply_data()
    {
        QTest::addColumn<api::Price>("price");
        QTest::addColumn<QString>("says");
        api::Price zeroUnits = perUnit("1", "0");
        QTest::newRow("billing units 0") << zeroUnits << "billing_units must be above 0";
        QTest::newRow("no amount, no tiers") << api::Price{} << "neither an amount nor tiers";
        QTest::newRow("bounds fall")
            << tiered({tier("100", "1"), tier("50", "1"), tier(std::nullopt, "1")},
                      api::TierBehavior::Graduated)
            << "must rise: 50 follows 100";
        QTest::newRow("tiers end too low")
            << tiered({tier("100", "1")}, api::TierBehavior::Volume) << "the tiers end at 100";
    }

    void refusesPricesItCannotApply()
    {
        QFETCH(api::Price, price);
        QFETCH(QString, says);
        const auto charge = engine::UsageCharges::charge(price, d("500"), d("0"), 2);
        QVERIFY(!charge.ok());
        QCOMPARE(charge.error().code, u"invalid_request"_s);
        QVERIFY2(charge.error().message.contains(says), qPrintable(charge.error().message));
    }

    void anAmountPastTheLargestLineIsBilledAtIt()
    {
        // 100 × 10^19 passes what an amount holds, 3 × 10^12 only the
        // largest line: both billed at a trillion, and their words say so.
        for (const char *price : {"10000000000000000000", "1000000000000"}) {
            const auto charge = engine::UsageCharges::charge(perUnit(price), d("103"), d("100"), 2);
            QVERIFY(charge.ok());
            QVERIFY(charge.value().capped);
            QCOMPARE(charge.value().amount, d("1000000000000"));
            const api::ChargeLine line = engine::UsageCharges::line(
                {u"b"_s, u"calls"_s, std::nullopt, std::nullopt, d("103"), d("100")},
                charge.value());
            QVERIFY2(line.description.contains(u"largest line"_s), qPrintable(line.description));
        }
        const auto under =
            engine::UsageCharges::charge(perUnit("333333333333.33"), d("103"), d("100"), 2);
        QVERIFY(!under.value().capped);
        QCOMPARE(under.value().amount, d("999999999999.99"));
    }

    void purchasesWithinMaxPurchase_data()
    {
        QTest::addColumn<api::Price>("price");
        QTest::addColumn<Decimal>("bought");
        QTest::addColumn<Decimal>("billed");
        QTest::addColumn<Decimal>("amount");
        // 250 GB in units of 100 at 2.00: 3 units, 6.00.
        QTest::newRow("whole units, rounded up")
            << perUnit("2", "100") << d("250") << d("300") << d("6");
        api::Price held = perUnit("2", "100");
        held.maxPurchase = d("300");
        // 500 bought, at most 300: 300 billed, 6.00.
        QTest::newRow("held to max_purchase") << held << d("500") << d("300") << d("6");
        QTest::newRow("within max_purchase") << held << d("120") << d("200") << d("4");
        // 25.5 credits at 1.00 a credit: 26.00.
        QTest::newRow("credits") << perUnit("1") << d("25.5") << d("26") << d("26");
        // 15,000 bought in the API's graduated bands: 107.00.
        QTest::newRow("graduated") << tiered(apiBands(), api::TierBehavior::Graduated) << d("15000")
                                   << d("15000") << d("107");
        QTest::newRow("nothing bought") << perUnit("2") << d("0") << d("0") << d("0");
    }

    void purchasesWithinMaxPurchase()
    {
        QFETCH(api::Price, price);
        QFETCH(Decimal, bought);
        QFETCH(Decimal, billed);
        QFETCH(Decimal, amount);
        const auto charge = engine::UsageCharges::purchase(price, bought, 2);
        QVERIFY(charge.ok());
        QCOMPARE(charge.value().billableUnits, billed);
        QCOMPARE(charge.value().amount, amount);
        const api::ChargeLine line = engine::UsageCharges::purchaseLine(
            {u"b"_s, u"storage"_s, std::nullopt, std::nullopt, Decimal(), Decimal()}, false, bought,
            charge.value());
        QCOMPARE(line.kind, api::ChargeKind::Prepaid);
        QCOMPARE(line.quantity,
                 price.maxPurchase && *price.maxPurchase < bought ? *price.maxPurchase : bought);
        QCOMPARE(line.description.contains(u"max_purchase"_s),
                 price.maxPurchase && *price.maxPurchase < bought);
    }
};

QTEST_APPLESS_MAIN(TestUsageCharge)
#include "tst_usagecharge.moc"
