// The console's pages as a user drives them (offscreen), on EngineBackend or
// on RemoteBackend against a local meterdesk-server (MD_GUI_BACKEND).
#include "models/admin/ProductListModel.h"
#include "models/admin/RewardListModel.h"
#include "models/admin/TenantListModel.h"
#include "models/balances/BalanceExport.h"
#include "models/balances/BalanceListModel.h"
#include "models/balances/BalanceTotalsModel.h"
#include "models/customers/CustomerListModel.h"
#include "models/usage/UsageEventModel.h"
#include "models/usage/UsageTotalsSource.h"
#include "services/api/Version.h"
#include "services/engine/pricing/PriceCatalogue.h"
#include "services/engine/pricing/TokenPricing.h"
#include "tests/gui/GuiBackend.h"
#include "tests/models/WindowedRows.h"
#include "tests/models/XlsxSheets.h"
#include "tests/support/TestDatabase.h"
#include "views/admin/ProductsPage.h"
#include "views/admin/RewardsPage.h"
#include "views/admin/TenantsPage.h"
#include "views/balances/BalanceFilterBar.h"
#include "views/balances/BalancesPage.h"
#include "views/balances/CustomerSearchField.h"
#include "views/common/ExportButton.h"
#include "views/customers/CustomersPage.h"
#include "views/usage/PriceCallDialog.h"
#include "views/usage/UsageChart.h"
#include "views/usage/UsagePage.h"
#include "views/window/AboutDialog.h"
#include "views/window/MainWindow.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>

#include <QAction>
#include <QChart>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QCompleter>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QTableView>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using models::BalanceListModel;

namespace {

const QString Key = u"sk_test_gui00000000000000000000000000000"_s;

} // namespace

