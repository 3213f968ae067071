// The Balances filter as view state: requests, saved views and their file.
#include "models/balances/SavedViews.h"

#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using models::BalanceFilter;

class TestBalanceFilter final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void requestCarriesEveryFilter()
    {
        BalanceFilter filter;
        filter.customerId = u"ann"_s;
        filter.entityId = u"seat-1"_s;
        filter.featureId = u"messages"_s;
        filter.planMode = BalanceFilter::PlanMode::NoPlan;
        filter.expired = true;
        const auto request = filter.request();
        QVERIFY(request);
        QCOMPARE(request.value().customerId, std::optional(u"ann"_s));
        QCOMPARE(request.value().entityId, std::optional(u"seat-1"_s));
        QCOMPARE(request.value().featureId, std::optional(u"messages"_s));
        QVERIFY(request.value().planId.has_value() &&
                !request.value().planId->has_value()); // JSON null
        QCOMPARE(
            request.value().statuses,
            (QList<api::BalanceStatus>{api::BalanceStatus::Active, api::BalanceStatus::Expired}));
        QCOMPARE(request.value().limit, 200);
    }

    // "Resets before 1 December" asks for the rows resetting before that
    // day starts here; a saved view keeps the day, not the instant.
    void resetsBeforeIsTheStartOfTheDay()
    {
        BalanceFilter filter;
        QVERIFY(!filter.request().value().resetsBefore);
        filter.resetsBefore = QDate(2026, 12, 1);
        QCOMPARE(filter.request().value().resetsBefore,
                 std::optional(QDate(2026, 12, 1).startOfDay().toMSecsSinceEpoch()));
        QCOMPARE(filter.toJson().value(u"resets_before"_s).toString(), u"2026-12-01"_s);
        QCOMPARE(BalanceFilter::fromJson(filter.toJson()), std::optional(filter));
        QCOMPARE(BalanceFilter::fromSerialized(filter.serialized()), std::optional(filter));
        QJsonObject bad = filter.toJson();
        bad.insert(u"resets_before"_s, u"first of December"_s);
        QCOMPARE(BalanceFilter::fromJson(bad), std::nullopt);
    }

    void entityNeedsACustomer()
    {
        BalanceFilter filter;
        filter.entityId = u"seat-1"_s;
        QVERIFY(!filter.request().value().entityId);
    }

    // "Remaining below" as typed: an amount in the locale, exact, or a whole
    // percentage; anything else says what to type and filters nothing.
    void remainingBelowReadsWhatIsTyped()
    {
        BalanceFilter filter;
        const QLocale german(QLocale::German, QLocale::Germany);
        QCOMPARE(filter.setRemainingBelow(u"12,5"_s, false, german), QString());
        QCOMPARE(filter.request().value().remainingBelow, api::Decimal::parse("12.5"));
        QVERIFY(!filter.request().value().remainingBelowPercent);
        QCOMPARE(filter.setRemainingBelow(u"9007199254740991.000000001"_s, false, QLocale::c()),
                 QString());
        QCOMPARE(filter.remainingBelow, api::Decimal::parse("9007199254740991.000000001"));
        QCOMPARE(filter.setRemainingBelow(u" 10 "_s, true, german), QString());
        QCOMPARE(filter.request().value().remainingBelowPercent, std::optional<qint64>(10));
        QVERIFY(!filter.request().value().remainingBelow);
        for (const QString &bad : {u"0"_s, u"101"_s, u"7,5"_s, u"ten"_s})
            QVERIFY2(filter.setRemainingBelow(bad, true, german).contains(u"1 to 100"_s),
                     qPrintable(bad));
        QVERIFY(!filter.remainingBelowPercent);
        QVERIFY(filter.setRemainingBelow(u"1 000"_s, false, german).contains(u"thousands"_s));
        QVERIFY(!filter.remainingBelow);
    }

    void noStatusIsExplained()
    {
        BalanceFilter filter;
        filter.active = false;
        const auto request = filter.request();
        QVERIFY(!request);
        QVERIFY(request.error().message.contains(u"Active"_s));
    }

    void viewsRoundTripThroughTheirFile()
    {
        models::SavedViews views;
        BalanceFilter monthEnd;
        monthEnd.planMode = BalanceFilter::PlanMode::Plan;
        monthEnd.planId = u"pro"_s;
        views.save(u"Month end"_s, monthEnd);
        BalanceFilter expired;
        expired.active = false;
        expired.expired = true;
        views.save(u"Expired"_s, expired);
        views.save(u"Month end"_s, monthEnd); // replaces, does not duplicate
        BalanceFilter runningOut;             // kept exactly, as text
        runningOut.remainingBelow = api::Decimal::parse("9007199254740991.000000001");
        runningOut.remainingBelowPercent = 10;
        runningOut.orderBy = api::BalanceOrder::Remaining; // the order travels too
        runningOut.descending = true;
        views.save(u"Running out"_s, runningOut);
        QCOMPARE(views.views().size(), 3);

        models::SavedViews other;
        QVERIFY(other.mergeJson(views.toJson()));
        QCOMPARE(other.views(), views.views());
        QCOMPARE(other.find(u"Running out"_s), std::optional(runningOut));
        QVERIFY(other.remove(u"Expired"_s));
        QCOMPARE(other.find(u"Month end"_s), std::optional(monthEnd));
    }

    void viewsTravelAsFiles()
    {
        QTemporaryDir dir;
        models::SavedViews views;
        BalanceFilter expired;
        expired.expired = true;
        views.save(u"Expired"_s, expired);
        const QString path = dir.filePath(u"views.json"_s);
        QVERIFY(views.writeFile(path));
        models::SavedViews other;
        QVERIFY(other.mergeFile(path));
        QCOMPARE(other.views(), views.views());

        const auto missing = other.mergeFile(dir.filePath(u"none.json"_s));
        QVERIFY(!missing);
        QVERIFY(missing.error().message.contains(u"none.json"_s));
        const auto unwritable = views.writeFile(dir.filePath(u"no-such-folder/views.json"_s));
        QVERIFY(!unwritable);
        QVERIFY(unwritable.error().message.contains(u"no-such-folder"_s));
    }

    void badFilesChangeNothing_data()
    {
        QTest::addColumn<QByteArray>("file");
        QTest::newRow("not json") << QByteArray("{");
        QTest::newRow("other format") << QByteArray(R"({"format":"x","views":[]})");
        QTest::newRow("view without name")
            << QByteArray(R"({"format":"meterdesk-views","views":[{"name":" ","filter":{}}]})");
        QTest::newRow("bad plan word") << QByteArray(
            R"({"format":"meterdesk-views","views":[{"name":"a","filter":{"plan":"some"}}]})");
        QTest::newRow("percent past 100") << QByteArray(
            R"({"format":"meterdesk-views","views":[{"name":"a","filter":{"remaining_below_percent":120}}]})");
        QTest::newRow("unknown order") << QByteArray(
            R"({"format":"meterdesk-views","views":[{"name":"a","filter":{"order_by":"name"}}]})");
        QTest::newRow("amount as a number") << QByteArray(
            R"({"format":"meterdesk-views","views":[{"name":"a","filter":{"remaining_below":12.5}}]})");
        QTest::newRow("customer not text") << QByteArray(
            R"({"format":"meterdesk-views","views":[{"name":"a","filter":{}},{"name":"b","filter":{"customer_id":3}}]})");
    }
    void badFilesChangeNothing()
    {
        QFETCH(QByteArray, file);
        models::SavedViews views;
        views.save(u"Kept"_s, {});
        const auto merged = views.mergeJson(file);
        QVERIFY(!merged);
        QVERIFY(!merged.error().message.isEmpty());
        QCOMPARE(views.views().size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestBalanceFilter)
#include "tst_balancefilter.moc"
