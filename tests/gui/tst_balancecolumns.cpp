// The Balances table's columns fit what they show (issue 53): once the first
// page is in, every amount, the status and the dates are whole, not elided
// ("82,7…"), on whichever backend. Runs twice, on EngineBackend and on
// RemoteBackend to a local server (tests/gui/CMakeLists.txt).
#include "models/balances/BalanceListModel.h"
#include "tests/gui/GuiBackend.h"
#include "tests/support/TestDatabase.h"
#include "views/balances/BalancesPage.h"

#include <QHeaderView>
#include <QTableView>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using models::BalanceListModel;

namespace {
const QString Key = u"sk_test_gui00000000000000000000000000000"_s;
}

class TestBalanceColumns final : public QObject
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
        test::loadDemo(m_database.location(), Key, 20, &problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        m_backend = test::openGuiBackend(m_database.location(), Key, m_server, &problem);
        QVERIFY2(m_backend, qPrintable(problem));
    }

    // The width the window gives the table is shared out by content: a
    // column is as wide as its widest shown cell and its header at least.
    void everyShownValueFits()
    {
        views::BalancesPage page(m_backend.get());
        page.resize(1280, 700);
        page.show();
        page.refresh();
        BalanceListModel *model = page.model();
        QTRY_VERIFY_WITH_TIMEOUT(model->rowCount() > 0 && model->isLoaded(0), 10000);
        QTRY_VERIFY(!model->isLoading());
        // sizeHintForColumn is public where QAbstractItemView declares it.
        const QAbstractItemView *table = page.table();
        for (const int column : {BalanceListModel::IncludedColumn, BalanceListModel::PrepaidColumn,
                                 BalanceListModel::RemainingColumn, BalanceListModel::UsageColumn,
                                 BalanceListModel::StatusColumn, BalanceListModel::ResetColumn,
                                 BalanceListModel::CreatedColumn}) {
            const QString name = model->headerData(column, Qt::Horizontal).toString();
            const int width = page.table()->columnWidth(column);
            QVERIFY2(width >= table->sizeHintForColumn(column),
                     qPrintable(u"%1: %2 px for cells wanting %3"_s.arg(name).arg(width).arg(
                         table->sizeHintForColumn(column))));
            QVERIFY2(width >= page.table()->horizontalHeader()->sectionSizeHint(column),
                     qPrintable(u"%1: %2 px for its header"_s.arg(name).arg(width)));
        }
    }

    void cleanupTestCase()
    {
        m_backend.reset();
        if (qEnvironmentVariable("MD_GUI_BACKEND") == "remote"_L1)
            QCOMPARE(m_server.stop(), 0);
    }
};

QTEST_MAIN(TestBalanceColumns)
#include "tst_balancecolumns.moc"