class TestConsolePages final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;
    test::ServerProcess m_server;
    std::unique_ptr<backend::BillingBackend> m_backend;
    qsizetype m_activeRows = 0;
    // From the demo file itself: its usage events, per model, and a customer with some.
    qsizetype m_events = 0;
    QHash<QString, qsizetype> m_eventsByModel;
    QString m_creditCustomer;
    // A customer whose name is in no other customer's id, name or email.
    QString m_namedCustomer;
    QString m_uniqueName;

    // Scrolls like a user until every page is in.

    static bool loadEverything(views::BalancesPage &page)
    {
        BalanceListModel *model = page.model();
        for (int guard = 0; guard < 200; ++guard) {
            if (!model->isLoading() && !model->hasMore())
                return test::loadEveryRow(*model);
            if (!model->isLoading()) {
                page.table()->scrollToBottom();
                if (model->canFetchMore({}))
                    model->fetchMore({});
            }
            QSignalSpy settled(model, &BalanceListModel::loadingChanged);
            if (model->isLoading() && !settled.wait(10000))
                return false;
        }
        return false;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_database.error().isEmpty(), qPrintable(m_database.error()));
        QString problem;
        const QJsonObject demo = test::loadDemo(m_database.location(), Key, 80, &problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const QJsonArray customers =
            demo.value(u"organizations"_s)[0][u"test"_s][u"customers"_s].toArray();
        for (const QJsonValue &customer : customers) {
            const QJsonArray events = customer[u"usage_events"_s].toArray();
            if (!events.isEmpty() && m_creditCustomer.isEmpty())
                m_creditCustomer = customer[u"id"_s].toString();
            m_events += events.size();
            for (const QJsonValue &event : events)
                ++m_eventsByModel[event[u"model_id"_s].toString()];
        }
        for (const QJsonValue &customer : customers) {
            const QString name = customer[u"name"_s].toString();
            const auto alsoIn = [&](const QJsonValue &other) {
                return other != customer &&
                       (other[u"id"_s].toString().contains(name, Qt::CaseInsensitive) ||
                        other[u"name"_s].toString().contains(name, Qt::CaseInsensitive) ||
                        other[u"email"_s].toString().contains(name, Qt::CaseInsensitive));
            };
            if (name.size() >= 3 && std::none_of(customers.begin(), customers.end(), alsoIn)) {
                m_namedCustomer = customer[u"id"_s].toString();
                m_uniqueName = name;
                break;
            }
        }
        QVERIFY(!m_namedCustomer.isEmpty());
        m_activeRows = test::activeRows(m_database.location(), Key);
        QVERIFY(m_activeRows > 200); // several pages
        m_backend = test::openGuiBackend(m_database.location(), Key, m_server, &problem);
        QVERIFY2(m_backend, qPrintable(problem));
    }

    void adminPagesReadTheDemo()
    {
        // Every reward the demo writes (a one-off coupon has no length) reads back.
        views::RewardsPage rewards(m_backend.get());
        rewards.refresh();
        QTRY_VERIFY(rewards.model()->rowCount() > 0);
        QVERIFY2(rewards.status()->text().isEmpty(), qPrintable(rewards.status()->text()));
        views::ProductsPage products(m_backend.get());
        products.refresh();
        QTRY_VERIFY(products.model()->rowOf(u"pro"_s) >= 0);
        views::TenantsPage tenants(m_backend.get());
        tenants.refresh();
        QTRY_VERIFY(!tenants.model()->tenantSlugs().isEmpty());
    }

    void pagesToTheEnd()
    {
        views::BalancesPage page(m_backend.get());
        page.resize(1000, 600);
        page.show();
        page.refresh();
        QVERIFY(loadEverything(page));
        QCOMPARE(page.model()->rowCount(), m_activeRows);
    }

    void filtersByCustomerFromTheKeyboard()
    {
        views::BalancesPage page(m_backend.get());
        page.show();
        page.refresh();
        auto *customer = page.findChild<QLineEdit *>(u"customerFilter"_s);
        QVERIFY(customer);
        page.focusFilter();
        QTest::keyClicks(customer, u"globex-labs-0002"_s);
        QTest::keyClick(customer, Qt::Key_Return);
        QTRY_VERIFY(page.model()->request().customerId == std::optional(u"globex-labs-0002"_s));
        QVERIFY(loadEverything(page));
        QVERIFY(page.model()->rowCount() > 0);
        for (int row = 0; row < page.model()->rowCount(); ++row)
            QCOMPARE(page.model()->balance(row).customerId, u"globex-labs-0002"_s);
        auto *entity = page.findChild<QLineEdit *>(u"entityFilter"_s);
        QVERIFY(entity->isEnabled()); // once a customer is chosen
    }

    // Part of a name lists the customers it matches, filters nothing and
    // shows no error while typing; Return on text naming one customer
    // filters by it; text naming several says so and filters nothing.
    void findsACustomerByPartOfItsName()
    {
        views::BalancesPage page(m_backend.get());
        page.show();
        page.refresh();
        auto *customer = page.findChild<views::CustomerSearchField *>(u"customerFilter"_s);
        auto *bar = page.findChild<views::BalanceFilterBar *>();
        QVERIFY(customer && bar);
        QSignalSpy said(bar, &views::BalanceFilterBar::statusMessage);
        page.focusFilter();
        const QString part = m_uniqueName.mid(1, m_uniqueName.size() - 2).toUpper();
        QTest::keyClicks(customer, part);
        QTRY_VERIFY(customer->completer()->popup()->isVisible());
        QAbstractItemModel *found = customer->completer()->completionModel();
        QVERIFY(found->rowCount() >= 1);
        bool named = false;
        for (int row = 0; row < found->rowCount(); ++row)
            named = named || found->index(row, 0).data().toString().contains(m_uniqueName);
        QVERIFY2(named, qPrintable(m_uniqueName)); // shown with its name
        QCOMPARE(page.model()->request().customerId, std::nullopt);
        customer->completer()->popup()->hide();
        QTest::keyClick(customer, Qt::Key_Return);
        QTRY_COMPARE(page.model()->request().customerId, std::optional(m_namedCustomer));
        QCOMPARE(customer->text(), m_namedCustomer);

        // "e" is in many customers' emails: nothing is filtered, and the status says why.
        customer->selectAll();
        QTest::keyClicks(customer, u"e"_s);
        QTest::keyClick(customer, Qt::Key_Return);
        QTRY_VERIFY(!said.isEmpty());
        QVERIFY2(said.last().first().toString().contains(u"match"_s),
                 qPrintable(said.last().first().toString()));
        QCOMPARE(page.model()->request().customerId, std::optional(m_namedCustomer));
        QVERIFY(!page.model()->lastError()); // no error, no Retry

        // Cleared: every customer again.
        customer->clear();
        QTest::keyClicks(customer, u"x"_s);
        QTest::keyClick(customer, Qt::Key_Backspace);
        QTRY_COMPARE(page.model()->request().customerId, std::nullopt);
    }

    // Who runs out: "Remaining below 10 % of the grant" from the bar keeps
    // only those rows; a value that is no percentage says so and filters
    // nothing new.
    void findsWhoRunsOut()
    {
        views::BalancesPage page(m_backend.get());
        page.resize(1400, 700);
        page.show();
        page.refresh();
        auto *below = page.findChild<QCheckBox *>(u"belowFilter"_s);
        auto *value = page.findChild<QLineEdit *>(u"belowValue"_s);
        auto *bar = page.findChild<views::BalanceFilterBar *>();
        QVERIFY(below && value && bar);
        QVERIFY(!value->isEnabled());
        below->click(); // 10 % of the grant unless said otherwise
        QTRY_COMPARE(page.model()->request().remainingBelowPercent, std::optional<qint64>(10));
        QVERIFY(loadEverything(page));
        for (int row = 0; row < page.model()->rowCount(); ++row) {
            const api::BalanceRow balance = page.model()->balance(row);
            QVERIFY(!balance.unlimited);
            QVERIFY2(*balance.remaining.mulDiv(10, 1) <
                         *balance.includedGrant.plus(balance.prepaidGrant),
                     qPrintable(balance.id));
        }
        QSignalSpy said(bar, &views::BalanceFilterBar::statusMessage);
        value->selectAll();
        QTest::keyClicks(value, u"ten"_s);
        QTest::keyClick(value, Qt::Key_Return);
        QVERIFY(!said.isEmpty());
        QVERIFY2(said.last().first().toString().contains(u"1 to 100"_s),
                 qPrintable(said.last().first().toString()));
        QCOMPARE(page.model()->request().remainingBelowPercent, std::optional<qint64>(10));
        below->click();
        QTRY_VERIFY(!page.model()->request().remainingBelowPercent);
    }

    // The header sorts by Remaining, Usage, Next reset or Customer, on the
    // server; a second click turns the order around; other columns say so.
    void headerSortsOnTheServer()
    {
        views::BalancesPage page(m_backend.get());
        page.resize(1400, 700);
        page.show();
        page.refresh();
        QHeaderView *header = page.table()->horizontalHeader();
        QTRY_VERIFY(page.model()->rowCount() > 0);
        const auto click = [header](int column) {
            QTest::mouseClick(
                header->viewport(), Qt::LeftButton, {},
                QPoint(header->sectionViewportPosition(column) + header->sectionSize(column) / 2,
                       header->height() / 2));
        };
        click(BalanceListModel::RemainingColumn);
        QTRY_COMPARE(page.model()->request().orderBy, api::BalanceOrder::Remaining);
        QVERIFY(!page.model()->request().descending);
        QCOMPARE(header->sortIndicatorSection(), int(BalanceListModel::RemainingColumn));
        QTRY_VERIFY(page.model()->isLoaded(0) && page.model()->isLoaded(1));
        QVERIFY(page.model()->balance(0).remaining <= page.model()->balance(1).remaining);
        click(BalanceListModel::RemainingColumn);
        QTRY_VERIFY(page.model()->request().descending);
        QCOMPARE(header->sortIndicatorOrder(), Qt::DescendingOrder);
        QTRY_VERIFY(page.model()->isLoaded(0) && page.model()->isLoaded(1) &&
                    !page.model()->isLoading());
        QVERIFY(page.model()->balance(0).remaining >= page.model()->balance(1).remaining);
        QVERIFY(page.filter().descending); // saved views keep it
        QSignalSpy said(&page, &views::BalancesPage::statusMessage);
        click(BalanceListModel::PlanColumn);
        QVERIFY(!said.isEmpty());
        QCOMPARE(page.model()->request().orderBy, api::BalanceOrder::Remaining);
        QCOMPARE(header->sortIndicatorSection(), int(BalanceListModel::RemainingColumn));
    }

    // The filter's boxes show their longest choice whole: they follow their
    // choices, which come after the page is first shown.
    void filterBoxesFitTheirChoices()
    {
        views::BalancesPage page(m_backend.get());
        page.resize(1100, 700);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        page.refresh();
        for (const auto name : {"featureFilter"_L1, "planFilter"_L1}) {
            auto *box = page.findChild<QComboBox *>(name);
            QVERIFY(box);
            QTRY_VERIFY(box->count() > 2); // the workspace's, after "all" (and "none")
            const auto clipped = [box] {
                QStyleOptionComboBox option;
                option.initFrom(box);
                const int room = box->style()
                                     ->subControlRect(QStyle::CC_ComboBox, &option,
                                                      QStyle::SC_ComboBoxEditField, box)
                                     .width();
                for (int i = 0; i < box->count(); ++i)
                    if (box->fontMetrics().horizontalAdvance(box->itemText(i)) > room)
                        return box->itemText(i);
                return QString();
            };
            QTRY_VERIFY2(clipped().isEmpty(), qPrintable(clipped()));
        }
    }

    void changingTheFilterMidFetchDropsTheOldAnswer()
    {
        views::BalancesPage page(m_backend.get());
        page.show();
        page.refresh(); // the unfiltered first page is on its way
        models::BalanceFilter filter;
        filter.active = false;
        filter.expired = true;
        page.setFilter(filter);
        QVERIFY(loadEverything(page));
        QVERIFY(page.model()->rowCount() > 0);
        for (int row = 0; row < page.model()->rowCount(); ++row)
            QCOMPARE(page.model()->balance(row).status, api::BalanceStatus::Expired);
    }

    // The bar under the table adds up the whole filter, not the rows loaded,
    // and follows the filter; the grouped view opens from the keyboard.
    void totalsFollowTheFilter()
    {
        views::BalancesPage page(m_backend.get());
        page.resize(1000, 700);
        page.show();
        page.refresh();
        auto *summary = page.findChild<QLabel *>(u"totalsSummary"_s);
        QVERIFY(summary);
        QTRY_VERIFY(page.totals()->totals().has_value());
        QCOMPARE(page.totals()->totals()->total.balances, m_activeRows);
        QVERIFY2(summary->text().startsWith(QLocale().toString(m_activeRows) + u' '),
                 qPrintable(summary->text()));

        models::BalanceFilter narrowed = page.filter();
        narrowed.customerId = u"globex-labs-0002"_s;
        page.setFilter(narrowed);
        QTRY_VERIFY(page.totals()->totals() && page.totals()->totals()->total.customers == 1);
        QVERIFY(loadEverything(page));
        QCOMPARE(page.totals()->totals()->total.balances, page.model()->rowCount());

        auto *groups = page.findChild<QTableView *>(u"totalsTable"_s);
        QVERIFY(groups && !groups->isVisible());
        page.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&page));
        QTest::keyClick(page.windowHandle(), Qt::Key_O, Qt::AltModifier);
        QTRY_VERIFY(groups->isVisible()); // a mnemonic clicks after its pressed look
        // Room for the header and five groups, not two rows (issue 53).
        QVERIFY2(groups->viewport()->height() >= 5 * groups->verticalHeader()->defaultSectionSize(),
                 qPrintable(QString::number(groups->height())));

        QVERIFY(groups->model()->rowCount() > 0);
        auto *groupBy = page.findChild<QComboBox *>(u"totalsGroupBy"_s);
        groupBy->setCurrentIndex(2); // by customer
        QTRY_COMPARE(groups->model()->rowCount(), 1);
        QCOMPARE(groups->model()->index(0, 0).data().toString(), u"globex-labs-0002"_s);
    }

    void exportsTheWholeResult()
    {
        views::BalancesPage page(m_backend.get());
        page.show();
        page.refresh();
        QTemporaryDir dir;
        const QString path = dir.filePath(u"balances.csv"_s);
        QSignalSpy finished(page.exporter(), &models::BalanceExport::finished);
        const auto started = page.exportTo(path);
        QVERIFY2(started, qPrintable(started ? QString() : started.error().message));
        QVERIFY(finished.wait(20000));
        QCOMPARE(finished.first().first().toLongLong(), m_activeRows); // not only loaded rows
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll().count("\r\n"), m_activeRows + 1);
        QFile totals(dir.filePath(u"balances-totals.csv"_s));
        QVERIFY(totals.open(QIODevice::ReadOnly));
        const QByteArray totalLine = "\r\ntotal,," + QByteArray::number(m_activeRows) + ',';
        QVERIFY(totals.readAll().contains(totalLine));
    }

    void cancelingAnExportLeavesNoFile()
    {
        views::BalancesPage page(m_backend.get());
        page.show();
        QTemporaryDir dir;
        const QString path = dir.filePath(u"canceled.csv"_s);
        QSignalSpy canceled(page.exporter(), &models::BalanceExport::canceled);
        QVERIFY(page.exportTo(path));
        page.exporter()->cancel();
        QVERIFY(canceled.wait(20000));
        QVERIFY(!QFile::exists(path));
    }

    void customersSearchAndDetail()
    {
        views::CustomersPage page(m_backend.get());
        page.show();
        page.refresh();
        auto *search = page.findChild<QLineEdit *>(u"customerSearch"_s);
        QVERIFY(search);
        page.focusSearch();
        QTest::keyClicks(search, u"hooli"_s);
        QTRY_VERIFY(page.model()->search() == u"hooli"_s);
        QTRY_VERIFY(!page.model()->isLoading() && page.model()->rowCount() > 0);
        for (int row = 0; row < page.model()->rowCount(); ++row)
            QVERIFY(page.model()->customer(row).id.contains(u"hooli"_s));
        auto *table = page.findChild<QTableView *>(u"customerTable"_s);
        table->setFocus();
        QTest::keyClick(table, Qt::Key_Down); // keyboard only
        QVERIFY(table->currentIndex().isValid());
        const QString chosen = page.model()->customer(table->currentIndex().row()).id;
        // The detail follows the current row (however many answers come back first).
        QTRY_VERIFY_WITH_TIMEOUT(page.shownCustomer() && page.shownCustomer()->id == chosen, 10000);
        const QString overview = page.findChild<QLabel *>(u"customerOverview"_s)->text();
        QVERIFY2(overview.contains(page.shownCustomer()->email), qPrintable(overview));
        QVERIFY(!page.shownCustomer()->subscriptions.isEmpty());
    }

    void usagePageFiltersAndCharts()
    {
        QVERIFY(m_events > 0);
        views::UsagePage page(m_backend.get());
        QAbstractItemModelTester tester(page.model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        page.resize(1100, 700);
        page.show();
        page.refresh();
        models::UsageEventModel *model = page.model();
        models::UsageTotalsSource *totals = page.chartTotals();
        // The chart adds up every event of the filter where they are stored,
        // while the table holds only the pages it has shown.
        QTRY_VERIFY_WITH_TIMEOUT(totals->totals() && !totals->isLoading(), 10000);
        QCOMPARE(totals->totals()->total.events, m_events); // all within the last 30 days
        QVERIFY(!page.chart()->seriesNames().isEmpty());
        QVERIFY(page.chart()->seriesNames().size() <= 7); // six and "Other" at most
        // Today is not over: its bar is marked as partial, and the note says so.
        QVERIFY(totals->totals()->partialDays.contains(QDateTime::currentDateTimeUtc().date()));
        QVERIFY(page.chart()->showsPartialNote());
        QTRY_VERIFY_WITH_TIMEOUT(!model->isLoading(), 10000);
        QVERIFY(model->rowCount() > 0);
        // Each value names its unit, its feature's name: features share the column.
        const QString feature = model->events().first().featureId;
        QTRY_VERIFY(model->unitOf(feature) != feature);
        QVERIFY2(
            model->index(0, models::UsageEventModel::ValueColumn)
                .data()
                .toString()
                .endsWith(u' ' + model->unitOf(feature)),
            qPrintable(model->index(0, models::UsageEventModel::ValueColumn).data().toString()));

        // The model most used, typed into the filter as a user would.
        const QString model0 =
            std::max_element(m_eventsByModel.cbegin(), m_eventsByModel.cend()).key();
        page.modelFilter()->setFocus();
        QTest::keyClicks(page.modelFilter(), model0);
        QTest::keyClick(page.modelFilter(), Qt::Key_Return);
        QTRY_VERIFY(model->filter().modelId == std::optional(model0));
        QTRY_VERIFY_WITH_TIMEOUT(!model->isLoading() && !model->hasMore(), 10000);
        QCOMPARE(model->rowCount(), m_eventsByModel.value(model0));
        for (const api::UsageEvent &event : model->events())
            QCOMPARE(event.modelId, std::optional(model0));
        QTRY_COMPARE(page.chart()->seriesNames(), QStringList{model0}); // per model by default
        QCOMPARE(totals->totals()->total.events, m_eventsByModel.value(model0));

        // Stacked by customer: asked for again, grouped by customer.
        auto *stacking = page.chart()->findChild<QComboBox *>();
        stacking->setCurrentIndex(stacking->findData(int(api::UsageGroupBy::Customer)));
        QTRY_VERIFY(totals->request().groupBy == api::UsageGroupBy::Customer &&
                    !totals->isLoading());
        QStringList customers;
        for (const api::UsageEvent &event : model->events())
            if (!customers.contains(event.customerId))
                customers.append(event.customerId);
        QVERIFY(!customers.isEmpty());
        for (const QString &name : page.chart()->seriesNames())
            QVERIFY2(customers.contains(name) || name == views::UsageChart::tr("Other"),
                     qPrintable(name));
    }

    // Two years of weekly usage: few labels, each with its year, none
    // repeated or elided; the amounts' numbers in the chart's language; a
    // partial period named and marked.
    void usageChartLabelsAreFewDistinctAndLocal()
    {
        views::UsageChart chart;
        chart.setLocale(QLocale(QLocale::German, QLocale::Germany));
        chart.resize(420, 300);
        chart.show();
        const QDate start(2025, 1, 6);
        api::UsageGroup group{u"gpt-4o"_s, {}, {}};
        for (int week = 0; week < 100; ++week)
            group.days.append(
                {start.addDays(7 * week), {1, *api::Decimal::parse("2.08"), {}, 1000 + week}});
        api::UsageTotals totals;
        totals.groups = {group};
        totals.partialDays = {start.addDays(7 * 99)};
        chart.setTotals(totals);
        const QStringList labels = chart.timeLabels();
        QVERIFY(labels.size() >= 14); // a bar per week or per month, every one kept
        const QStringList named = labels.filter(QRegularExpression(u"\\S"_s));
        QVERIFY2(named.size() <= views::UsageChart::MaxLabels + 1, qPrintable(named.join(u", "_s)));
        QVERIFY(named.size() >= 2);
        QCOMPARE(QSet<QString>(named.cbegin(), named.cend()).size(), named.size());
        QVERIFY2(labels.last().endsWith(views::UsageChart::PartialMark), qPrintable(labels.last()));
        QVERIFY(chart.showsPartialNote());
        for (QString label : named) { // each with its year: the chart spans three
            label.remove(views::UsageChart::PartialMark);
            QVERIFY2(label.endsWith(u"24"_s) || label.endsWith(u"25"_s) || label.endsWith(u"26"_s),
                     qPrintable(label));
        }
        QVERIFY(chart.chart()->localizeNumbers());
        QCOMPARE(chart.chart()->locale().language(), QLocale::German);
        // Nothing to draw: no note.
        chart.setTotals(std::nullopt);
        QVERIFY(!chart.showsPartialNote());
    }

    // Customers and usage events export every row, as CSV or as a workbook.
    void customersAndUsageExport()
    {
        QTemporaryDir dir;
        views::CustomersPage customers(m_backend.get());
        customers.show();
        customers.refresh();
        QTRY_VERIFY(!customers.model()->isLoading() && customers.model()->rowCount() > 0);
        auto *exportCustomers = customers.findChild<views::ExportButton *>(u"exportCustomers"_s);
        QVERIFY(exportCustomers);
        QSignalSpy savedCustomers(exportCustomers, &views::ExportButton::exported);
        QVERIFY(exportCustomers->exportTo(dir.filePath(u"customers.xlsx"_s)));
        QVERIFY(savedCustomers.wait(20000));
        const int all = savedCustomers.first().first().toInt();
        QVERIFY(all >= customers.model()->rowCount()); // every page, not only those shown
        QVERIFY(!customers.model()->hasMore());
        const QString sheet =
            test::xlsxPart(dir.filePath(u"customers.xlsx"_s), u"xl/worksheets/sheet1.xml"_s);
        QCOMPARE(sheet.count(u"<row "_s), all + 1);
        QCOMPARE(test::xlsxCell(sheet, u"C1"_s)->value, u"Email"_s);
        QCOMPARE(test::xlsxCell(sheet, u"A2"_s)->value, customers.model()->customer(0).id);

        views::UsagePage usage(m_backend.get());
        usage.show();
        usage.refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!usage.model()->isLoading(), 10000);
        auto *exportUsage = usage.findChild<views::ExportButton *>(u"exportUsage"_s);
        QVERIFY(exportUsage);
        QSignalSpy savedUsage(exportUsage, &views::ExportButton::exported);
        QVERIFY(exportUsage->exportTo(dir.filePath(u"usage.csv"_s)));
        QVERIFY(savedUsage.wait(20000));
        QCOMPARE(savedUsage.first().first().toInt(), m_events);
        QFile file(dir.filePath(u"usage.csv"_s));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines =
            QString::fromUtf8(file.readAll()).split(u"\r\n"_s, Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), m_events + 1);
        QCOMPARE(lines.first(), models::csvHeaderOf(models::UsageEventModel::columns()).trimmed());
        QVERIFY(lines.at(1).contains(usage.model()->events().first().value.toString()));
    }

    void pricingACallShowsTheMarkupAndItsSource()
    {
        views::PriceCallDialog dialog(m_backend.get());
        QSignalSpy quoted(&dialog, &views::PriceCallDialog::quoted);
        dialog.show();
        dialog.setCustomer(m_creditCustomer);
        dialog.setModel(u"anthropic/claude-3-5-haiku-20241022"_s);
        dialog.setTokens({12000, 3400, 5000});
        QTRY_VERIFY_WITH_TIMEOUT(dialog.quote().has_value(), 10000);
        // The demo credit system marks anthropic up 15 % (provider level).
        engine::CreditMarkups markups;
        markups.byProvider.insert(u"anthropic"_s, api::Decimal::fromInteger(15));
        const auto expected = engine::TokenPricing::price(engine::PriceCatalogue::bundled(),
                                                          u"anthropic/claude-3-5-haiku-20241022"_s,
                                                          {12000, 3400, 5000}, markups);
        QVERIFY(expected.ok());
        QCOMPARE(dialog.quote()->markupSource, u"provider"_s);
        QCOMPARE(dialog.quote()->value, expected.value().value);
        QCOMPARE(dialog.quote()->pools.size(), 3);
        QVERIFY(dialog.resultText().contains(u"15"_s));
        dialog.setModel(u"nobody/none"_s); // an unknown model says so
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.quote().has_value(), 10000);
        QVERIFY(dialog.resultText().contains(u"nobody/none"_s));
    }

    void aboutNamesVersionsLicenceAndTheCatalogueInUse()
    {
        views::MainWindow window(m_backend.get());
        QAction *action = nullptr;
        for (QAction *menu : window.menuBar()->actions())
            for (QAction *item : menu->menu()->actions())
                if (item->menuRole() == QAction::AboutRole)
                    action = item;
        QVERIFY2(action, "no Help ▸ About item");
        action->trigger();
        auto *about = window.findChild<views::AboutDialog *>();
        QVERIFY(about);
        const auto row = [about](const char *name) {
            const auto *label = about->findChild<QLabel *>(QLatin1StringView(name));
            return label ? label->text() : QString();
        };
        QCOMPARE(row("version"), api::meterdeskVersion());
        QVERIFY2(row("qtVersion").startsWith(QLatin1StringView(qVersion())),
                 qPrintable(row("qtVersion")));
        QVERIFY(row("licence").contains("MIT"_L1));

        // The engine or server answers for the catalogue it prices with.
        const api::CatalogueInfo bundled = engine::PriceCatalogue::bundled().info();
        QTRY_VERIFY2(row("catalogue").contains(bundled.source), qPrintable(row("catalogue")));
        const QDate taken = QDate::fromString(bundled.generated, Qt::ISODate);
        QVERIFY(taken.isValid());
        QVERIFY(row("catalogue").contains(QLocale().toString(taken, QLocale::ShortFormat)));
        QVERIFY(row("catalogue").contains(QLocale().toString(bundled.models)));
        const bool remote = qEnvironmentVariable("MD_GUI_BACKEND") == "remote"_L1;
        const QString engineName = remote ? u"meterdesk-server "_s : u"embedded engine "_s;
        QTRY_VERIFY2(row("connection").endsWith(engineName + api::meterdeskVersion()),
                     qPrintable(row("connection")));

        // Copy details carries every row, one line each, and no secret.
        const QString details = about->details();
        for (const char *name : {"qtVersion", "licence", "connection", "catalogue"})
            QVERIFY2(details.contains(row(name).replace(u'\n', u"; "_s)), qPrintable(details));
        QVERIFY(details.contains(bundled.source));
        QVERIFY(!details.contains(Key));
        for (auto *button : about->findChildren<QPushButton *>())
            if (button->text() == views::AboutDialog::tr("&Copy details"))
                button->click();
        QCOMPARE(QGuiApplication::clipboard()->text(), details);
    }

    void cleanupTestCase()
    {
        m_backend.reset();
        if (qEnvironmentVariable("MD_GUI_BACKEND") == "remote"_L1)
            QCOMPARE(m_server.stop(), 0);
    }
};

QTEST_MAIN(TestConsolePages)
#include "tst_consolepages.moc"
