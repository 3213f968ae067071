// The balance the detail, the ledger and Adjust act on is the one row the
// user sees selected, walked with the keyboard and the mouse as a finance
// user walks it: Ctrl+End, Ctrl+Home, arrows, Ctrl with an arrow (which moves
// the focus without the highlight), Shift and Ctrl clicks, and a filter
// changed under a selection. Runs on EngineBackend and over HTTP.
#include "models/balances/BalanceListModel.h"
#include "models/balances/LedgerModel.h"
#include "tests/gui/GuiBackend.h"
#include "tests/support/TestDatabase.h"
#include "views/balances/AdjustBalanceDialog.h"
#include "views/balances/BalanceDetailPane.h"
#include "views/balances/BalanceLedgerTab.h"
#include "views/balances/BalancesPage.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTextBrowser>

using namespace md;
using namespace Qt::StringLiterals;

namespace {

const QString Key = u"sk_test_selection00000000000000000000000"_s;

QPoint centreOf(QTableView *table, int row)
{
    table->scrollTo(table->model()->index(row, 0));
    return table->visualRect(table->model()->index(row, 0)).center();
}

} // namespace

class TestBalanceSelection final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;
    test::ServerProcess m_server;
    std::unique_ptr<backend::BillingBackend> m_backend;
    std::unique_ptr<views::BalancesPage> m_page;

    QTableView *table() const { return m_page->table(); }
    views::BalanceDetailPane *detail() const { return m_page->detail(); }
    QPushButton *adjust() const { return m_page->findChild<QPushButton *>(u"adjustBalance"_s); }

    // The detail, the ledger and Adjust all name the balance at `row`, the
    // one row selected; its page may still be on its way.
    bool namesRow(int row)
    {
        const QModelIndexList selected = table()->selectionModel()->selectedRows();
        if (selected.size() != 1 || selected.first().row() != row)
            return false;
        if (!QTest::qWaitFor([&] { return m_page->model()->isLoaded(row); }))
            return false;
        const api::BalanceRow balance = m_page->model()->balance(row);
        if (!QTest::qWaitFor([&] {
                return detail()->text().contains(u"Balance %1 ·"_s.arg(balance.id)) &&
                       detail()->ledger()->model()->markedBalance() == balance.id;
            }))
            return false;
        if (adjust()->isEnabled() !=
            (!balance.unlimited && balance.status == api::BalanceStatus::Active))
            return false;
        std::unique_ptr<views::AdjustBalanceDialog> dialog(detail()->ledger()->adjustDialog());
        return dialog && dialog->windowTitle().endsWith(balance.id);
    }

    // Nothing or several rows selected: no balance shown, nothing to adjust.
    bool namesNone()
    {
        return detail()->text().isEmpty() && !adjust()->isEnabled() &&
               !detail()->ledger()->adjustDialog();
    }

    void press(int key, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
    {
        QTest::keyClick(table(), Qt::Key(key), modifiers);
    }

    void click(int row, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
    {
        QTest::mouseClick(table()->viewport(), Qt::LeftButton, modifiers, centreOf(table(), row));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_database.error().isEmpty(), qPrintable(m_database.error()));
        QString problem;
        test::loadDemo(m_database.location(), Key, 110, &problem); // past 400 active rows
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        m_backend = test::openGuiBackend(m_database.location(), Key, m_server, &problem);
        QVERIFY2(m_backend, qPrintable(problem));
    }

    void init()
    {
        m_page = std::make_unique<views::BalancesPage>(m_backend.get());
        m_page->resize(1200, 900);
        m_page->show();
        QVERIFY(QTest::qWaitForWindowActive(m_page.get()));
        m_page->refresh();
        // Windowed: the count is known and the last rows are fetched where they are.
        QTRY_VERIFY(m_page->model()->isWindowed() && m_page->model()->rowCount() > 400);
        detail()->tabs()->setCurrentWidget(detail()->ledger());
        table()->setFocus();
    }

    void cleanup() { m_page.reset(); }

    void keyboardWalk()
    {
        QAbstractItemModelTester tester(m_page->model());
        const int last = m_page->model()->rowCount() - 1;
        QVERIFY(namesNone());
        click(0);
        QVERIFY(namesRow(0));

        // Ctrl+End chooses the last row, in the column the focus was in.
        click(1);
        QVERIFY(namesRow(1));
        const int column = table()->currentIndex().column();
        press(Qt::Key_End, Qt::ControlModifier);
        QVERIFY(namesRow(last));
        QCOMPARE(table()->currentIndex().column(), column);
        // Ctrl+Home chooses the first (the highlight followed the focus before).
        press(Qt::Key_Home, Qt::ControlModifier);
        QVERIFY(namesRow(0));
        // Ctrl+Shift+End chooses every row from here to the last (it moved
        // only the focus, and the detail kept a row off screen); Ctrl+Shift+Home
        // from the last back to the first.
        click(2);
        press(Qt::Key_End, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(table()->selectionModel()->selectedRows().size(), last - 1);
        QCOMPARE(table()->currentIndex().row(), last);
        QVERIFY(namesNone());
        press(Qt::Key_Home, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(table()->selectionModel()->selectedRows().size(), last + 1);
        QCOMPARE(table()->currentIndex().row(), 0);
        QVERIFY(namesNone());
        click(0);
        QVERIFY(namesRow(0));

        press(Qt::Key_Down);
        press(Qt::Key_Down);
        QVERIFY(namesRow(2));
        press(Qt::Key_Up);
        QVERIFY(namesRow(1));
        // Ctrl+Down moves the focus, not the highlight: the detail stays.
        press(Qt::Key_Down, Qt::ControlModifier);
        QCOMPARE(table()->currentIndex().row(), 2);
        QVERIFY(namesRow(1));
        // Shift+Down from there selects two rows: no one balance to show.
        press(Qt::Key_Down, Qt::ShiftModifier);
        QVERIFY(namesNone());
        QVERIFY2(detail()
                     ->findChild<QTextBrowser *>(u"balanceDetail"_s)
                     ->placeholderText()
                     .contains(u"selected"_s),
                 "the pane says several rows are selected");
    }

    void mouseWalk()
    {
        click(3);
        QVERIFY(namesRow(3));
        click(6, Qt::ShiftModifier); // 3 to 6
        QCOMPARE(table()->selectionModel()->selectedRows().size(), 4);
        QVERIFY(namesNone());
        for (int row : {3, 4, 6})
            click(row, Qt::ControlModifier); // leaves 5
        QVERIFY(namesRow(5));
        click(5, Qt::ControlModifier); // none
        QVERIFY(namesNone());
        click(2);
        QVERIFY(namesRow(2));
    }

    // A new filter replaces the rows under the selection: nothing is left
    // described, and the next choice is shown.
    void filterChangedUnderSelection()
    {
        click(4);
        QVERIFY(namesRow(4));
        const api::BalanceRow chosen = m_page->model()->balance(4);
        const int last = m_page->model()->rowCount() - 1;
        m_page->model()->balanceAt(last); // asks for its page
        QTRY_VERIFY(m_page->model()->isLoaded(last));
        auto filter = m_page->filter();
        filter.customerId = m_page->model()->balance(last).customerId;
        QVERIFY(filter.customerId != chosen.customerId);
        m_page->setFilter(filter);
        QTRY_VERIFY(!m_page->model()->isLoading() && m_page->model()->rowCount() > 0);
        QVERIFY(namesNone());
        click(0);
        QVERIFY(namesRow(0));
        QCOMPARE(m_page->model()->balance(0).customerId, filter.customerId);
    }

    // The detail pane can be hidden, and the page remembers it with the panes' sizes.
    void detailPaneHidesAndIsRemembered()
    {
        QAction *show = m_page->detailAction();
        QVERIFY(detail()->isVisible());
        show->trigger();
        QVERIFY(!detail()->isVisible());
        const QByteArray state = m_page->layoutState();
        views::BalancesPage again(m_backend.get());
        again.restoreLayout(state);
        again.show();
        QVERIFY(!again.detailAction()->isChecked());
        QVERIFY(!again.detail()->isVisible());
        show->trigger();
        QVERIFY(detail()->isVisible());
    }
};

QTEST_MAIN(TestBalanceSelection)
#include "tst_balanceselection.moc"
