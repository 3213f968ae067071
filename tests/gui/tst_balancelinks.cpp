// From a balance to what it speaks of (issue 53): right-click ▸ Open
// customer shows that customer on the Customers page, and an expired
// balance's detail promises no reset; a priced usage-based row says what it
// has come to this period; the table's columns fit what they show. Runs
// twice, on EngineBackend and on RemoteBackend to a local server
// (tests/gui/CMakeLists.txt).
#include "models/balances/BalanceAdjustEdit.h"
#include "models/balances/BalanceListModel.h"
#include "models/balances/ChargeSource.h"
#include "models/common/AmountFormat.h"
#include "tests/gui/GuiBackend.h"
#include "tests/support/TestDatabase.h"
#include "views/balances/BalanceDetailPane.h"
#include "views/balances/BalancesPage.h"
#include "views/customers/CustomersPage.h"
#include "views/window/MainWindow.h"

#include <QHeaderView>
#include <QListWidget>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;

namespace {
const QString Key = u"sk_test_gui00000000000000000000000000000"_s;
}

class TestBalanceLinks final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;
    test::ServerProcess m_server;
    std::unique_ptr<backend::BillingBackend> m_backend;

    // A balance of the demo that resets.
    api::BalanceRow resettingRow()
    {
        api::ListBalancesRequest request;
        request.limit = api::ListBalancesRequest::MaxLimit;
        auto page = m_backend->listBalances(request);
        if (!QTest::qWaitFor([&] { return page.isFinished(); }, 10000) || !page.result())
            qFatal("balances.list failed");
        for (const api::BalanceRow &row : page.result().value().list)
            if (models::BalanceAdjustEdit::resets(row))
                return row;
        qFatal("the demo has no balance that resets");
    }

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

    // The menu's action only says which customer; the window shows it.
    void openCustomerShowsTheCustomer()
    {
        views::MainWindow window(m_backend.get());
        const QString customer = resettingRow().customerId;
        QSignalSpy shown(window.customersPage(), &views::CustomersPage::customerShown);
        Q_EMIT window.balancesPage()->openCustomer(customer);
        auto *navigation = window.findChild<QListWidget *>(u"navigation"_s);
        QVERIFY(navigation);
        QCOMPARE(navigation->currentItem()->text(), views::MainWindow::tr("Customers"));
        QVERIFY(window.customersPage()->isVisibleTo(&window));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 10000);
        QCOMPARE(shown.first().first().toString(), customer);
    }

    void anExpiredBalancePromisesNoReset()
    {
        views::BalanceDetailPane detail(m_backend.get());
        api::BalanceRow row = resettingRow();
        detail.showBalance(row);
        QVERIFY2(detail.text().contains(u"next "_s), qPrintable(detail.text()));
        row.status = api::BalanceStatus::Expired;
        detail.showBalance(row);
        QVERIFY2(detail.text().contains(u"no longer: the balance has expired"_s),
                 qPrintable(detail.text()));
        QVERIFY2(!detail.text().contains(u"next "_s), qPrintable(detail.text()));
        QVERIFY(!detail.text().contains(u"At the reset"_s));
    }

    // A usage-based row with a price says what it has come to so far: its
    // line of the customer's charges.preview, in words.
    void aPricedRowSaysWhatItHasComeTo()
    {
        api::ListBalancesRequest request;
        request.limit = api::ListBalancesRequest::MaxLimit;
        std::optional<api::BalanceRow> priced;
        for (;;) {
            auto reply = m_backend->listBalances(request);
            QVERIFY(QTest::qWaitFor([&] { return reply.isFinished(); }, 10000));
            const auto page = reply.result();
            QVERIFY(page.ok());
            for (const api::BalanceRow &row : page.value().list)
                if (!priced && models::ChargeSource::charged(row))
                    priced = row;
            if (priced || !page.value().hasMore)
                break;
            request.startCursor = *page.value().nextCursor;
        }
        QVERIFY2(priced, "the demo has no usage-based row with a price");
        auto asked = m_backend->chargesPreview({priced->customerId});
        QVERIFY(QTest::qWaitFor([&] { return asked.isFinished(); }, 10000));
        const auto preview = asked.result();
        QVERIFY2(preview.ok(), preview.ok() ? "" : qPrintable(preview.error().message));
        const auto line = models::ChargeSource::lineOf(preview.value(), priced->id);
        QVERIFY(line);
        views::BalanceDetailPane detail(m_backend.get());
        detail.showBalance(priced);
        QVERIFY(detail.text().contains(views::BalanceDetailPane::tr("This period so far")));
        const QString said = line->quantity.isZero()
                                 ? views::BalanceDetailPane::tr("within the grant: nothing owed")
                                 : models::formatAmount(line->amount, QLocale(), 2);
        QTRY_VERIFY2_WITH_TIMEOUT(detail.text().contains(said), qPrintable(detail.text()), 10000);
        QVERIFY(!detail.text().contains(views::BalanceDetailPane::tr("asking…")));
    }

    // The width the window gives the table is shared out by content: a
    // column is as wide as its widest shown cell and its header at least.
    void everyShownValueFits()
    {
        views::BalancesPage page(m_backend.get());
        page.resize(1280, 700);
        page.show();
        page.refresh();
        models::BalanceListModel *model = page.model();
        QTRY_VERIFY_WITH_TIMEOUT(model->rowCount() > 0 && model->isLoaded(0), 10000);
        QTRY_VERIFY(!model->isLoading());
        // sizeHintForColumn is public where QAbstractItemView declares it.
        const QAbstractItemView *table = page.table();
        for (const int column :
             {models::BalanceListModel::IncludedColumn, models::BalanceListModel::PrepaidColumn,
              models::BalanceListModel::RemainingColumn, models::BalanceListModel::UsageColumn,
              models::BalanceListModel::StatusColumn, models::BalanceListModel::ResetColumn,
              models::BalanceListModel::CreatedColumn}) {
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

QTEST_MAIN(TestBalanceLinks)
#include "tst_balancelinks.moc"
