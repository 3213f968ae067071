// The finance views that read the demo workspace: a balance's detail in words
// with its JSON on demand, its ledger, and the Audit page. Runs twice, on EngineBackend
// and on RemoteBackend to a local server (tests/gui/CMakeLists.txt).
#include "models/admin/ProductListModel.h"
#include "models/balances/BalanceListModel.h"
#include "models/balances/BalanceTotalsModel.h"
#include "models/balances/LedgerModel.h"
#include "models/balances/ResetOutlook.h"
#include "models/common/AmountFormat.h"
#include "models/operator/AuditLogModel.h"
#include "services/engine/ledger/BalanceLedger.h"
#include "tests/gui/GuiBackend.h"
#include "tests/models/PdfText.h"
#include "tests/support/TestDatabase.h"
#include "views/admin/ProductDialog.h"
#include "views/admin/ProductsPage.h"
#include "views/balances/AdjustBalanceDialog.h"
#include "views/balances/BalanceDetailPane.h"
#include "views/balances/BalanceLedgerTab.h"
#include "views/balances/BalancesPage.h"
#include "views/common/ChangeReview.h"
#include "views/operator/AuditPage.h"
#include "views/window/MainWindow.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateEdit>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPrinter>
#include <QPushButton>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTextBrowser>

using namespace md;
using namespace Qt::StringLiterals;

namespace {

const QString Key = u"sk_test_gui00000000000000000000000000000"_s;

// The page shown, active, with its first rows loaded.
bool showWithRows(views::BalancesPage &page)
{
    page.resize(1000, 800);
    page.show();
    if (!QTest::qWaitForWindowActive(&page))
        return false;
    page.refresh();
    return QTest::qWaitFor(
        [&] { return page.model()->rowCount() > 0 && page.model()->isLoaded(0); });
}

} // namespace

