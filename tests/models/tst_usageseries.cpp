// The Usage chart's bars from usage_events.totals: per-day figures summed
// into periods exactly, per group, the rest as "Other", events of no model
// named, and the periods the range covers only in part.
#include "models/usage/UsageSeries.h"

#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using models::UsageSeries;

namespace {

constexpr qint64 Day = UsageSeries::Day;

api::Decimal dec(const char *text)
{
    return *api::Decimal::parse(QByteArrayView(text));
}

// Epoch day `n` (1 January 1970 is 0).
QDate day(qint64 n)
{
    return QDate(1970, 1, 1).addDays(n);
}

api::UsageDay costOn(qint64 n, const char *cost, qint64 tokens = 0)
{
    return {day(n), {1, dec(cost), {}, tokens}};
}

} // namespace

class TestUsageSeries final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sumsDaysIntoPeriodsExactly()
    {
        // Seven days of 0.1 make a week of exactly 0.7 (no double on the way).
        api::UsageGroup group{u"a/x"_s, {}, {}};
        for (qint64 n = 0; n < 7; ++n)
            group.days.append(costOn(n, "0.1", 10));
        group.days.append(costOn(7, "0.25", 3));
        const api::UsageTotals totals{{group}, std::nullopt, 0, {}, {}};
        const auto weeks = UsageSeries::build(totals, u"none"_s, u"other"_s, 7 * Day);
        QCOMPARE(weeks.keys(), QStringList{u"a/x"_s});
        QCOMPARE(weeks.value(u"a/x"_s).value(0).cost, dec("0.7"));
        QCOMPARE(weeks.value(u"a/x"_s).value(0).tokens, 70);
        QCOMPARE(weeks.value(u"a/x"_s).value(7 * Day).cost, dec("0.25"));
        const auto days = UsageSeries::build(totals, u"none"_s, u"other"_s);
        QCOMPARE(days.value(u"a/x"_s).size(), 8);
        QCOMPARE(days.value(u"a/x"_s).value(3 * Day).cost, dec("0.1"));
    }

    void aFeaturesUnitsAreNeverDollars()
    {
        api::UsageGroup group{std::nullopt, {}, {{day(2), {2, dec("0.5"), dec("7"), 11}}}};
        const auto groups =
            UsageSeries::build({{group}, std::nullopt, 0, {}, {}}, u"(none)"_s, u"o"_s);
        QCOMPARE(groups.keys(), QStringList{u"(none)"_s}); // events of no model, named
        QCOMPARE(groups.value(u"(none)"_s).value(2 * Day).cost, dec("0.5"));
        QCOMPARE(groups.value(u"(none)"_s).value(2 * Day).units, dec("7"));
        QCOMPARE(groups.value(u"(none)"_s).value(2 * Day).tokens, 11);
    }

    void theRestIsOther()
    {
        api::UsageTotals totals;
        totals.groups = {{u"a"_s, {}, {costOn(0, "5")}}, {u"b"_s, {}, {costOn(0, "3")}}};
        totals.other = api::UsageGroup{std::nullopt, {}, {costOn(0, "1"), costOn(1, "2")}};
        totals.otherGroups = 2;
        const auto groups = UsageSeries::build(totals, u"none"_s, u"other"_s);
        QCOMPARE(groups.keys(), (QStringList{u"a"_s, u"b"_s, u"other"_s}));
        QCOMPARE(groups.value(u"other"_s).value(0).cost, dec("1"));
        QCOMPARE(groups.value(u"other"_s).value(Day).cost, dec("2"));
    }

    void periodKeepsTheChartUnderSixtyBars()
    {
        const auto spanning = [](qint64 days) {
            return api::UsageTotals{
                {{u"a"_s, {}, {costOn(100, "1"), costOn(100 + days, "1")}}}, {}, 0, {}, {}};
        };
        QCOMPARE(UsageSeries::periodFor(spanning(30)), Day);
        QCOMPARE(UsageSeries::periodFor(spanning(200)), 7 * Day);
        QCOMPARE(UsageSeries::periodFor(spanning(800)), 30 * Day);
        QCOMPARE(UsageSeries::periodFor({}), Day);
    }

    void partialDaysMarkTheirPeriods()
    {
        api::UsageTotals totals;
        totals.partialDays = {day(3), day(15)};
        QCOMPARE(UsageSeries::partialPeriods(totals), (QSet<qint64>{3 * Day, 15 * Day}));
        // In weeks, the weeks that hold them.
        QCOMPARE(UsageSeries::partialPeriods(totals, 7 * Day), (QSet<qint64>{0, 14 * Day}));
    }
};

QTEST_GUILESS_MAIN(TestUsageSeries)
#include "tst_usageseries.moc"
