// BalanceTotalsModel: the filter's totals as groups and a summary, following
// the filter, dropping answers to an older one, errors kept for the bar;
// amounts added up only within one feature.
#include "models/balances/BalanceTotalsModel.h"
#include "tests/models/SmallBackend.h"
#include "tests/support/StubBackend.h"

#include <QAbstractItemModelTester>
#include <QPromise>
#include <QSignalSpy>

using namespace md;
using namespace Qt::StringLiterals;
using models::BalanceTotalsModel;

namespace {

api::Decimal dec(const char *text)
{
    return *api::Decimal::parse(QByteArrayView(text));
}

} // namespace

namespace {

// Answers balances.totals only when told to; the total counts the letters
// of the customer filter asked for, so a test can tell the answers apart.
class HeldBackend final : public test::StubBackend
{
public:
    QList<api::BalanceTotalsRequest> asked;
    QList<std::shared_ptr<QPromise<api::Result<api::BalanceTotals>>>> waiting;

    backend::Reply<api::BalanceTotals>
    balanceTotals(const api::BalanceTotalsRequest &request) override
    {
        asked.append(request);
        auto promise = std::make_shared<QPromise<api::Result<api::BalanceTotals>>>();
        promise->start();
        waiting.append(promise);
        return promise->future();
    }

    void answerAll()
    {
        const auto pending = std::exchange(waiting, {});
        for (qsizetype i = 0; i < pending.size(); ++i) {
            api::BalanceTotals totals;
            totals.total.balances = asked.at(asked.size() - pending.size() + i)
                                        .filter.customerId.value_or(QString())
                                        .size() -
                                    1;
            pending.at(i)->addResult(api::Result<api::BalanceTotals>(totals));
            pending.at(i)->finish();
        }
    }
};

} // namespace