class TestFinancePages final : public QObject
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

    // The selected balance in words, its owner's controls when they come,
    // and its JSON one click away.
    void balanceDetailReadsAndShowsJsonOnDemand()
    {
        views::BalancesPage page(m_backend.get());
        QVERIFY(showWithRows(page));
        page.table()->selectRow(0);
        const api::BalanceRow row = page.model()->balance(0);
        auto *detail = page.detail();
        QVERIFY(detail->text().contains(row.featureId));
        QVERIFY(detail->text().contains(models::formatAmount(row.remaining)));
        QTRY_VERIFY(!detail->text().contains(u"Asking…"_s));
        QVERIFY(detail->text().contains(u"Billing controls of this"_s));
        auto *json = page.findChild<QPlainTextEdit *>(u"balanceJson"_s);
        QVERIFY(!json->isVisible());
        page.findChild<QPushButton *>(u"showBalanceJson"_s)->click();
        QVERIFY(json->isVisible());
        QVERIFY(json->toPlainText().contains(u"\"id\": \""_s + row.id));
    }

    // The demo's API-call plans roll over: such a row's detail says what
    // carries over at its reset and until when.
    void balanceDetailSaysWhatRollsOver()
    {
        views::BalancesPage page(m_backend.get());
        QVERIFY(showWithRows(page));
        int found = -1;
        for (int row = 0; row < page.model()->rowCount() && found < 0; ++row)
            if (const auto b = page.model()->balanceAt(row); b && b->reset && b->reset->rollover)
                found = row;
        QVERIFY2(found >= 0, "the demo has a balance that rolls over");
        page.table()->selectRow(found);
        const api::BalanceRow row = page.model()->balance(found);
        const QString rolls = models::ResetOutlook::rollsOver(row);
        QVERIFY(!rolls.isEmpty());
        QTRY_VERIFY2(page.detail()->text().contains(u"Rolls over"_s) &&
                         page.detail()->text().contains(rolls),
                     qPrintable(page.detail()->text()));
    }

    // Who changed what: the demo's load is there, its detail reads side by
    // side, the resource filter narrows, and the export holds every entry.
    void auditShowsWhoChangedWhat()
    {
        views::AuditPage page(m_backend.get());
        page.resize(1000, 700);
        page.show();
        page.refresh();
        QTRY_VERIFY(page.model()->rowCount() > 0 && !page.model()->isLoading());
        page.table()->selectRow(page.model()->rowCount() - 1); // the oldest: the load
        auto *changed = page.findChild<QLabel *>(u"auditChanged"_s);
        QVERIFY(changed->text().startsWith(u"workspace.load by "_s));
        auto *before = page.findChild<QTextBrowser *>(u"auditBefore"_s);
        auto *after = page.findChild<QTextBrowser *>(u"auditAfter"_s);
        QCOMPARE(before->toPlainText().trimmed(), u"(none)"_s);
        QVERIFY2(after->toPlainText().contains(u"\"customers\": "_s),
                 qPrintable(after->toPlainText()));

        auto *resource = page.findChild<QComboBox *>(u"auditResource"_s);
        resource->setCurrentIndex(1); // products
        QTRY_VERIFY(page.model()->filter().resourceType == std::optional(u"product"_s));
        QTRY_VERIFY(!page.model()->isLoading());
        for (int row = 0; row < page.model()->rowCount(); ++row)
            QCOMPARE(page.model()->entry(row).resourceType, u"product"_s);
        resource->setCurrentIndex(0);
        QTRY_VERIFY(!page.model()->filter().resourceType && !page.model()->isLoading());

        QTemporaryDir dir;
        QSignalSpy exported(&page, &views::AuditPage::exported);
        QVERIFY(page.exportTo(dir.filePath(u"audit.csv"_s)));
        QVERIFY(exported.wait(10000));
        QFile file(dir.filePath(u"audit.csv"_s));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll().count("\r\n"), exported.first().first().toLongLong() + 1);
    }

    // How the balance came to hold what it holds: Alt+L opens the ledger of
    // its customer's feature, its own rows add up to what it holds, and the
    // ledger saves as CSV.
    void ledgerTabExplainsTheBalance()
    {
        views::BalancesPage page(m_backend.get());
        QVERIFY(showWithRows(page));
        page.table()->selectRow(0);
        const api::BalanceRow row = page.model()->balance(0);
        auto *tabs = page.detail()->tabs();
        auto *ledger = page.detail()->ledger();
        QCOMPARE(tabs->currentIndex(), 0);
        QVERIFY(ledger->model()->customerId().isEmpty()); // not asked while hidden
        page.table()->setFocus();
        QTest::keyClick(page.windowHandle(), Qt::Key_L, Qt::AltModifier);
        QTRY_COMPARE(tabs->currentWidget(), ledger);
        QTRY_VERIFY2(
            ledger->model()->rowCount() > 0 && !ledger->model()->isLoading(),
            qPrintable(ledger->model()->customerId() + u' ' +
                       (ledger->model()->lastError() ? ledger->model()->lastError()->message
                                                     : u"no error"_s)));
        api::Decimal sum;
        for (int i = 0; i < ledger->model()->rowCount(); ++i) {
            const api::LedgerEntry &entry = ledger->model()->entry(i);
            QCOMPARE(entry.customerId, row.customerId);
            QCOMPARE(entry.featureId, row.featureId);
            if (entry.balanceId == row.id)
                sum = sum.plus(entry.amount).value();
        }
        QCOMPARE(sum, engine::BalanceLedger::held(row));
        QVERIFY(ledger->findChild<QLabel *>(u"ledgerState"_s)->text().contains(row.customerId));

        QTemporaryDir dir;
        QSignalSpy exported(ledger, &views::BalanceLedgerTab::exported);
        QVERIFY(ledger->exportTo(dir.filePath(u"ledger.csv"_s)));
        QVERIFY(exported.wait(10000));
        QFile file(dir.filePath(u"ledger.csv"_s));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll().count("\r\n"), ledger->model()->rowCount() + 1);
    }

    // Finance corrects a balance by hand: the form says what is wrong as it
    // is typed, shows the change for review, and once it is saved the
    // ledger, the table's row and the detail show it.
    void aBalanceIsAdjustedByHand()
    {
        views::BalancesPage page(m_backend.get());
        QVERIFY(showWithRows(page));
        int row = 0;
        while (page.model()->isLoaded(row) && page.model()->balance(row).unlimited)
            ++row;
        QVERIFY(page.model()->isLoaded(row));
        page.table()->selectRow(row);
        const api::BalanceRow before = page.model()->balance(row);
        auto *ledger = page.detail()->ledger();
        page.detail()->tabs()->setCurrentWidget(ledger);
        QVERIFY(ledger->findChild<QPushButton *>(u"adjustBalance"_s)->isEnabled());

        QPointer<views::AdjustBalanceDialog> dialog = ledger->adjustDialog();
        dialog->show();
        QVERIFY(!dialog->reviewButton()->isEnabled()); // nothing typed yet
        QTest::keyClicks(dialog->amountEdit(), u"0"_s);
        QVERIFY(dialog->problemLabel()->text().contains(u"0 would not change"_s));
        QVERIFY(!dialog->reviewButton()->isEnabled());
        dialog->amountEdit()->setText(u"-1.5"_s);
        QVERIFY(dialog->problemLabel()->text().contains(u"Reason"_s));
        QTest::keyClicks(dialog->reasonEdit(), u"goodwill, ticket 4411"_s);
        QVERIFY2(dialog->reviewButton()->isEnabled(), qPrintable(dialog->problemLabel()->text()));
        dialog->reviewButton()->click();
        QVERIFY(dialog->isReviewing());
        QSignalSpy adjusted(ledger, &views::BalanceLedgerTab::adjusted);
        dialog->saveButton()->click();
        // Counted, not waited for: the answer may come before wait() starts.
        QTRY_COMPARE_WITH_TIMEOUT(adjusted.count(), 1, 10000);
        QTRY_VERIFY(!dialog); // closed and gone

        const api::Decimal after = before.remaining.plus(*api::Decimal::parse("-1.5")).value();
        QCOMPARE(page.model()->balance(row).remaining, after);
        QVERIFY(page.detail()->text().contains(models::formatAmount(after)));
        QTRY_VERIFY(ledger->model()->rowCount() > 0 && !ledger->model()->isLoading());
        const api::LedgerEntry &newest = ledger->model()->entry(0);
        QCOMPARE(newest.kind, u"adjustment"_s);
        QCOMPARE(newest.balanceId, before.id);
        QCOMPARE(newest, adjusted.first().first().value<api::LedgerEntry>());
    }

    // File > Print draws the report of the filter shown on the printer
    // chosen; here a printer that prints to a PDF file, read back.
    void balancesArePrintedAsAReport()
    {
        views::BalancesPage page(m_backend.get());
        QVERIFY(showWithRows(page));
        const api::BalanceRow first = page.model()->balance(0);
        models::BalanceFilter filter = page.filter();
        filter.customerId = first.customerId;
        page.setFilter(filter);
        QTemporaryDir dir;
        auto printer = std::make_shared<QPrinter>();
        printer->setOutputFormat(QPrinter::PdfFormat);
        printer->setOutputFileName(dir.filePath(u"printed.pdf"_s));
        QSignalSpy said(&page, &views::BalancesPage::statusMessage);
        QVERIFY(page.printTo(printer));
        QVERIFY(page.findChild<QPushButton *>(u"cancelExport"_s)->isVisible());
        QVERIFY(QTest::qWaitFor([&] {
            return !said.isEmpty() && said.last().first().toString().contains(u"printer"_s);
        }));
        printer.reset(); // the file is complete once the printer is gone
        const QString path = dir.filePath(u"printed.pdf"_s);
        QCOMPARE(test::pdfPages(path), 1);
        const QString text = test::pdfText(path, 1, 1);
        QVERIFY2(text.contains(u"Customer %1 · every feature"_s.arg(first.customerId)),
                 qPrintable(text));
        QVERIFY(text.contains(first.featureId));
        QVERIFY(text.contains(u"Page 1 of 1"_s));
    }

    // The console writes on another page (a product renamed): the Audit page
    // shows the entry once it is shown again, without F5, and the entry
    // chosen there stays chosen.
    void auditShowsTheConsolesWritesWhenShownAgain()
    {
        views::MainWindow window(m_backend.get());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.connectionReady();
        views::AuditPage *audit = window.auditPage();
        auto *navigation = window.findChild<QListWidget *>(u"navigation"_s);
        auto *pages = qobject_cast<QStackedWidget *>(audit->parentWidget());
        QVERIFY(navigation && pages);
        const auto show = [&](QWidget *page) { navigation->setCurrentRow(pages->indexOf(page)); };

        models::AuditLogModel *log = audit->model();
        show(audit);
        QTRY_VERIFY(log->rowCount() > 0 && !log->isLoading());
        const QString newest = log->entry(0).id;
        const QString chosen = log->entry(log->rowCount() - 1).id; // the load
        audit->table()->selectRow(log->rowCount() - 1);
        const auto current = [&] {
            const QModelIndex index = audit->table()->currentIndex();
            return index.isValid() ? log->entry(index.row()).id : QString();
        };
        QCOMPARE(current(), chosen);

        views::ProductsPage *products = window.productsPage();
        show(products);
        QTRY_VERIFY(products->model()->rowOf(u"starter"_s) >= 0);
        products->table()->selectRow(products->model()->rowOf(u"starter"_s));
        views::ProductDialog *dialog = products->editSelected();
        QVERIFY(dialog);
        dialog->nameEdit()->setText(u"Starter (renamed)"_s);
        QVERIFY2(dialog->reviewButton()->isEnabled(), qPrintable(dialog->problemLabel()->text()));
        dialog->reviewButton()->click();
        dialog->saveButton()->click();
        QTRY_VERIFY2(products->status()->text().contains(u"Saved starter"_s),
                     qPrintable(products->status()->text()));

        show(audit);
        QTRY_VERIFY(!log->isLoading() && log->rowCount() > 0 && log->entry(0).id != newest);
        QCOMPARE(log->entry(0).resourceType, u"product"_s);
        QCOMPARE(log->entry(0).resourceId, u"starter"_s);
        QTRY_COMPARE(current(), chosen);

        show(products); // the demo as it was, for what follows
        products->undoButton()->click();
        QTRY_VERIFY(products->status()->text().contains(u"Undid"_s));
    }

    // Issue 33: every feature in the filter made the bar read "granted
    // 69,069,680.00", API calls, credits and gigabytes added together. It
    // counts them then, and says why in its tooltip; one feature it adds up.
    void totalsBarAddsUpOneFeatureAtATime()
    {
        views::BalancesPage page(m_backend.get());
        QVERIFY(showWithRows(page));
        auto *bar = page.findChild<QLabel *>(u"totalsSummary"_s);
        QVERIFY(bar);
        QTRY_VERIFY(page.totals()->totals().has_value());
        const api::BalanceTotals every = *page.totals()->totals();
        QVERIFY(every.groups.size() > 1);
        QVERIFY2(!bar->text().contains(models::formatAmount(every.total.granted)),
                 qPrintable(bar->text()));
        QVERIFY(!bar->toolTip().isEmpty());

        models::BalanceFilter one = page.filter();
        one.featureId = every.groups.first().key.value_or(QString());
        page.setFilter(one);
        QTRY_VERIFY(page.totals()->totals() && page.totals()->request().filter.featureId);
        const api::TotalsFigures figures = page.totals()->totals()->total;
        QTRY_VERIFY2(bar->text().contains(models::formatAmount(figures.granted)),
                     qPrintable(bar->text()));
        QVERIFY(bar->toolTip().isEmpty());
    }

    // Finance's "what refills this month": the filter keeps the rows whose
    // next reset comes before the chosen day, and the totals group them by
    // the month of that reset, named in the reader's language.
    void whatRefillsBeforeADay()
    {
        views::BalancesPage page(m_backend.get());
        QVERIFY(showWithRows(page));
        auto *resets = page.findChild<QCheckBox *>(u"resetsFilter"_s);
        auto *day = page.findChild<QDateEdit *>(u"resetsBeforeFilter"_s);
        QVERIFY(resets && day);
        QVERIFY(!day->isEnabled());
        // The soonest reset shown, and a day after it: at least that row stays.
        std::optional<qint64> soonest;
        for (int row = 0; row < page.model()->rowCount(); ++row)
            if (const auto balance = page.model()->balanceAt(row);
                balance && balance->reset && balance->reset->resetsAt)
                soonest = std::min(soonest.value_or(*balance->reset->resetsAt),
                                   *balance->reset->resetsAt);
        QVERIFY(soonest);
        const int before = page.model()->rowCount();
        const QDate until = QDateTime::fromMSecsSinceEpoch(*soonest).date().addDays(1);
        day->setDate(until);                                // disabled: not the filter yet
        QTest::keyClick(&page, Qt::Key_I, Qt::AltModifier); // its mnemonic
        QTRY_VERIFY(resets->isChecked());
        QVERIFY(day->isEnabled());
        const qint64 limit = until.startOfDay().toMSecsSinceEpoch();
        QTRY_COMPARE(page.model()->request().resetsBefore, std::optional(limit));
        QTRY_VERIFY(page.model()->rowCount() > 0 && page.model()->isLoaded(0));
        QVERIFY(page.model()->rowCount() < before);
        for (int row = 0; row < page.model()->rowCount(); ++row) {
            const auto balance = page.model()->balanceAt(row);
            QVERIFY(balance && balance->reset && balance->reset->resetsAt);
            QVERIFY(*balance->reset->resetsAt < limit);
        }
        QCOMPARE(page.filter().resetsBefore, std::optional(until));

        auto *groupBy = page.findChild<QComboBox *>(u"totalsGroupBy"_s);
        QVERIFY(groupBy);
        groupBy->setCurrentIndex(groupBy->findData(int(api::TotalsGroupBy::ResetMonth)));
        QTRY_VERIFY(page.totals()->request().groupBy == api::TotalsGroupBy::ResetMonth &&
                    page.totals()->totals() && !page.totals()->isLoading());
        const api::BalanceTotals months = *page.totals()->totals();
        QCOMPARE(months.total.balances, page.model()->rowCount());
        QVERIFY(!months.groups.isEmpty());
        for (int row = 0; row < page.totals()->rowCount(); ++row) {
            const QDate month =
                QDate::fromString(*months.groups.at(row).key + u"-01"_s, Qt::ISODate);
            QVERIFY(month.isValid() && month < until);
            QCOMPARE(page.totals()->index(row, models::BalanceTotalsModel::Key).data().toString(),
                     QLocale().toString(month, u"MMMM yyyy"_s));
        }
    }

    void cleanupTestCase()
    {
        m_backend.reset();
        if (qEnvironmentVariable("MD_GUI_BACKEND") == "remote"_L1)
            QCOMPARE(m_server.stop(), 0);
    }
};

QTEST_MAIN(TestFinancePages)
#include "tst_financepages.moc"
