// BalanceTotalsModel: the filter's totals as groups and a summary, following
// the filter, dropping answers to an older one, errors kept for the bar.
#include "models/BalanceTotalsModel.h"
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
        for (const QString &part : {u" · 2 customer"_s, u" · granted 9,007,199,254,743,121.75 · "_s,
                                    u" · remaining 9,007,199,254,742,872.25 · used 249.50"_s})
            QVERIFY2(summary.contains(part), qPrintable(summary));

        api::ListBalancesRequest bob;
        bob.customerId = u"bob"_s;
        model.setFilter(bob);
        QVERIFY(test::waitIdle(model));
        QVERIFY2(model.summary().startsWith(u"2 balance"_s), qPrintable(model.summary()));

        model.setGroupBy(api::TotalsGroupBy::Plan);
        QCOMPARE(model.headerData(BalanceTotalsModel::Key, Qt::Horizontal).toString(), u"Plan"_s);
        QVERIFY(test::waitIdle(model));
        QCOMPARE(keys(model), (QStringList{u"(no plan)"_s, u"pro"_s}));
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
        QCOMPARE(BalanceTotalsModel::csv(totals, api::TotalsGroupBy::Plan),
                 u"group_by,key,balances,customers,granted,remaining,usage\r\n"
                 u"plan,,2,1,0.000000001,1,0\r\n"
                 u"plan,\"a,b\",1,1,12345678901.123456789,0,0\r\n"
                 u"total,,3,2,12345678901.12345679,1,0\r\n"_s);
    }
};

QTEST_GUILESS_MAIN(TestBalanceTotalsModel)
#include "tst_balancetotalsmodel.moc"