class TestBalanceTotalsModel final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<embedded::EngineBackend> m_backend;

    QStringList keys(const BalanceTotalsModel &model)
    {
        QStringList list;
        for (int row = 0; row < model.rowCount(); ++row)
            list.append(model.index(row, BalanceTotalsModel::Key).data().toString());
        return list;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        m_backend = test::smallBackend(m_dir.filePath(u"totals.db"_s));
        QVERIFY(m_backend);
    }

    void groupsAndSummaryFollowTheFilter()
    {
        BalanceTotalsModel model(m_backend.get());
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setFilter({});
        QVERIFY(model.isLoading());
        QVERIFY(test::waitIdle(model));
        QCOMPARE(keys(model), (QStringList{u"ai_credits"_s, u"api_calls"_s, u"messages"_s}));
        // 25.75 + 9007199254740991, grouped and exact.
        QCOMPARE(model.index(0, BalanceTotalsModel::Remaining).data().toString(),
                 u"9,007,199,254,741,016.75"_s);
        // At the backend's clock (10 s) six rows are active. (Plurals come
        // from the translation, which this test does not load.)
        const QString summary = model.summary();
        QVERIFY2(summary.startsWith(u"6 balance"_s), qPrintable(summary));
        QVERIFY2(summary.contains(u" · 2 customer"_s), qPrintable(summary));
        // Issue 33: API calls, credits and messages were added into one
        // "granted 9,007,199,254,743,121.75". Each feature has its amounts
        // on its own line; the bar counts them and asks for one.
        QVERIFY2(summary.endsWith(u" · 3 feature(s): choose one to add up its amounts"_s),
                 qPrintable(summary));
        QVERIFY(!summary.contains(u"granted"_s));
        QVERIFY(!BalanceTotalsModel::unitNote(model.request(), *model.totals()).isEmpty());

        api::ListBalancesRequest calls;
        calls.featureId = u"api_calls"_s;
        model.setFilter(calls);
        QVERIFY(test::waitIdle(model));
        QVERIFY2(
            model.summary().endsWith(u" · granted 2,000.00 · remaining 1,750.50 · used 249.50"_s),
            qPrintable(model.summary()));
        QVERIFY(BalanceTotalsModel::unitNote(model.request(), *model.totals()).isEmpty());

        api::ListBalancesRequest bob;
        bob.customerId = u"bob"_s;
        model.setFilter(bob);
        QVERIFY(test::waitIdle(model));
        QVERIFY2(model.summary().startsWith(u"2 balance"_s), qPrintable(model.summary()));

        model.setGroupBy(api::TotalsGroupBy::Plan);
        QCOMPARE(model.headerData(BalanceTotalsModel::Key, Qt::Horizontal).toString(), u"Plan"_s);
        QVERIFY(test::waitIdle(model));
        QCOMPARE(keys(model), (QStringList{u"(no plan)"_s, u"pro"_s}));
        // Bob's top-up credits and his plan's API calls: a plan's amounts
        // would add features together, so they are left out, and say why.
        QCOMPARE(model.index(0, BalanceTotalsModel::Granted).data().toString(), u"—"_s);
        QVERIFY(!model.index(0, BalanceTotalsModel::Granted)
                     .data(Qt::ToolTipRole)
                     .toString()
                     .isEmpty());
        QCOMPARE(model.index(0, BalanceTotalsModel::Balances).data().toString(), u"1"_s);
        QVERIFY2(model.summary().endsWith(u" · choose a feature to add up amounts"_s),
                 qPrintable(model.summary()));

        // By month of next reset: Ann's monthly calls reset on 2100-01-01.
        model.setFilter({});
        model.setGroupBy(api::TotalsGroupBy::ResetMonth);
        QCOMPARE(model.headerData(BalanceTotalsModel::Key, Qt::Horizontal).toString(),
                 u"Next reset"_s);
        QVERIFY(test::waitIdle(model));
        QCOMPARE(keys(model), (QStringList{u"(never resets)"_s, u"January 2100"_s}));
        QCOMPARE(model.index(1, BalanceTotalsModel::Balances).data().toString(), u"1"_s);
        const QString csv = BalanceTotalsModel::csv(model.request(), *model.totals());
        QVERIFY2(csv.contains(u"\nreset_month,2100-01,1,"_s), qPrintable(csv));
    }

    void anAnswerToAnOlderFilterIsDropped()
    {
        BalanceTotalsModel model(m_backend.get());
        api::ListBalancesRequest ann;
        ann.customerId = u"ann"_s;
        model.setFilter({});
        model.setFilter(ann); // before the first answer came
        QVERIFY(test::waitIdle(model));
        QCOMPARE(model.totals()->total.customers, 1);
        QCOMPARE(model.totals()->total.balances, 4);
    }

    // Typing in a filter must not queue a scan per keystroke: the running
    // one is told to stop, later filters wait for it to end, and only the
    // newest is asked for.
    void filtersChangedDuringAScanAreAskedForOnce()
    {
        HeldBackend held;
        BalanceTotalsModel model(&held);
        for (const char *customer : {"a", "ab", "abc"}) {
            api::ListBalancesRequest filter;
            filter.customerId = QString::fromLatin1(customer);
            model.setFilter(filter);
        }
        QCOMPARE(held.asked.size(), 1);
        QVERIFY(held.waiting.first()->future().isCanceled());
        held.answerAll();
        QTRY_COMPARE(held.asked.size(), 2);
        QCOMPARE(held.asked.last().filter.customerId, std::optional(u"abc"_s));
        QVERIFY(model.isLoading()); // the answer for "a" was not shown as current
        QVERIFY(!model.totals());
        held.answerAll();
        QVERIFY(test::waitIdle(model));
        QCOMPARE(model.totals()->total.balances, 2); // HeldBackend's answer for "abc"
        QCOMPARE(held.asked.size(), 2);
    }

    void theSameFilterIsNotAskedTwice()
    {
        BalanceTotalsModel model(m_backend.get());
        model.setFilter({});
        QVERIFY(test::waitIdle(model));
        QSignalSpy loading(&model, &BalanceTotalsModel::loadingChanged);
        api::ListBalancesRequest page;
        page.limit = 7; // a page size is no part of the totals' filter
        model.setFilter(page);
        QVERIFY(loading.isEmpty());
        model.setFilter(page, true);
        // Asked again when forced. (A scan this small can end before the
        // call returns, its answer then delivered at once: true, then false.)
        QVERIFY(!loading.isEmpty());
        QCOMPARE(loading.first().first().toBool(), true);
        QVERIFY(test::waitIdle(model));
    }

    void anErrorIsKeptForTheBar()
    {
        test::StubBackend failing; // answers 501
        BalanceTotalsModel model(&failing);
        model.setFilter({});
        QVERIFY(test::waitIdle(model));
        QVERIFY(model.lastError());
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(model.summary().isEmpty());
    }

    void csvHoldsEveryDigit()
    {
        api::BalanceTotals totals;
        totals.groups = {{std::nullopt, {2, 1, dec("0.000000001"), dec("1"), {}}},
                         {u"a,b"_s, {1, 1, dec("12345678901.123456789"), {}, {}}}};
        totals.total = {3, 2, dec("12345678901.12345679"), dec("1"), {}};
        api::BalanceTotalsRequest request;
        request.filter.featureId = u"credits"_s; // one feature: every amount adds up
        request.groupBy = api::TotalsGroupBy::Plan;
        QCOMPARE(BalanceTotalsModel::csv(request, totals),
                 u"group_by,key,balances,customers,granted,remaining,usage\r\n"
                 u"plan,,2,1,0.000000001,1,0\r\n"
                 u"plan,\"a,b\",1,1,12345678901.123456789,0,0\r\n"
                 u"total,,3,2,12345678901.12345679,1,0\r\n"_s);
    }

    // Issue 33: amounts of different features are never added together, in
    // the export either: by feature, each feature's line has its amounts
    // and the total counts only; by plan, no line has amounts. A sheet says
    // "—", "(no plan)" and "Total" where CSV, for programs, leaves them empty.
    void exportsAddUpOneFeatureOnly()
    {
        api::BalanceTotals totals;
        totals.groups = {{u"api_calls"_s, {2, 2, dec("2000"), dec("1750.5"), dec("249.5")}},
                         {u"gigabytes"_s, {1, 1, dec("5"), dec("4"), dec("1")}}};
        totals.total = {3, 2, dec("2005"), dec("1754.5"), dec("250.5")};
        api::BalanceTotalsRequest byFeature;
        QCOMPARE(BalanceTotalsModel::csv(byFeature, totals),
                 u"group_by,key,balances,customers,granted,remaining,usage\r\n"
                 u"feature,api_calls,2,2,2000,1750.5,249.5\r\n"
                 u"feature,gigabytes,1,1,5,4,1\r\n"
                 u"total,,3,2,,,\r\n"_s);

        totals.groups = {{std::nullopt, {1, 1, dec("5"), dec("4"), dec("1")}},
                         {u"pro"_s, {2, 2, dec("2000"), dec("1750.5"), dec("249.5")}}};
        api::BalanceTotalsRequest byPlan;
        byPlan.groupBy = api::TotalsGroupBy::Plan;
        QCOMPARE(BalanceTotalsModel::csv(byPlan, totals),
                 u"group_by,key,balances,customers,granted,remaining,usage\r\n"
                 u"plan,,1,1,,,\r\n"
                 u"plan,pro,2,2,,,\r\n"
                 u"total,,3,2,,,\r\n"_s);
        const QList<models::ExportRow> sheet = BalanceTotalsModel::rows(byPlan, totals);
        QCOMPARE(sheet.size(), 3);
        const auto words = [](const models::ExportCell &cell) {
            return std::get<models::ExportWord>(cell).words;
        };
        QCOMPARE(words(sheet.at(0).at(BalanceTotalsModel::Key)), u"(no plan)"_s);
        QCOMPARE(words(sheet.at(0).at(BalanceTotalsModel::Granted)), u"—"_s);
        QCOMPARE(words(sheet.at(2).at(BalanceTotalsModel::Key)), u"Total"_s);
        QCOMPARE(BalanceTotalsModel::columns(api::TotalsGroupBy::Plan).first().title, u"Plan"_s);
    }
};

QTEST_GUILESS_MAIN(TestBalanceTotalsModel)
#include "tst_balancetotalsmodel.moc"
