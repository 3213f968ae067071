// The Usage chart's sums: per day (UTC) and per group, exact decimals, the
// largest groups kept and the rest folded into one.
#include "models/usage/UsageSeries.h"

#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using models::UsageSeries;

namespace {

constexpr qint64 Day = 24 * 60 * 60 * 1000;

api::UsageEvent usageEvent(const QString &customer, const QString &model, const char *value,
                           qint64 at, qint64 input)
{
    api::UsageEvent e;
    e.customerId = customer;
    e.featureId = u"ai"_s;
    e.modelId = model;
    e.value = *api::Decimal::parse(QString::fromLatin1(value));
    e.timestamp = at;
    e.tokens = {{u"input_tokens"_s, input}, {u"output_tokens"_s, 1}};
    return e;
}

} // namespace

class TestUsageSeries final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sumsPerDayExactly()
    {
        // Ten events of 0.1 on one day sum to exactly 1 (no double on the way).
        QList<api::UsageEvent> events;
        for (int i = 0; i < 10; ++i)
            events.append(usageEvent(u"ann"_s, u"a/x"_s, "0.1", 3 * Day + i * 1000, 10));
        events.append(usageEvent(u"ann"_s, u"a/x"_s, "0.25", 4 * Day + 5, 100));
        const auto groups = UsageSeries::build(events, UsageSeries::GroupBy::Model, 6, u"other"_s);
        QCOMPARE(groups.keys(), QStringList{u"a/x"_s});
        QCOMPARE(groups.value(u"a/x"_s).value(3 * Day).cost, api::Decimal::fromInteger(1));
        QCOMPARE(groups.value(u"a/x"_s).value(3 * Day).tokens, 110);
        QCOMPARE(groups.value(u"a/x"_s).value(4 * Day).tokens, 101);
    }

    void aFeaturesUnitsAreNeverDollars()
    {
        api::UsageEvent units = usageEvent(u"ann"_s, {}, "7", 0, 0);
        units.modelId.reset(); // balances.track: a feature's units, no model
        units.featureId = u"messages"_s;
        units.tokens.clear();
        const QList<api::UsageEvent> events{usageEvent(u"ann"_s, u"a/x"_s, "0.5", 0, 10), units};
        const auto groups = UsageSeries::build(events, UsageSeries::GroupBy::Customer, 6, u"o"_s);
        QCOMPARE(groups.value(u"ann"_s).value(0).cost, *api::Decimal::parse(QByteArrayView("0.5")));
        QCOMPARE(groups.value(u"ann"_s).value(0).units, api::Decimal::fromInteger(7));
        QCOMPARE(groups.value(u"ann"_s).value(0).tokens, 11);
    }

    void keepsTheLargestGroups()
    {
        QList<api::UsageEvent> events{
            usageEvent(u"a"_s, u"m"_s, "5", 0, 1), usageEvent(u"b"_s, u"m"_s, "3", 0, 1),
            usageEvent(u"c"_s, u"m"_s, "1", 0, 1), usageEvent(u"d"_s, u"m"_s, "2", Day, 1)};
        const auto groups =
            UsageSeries::build(events, UsageSeries::GroupBy::Customer, 2, u"other"_s);
        QCOMPARE(groups.keys(), (QStringList{u"a"_s, u"b"_s, u"other"_s}));
        QCOMPARE(groups.value(u"other"_s).value(0).cost, api::Decimal::fromInteger(1));
        QCOMPARE(groups.value(u"other"_s).value(Day).cost, api::Decimal::fromInteger(2));
    }
};

QTEST_GUILESS_MAIN(TestUsageSeries)
#include "tst_usageseries.moc"
