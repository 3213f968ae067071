// Issue 54's Revenue page, as a finance user drives it (offscreen), on
// EngineBackend or on RemoteBackend to a local server (MD_GUI_BACKEND): the
// demo starts three months back, so the last twelve months show the
// statements closed since and the open periods so far, each month what the
// test adds up itself from statements.list and charges.preview, the current
// month marked as so far; a month by customer lists each one once; the
// table goes to a workbook.
#include "models/revenue/RevenueHistory.h"
#include "models/revenue/RevenueTableModel.h"
#include "services/api/BillingPeriod.h"
#include "tests/gui/GuiBackend.h"
#include "tests/support/Await.h"
#include "tests/support/TestDatabase.h"
#include "views/revenue/RevenuePage.h"

#include <QAbstractItemModelTester>
#include <QChart>
#include <QComboBox>
#include <QFile>
#include <QSignalSpy>
#include <QStackedBarSeries>
#include <QTemporaryDir>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using test::await;

namespace {

const QString Key = u"sk_test_revenue0000000000000000000000000"_s;

} // namespace

class TestRevenuePage final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;
    test::ServerProcess m_server;
    std::unique_ptr<backend::BillingBackend> m_backend;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_database.error().isEmpty(), qPrintable(m_database.error()));
        QString problem;
        QVERIFY2(!test::loadDemo(m_database.location(), Key, 30, &problem).isEmpty(),
                 qPrintable(problem));
        m_backend = test::openGuiBackend(m_database.location(), Key, m_server, &problem);
        QVERIFY2(m_backend, qPrintable(problem));
        // Every customer's periods that ended are closed by reading them.
        auto customers = await(m_backend->listCustomers({}));
        QVERIFY(customers.ok());
        for (const api::CustomerSummary &customer : customers.value().list)
            QVERIFY(await(m_backend->chargesPreview({customer.id})).ok());
    }

    void monthsAddUpTheStatements()
    {
        // The statements, added up here by the month their period starts in.
        QMap<qint64, api::Decimal> byMonth;
        api::PageRequest request;
        request.limit = 200;
        for (;;) {
            auto page = await(m_backend->listStatements(request));
            QVERIFY(page.ok());
            for (const api::Statement &s : page.value().list) {
                const qint64 month =
                    api::BillingPeriod::containing(api::ResetInterval::Month, 0, s.periodStart)
                        .first;
                byMonth[month] = byMonth[month].runningSum(s.total);
            }
            if (!page.value().hasMore)
                break;
            request.startCursor = *page.value().nextCursor;
        }
        QVERIFY(!byMonth.isEmpty());
        // And the open periods so far, in the month each began.
        auto customers = await(m_backend->listCustomers({}));
        QVERIFY(customers.ok());
        for (const api::CustomerSummary &customer : customers.value().list) {
            auto preview = await(m_backend->chargesPreview({customer.id}));
            QVERIFY(preview.ok());
            const qint64 month = api::BillingPeriod::containing(api::ResetInterval::Month, 0,
                                                                preview.value().periodStart)
                                     .first;
            byMonth[month] = byMonth[month].runningSum(preview.value().total);
        }

        views::RevenuePage page(m_backend.get());
        QAbstractItemModelTester tester(page.table(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy loaded(page.history(), &models::RevenueHistory::loaded);
        QSignalSpy table(page.table(), &models::RevenueTableModel::loaded);
        page.refresh();
        QVERIFY(loaded.wait(20000));
        const auto &months = page.history()->months();
        QCOMPARE(months.size(), models::RevenueHistory::Months);
        QVERIFY(months.last().open);
        for (const auto &month : months)
            QCOMPARE(month.total, byMonth.value(month.start));
        QVERIFY(!months.last().total.isZero()); // this month's base fees, so far
        // The chart stacks every product; the open month's label is marked.
        auto *series = qobject_cast<QStackedBarSeries *>(page.chart()->series().value(0));
        QVERIFY(series);
        QCOMPARE(series->count(), page.history()->products().size());
        // Newest month first in the choice, its table by product.
        QCOMPARE(page.monthChoice()->count(), models::RevenueHistory::Months);
        QVERIFY(page.monthChoice()->currentText().contains(u"so far"_s));
        QVERIFY(table.count() > 0 || table.wait(20000));
        api::Decimal sum;
        for (const api::RevenueGroup &group : page.table()->summary().groups) {
            sum = sum.runningSum(group.total);
            // Each kind its column, adding up to the row's total.
            QCOMPARE(group.fixed.runningSum(group.usage)
                         .runningSum(group.prepaid)
                         .runningSum(group.credits),
                     group.total);
        }
        QCOMPARE(sum, page.table()->summary().total);
        QCOMPARE(page.table()
                     ->headerData(models::RevenueTableModel::CreditsColumn, Qt::Horizontal)
                     .toString(),
                 u"Credits"_s);
        QCOMPARE(page.table()->summary().total, months.last().total);

        // Last month by customer: one row each, the same total.
        table.clear();
        page.monthChoice()->setCurrentIndex(1);
        page.groupChoice()->setCurrentIndex(
            page.groupChoice()->findData(int(api::RevenueGroupBy::Customer)));
        QTRY_VERIFY_WITH_TIMEOUT(page.table()->groupBy() == api::RevenueGroupBy::Customer &&
                                     page.table()->summary().total ==
                                         months.at(months.size() - 2).total,
                                 20000);
        QStringList keys;
        for (const api::RevenueGroup &group : page.table()->summary().groups)
            keys.append(group.key);
        QCOMPARE(QSet<QString>(keys.cbegin(), keys.cend()).size(), keys.size());

        QTemporaryDir dir;
        QVERIFY(page.exportTo(dir.filePath(u"revenue.xlsx"_s)));
        QFile workbook(dir.filePath(u"revenue.xlsx"_s));
        QVERIFY(workbook.open(QIODevice::ReadOnly));
        QVERIFY(workbook.read(2) == "PK");
    }
};

QTEST_MAIN(TestRevenuePage)
#include "tst_revenuepage.moc"
