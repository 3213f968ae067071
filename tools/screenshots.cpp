// Regenerates docs/screenshots: the real console on a demo workspace, each
// page in a light and a dark palette, grabbed with QWidget::grab(). Beside
// them, a few variants (not every page, to keep the committed set small):
// the Balances page in windows of 1280x720 and 1920x1080, both palettes
// (balances-light-1280x720.png, …), and in German, light, the Balances page
// and the price-a-call dialog (balances-light-de.png, price-call-light-de.png).
// Usage: meterdesk-screenshots OUTPUT_DIR (run by scripts/screenshots.sh).
#include "models/admin/ProductListModel.h"
#include "models/admin/PromotionModel.h"
#include "models/admin/RewardListModel.h"
#include "models/admin/TenantListModel.h"
#include "models/balances/BalanceAdjustEdit.h"
#include "models/balances/BalanceFilter.h"
#include "models/balances/BalanceListModel.h"
#include "models/balances/BalanceTotalsModel.h"
#include "models/balances/LedgerModel.h"
#include "models/common/AmountFormat.h"
#include "models/customers/ChargePeriodsModel.h"
#include "models/customers/CustomerListModel.h"
#include "models/customers/UsageAlertModel.h"
#include "models/import/ImportBatch.h"
#include "models/import/ImportRunner.h"
#include "models/import/ImportSession.h"
#include "models/operator/AuditLogModel.h"
#include "models/operator/SandboxClockModel.h"
#include "models/revenue/RevenueHistory.h"
#include "models/revenue/RevenueTableModel.h"
#include "models/usage/UsageEventModel.h"
#include "models/usage/UsageTotalsSource.h"
#include "services/embedded/EngineBackend.h"
#include "services/engine/workspace/DemoWorkspace.h"
#include "tools/DemoScenes.h"
#include "tools/ShotKit.h"
#include "views/admin/ProductDialog.h"
#include "views/admin/ProductsPage.h"
#include "views/admin/PromotionDialog.h"
#include "views/admin/RewardDialog.h"
#include "views/admin/RewardsPage.h"
#include "views/admin/TenantsPage.h"
#include "views/balances/AdjustBalanceDialog.h"
#include "views/balances/BalanceDetailPane.h"
#include "views/balances/BalanceLedgerTab.h"
#include "views/balances/BalancesPage.h"
#include "views/connection/ConnectionDialog.h"
#include "views/customers/CustomerChargesTab.h"
#include "views/customers/CustomerControlsTab.h"
#include "views/customers/CustomersPage.h"
#include "views/import/ImportPreviewPage.h"
#include "views/import/ImportSourcePage.h"
#include "views/import/ImportValidationPage.h"
#include "views/import/ImportWizard.h"
#include "views/operator/AuditPage.h"
#include "views/operator/SandboxClockDialog.h"
#include "views/revenue/RevenuePage.h"
#include "views/usage/PriceCallDialog.h"
#include "views/usage/UsageChart.h"
#include "views/usage/UsagePage.h"
#include "views/window/AboutDialog.h"
#include "views/window/MainWindow.h"
#include "views/window/Translator.h"

#include <QApplication>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QStyleFactory>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>

using namespace md;
using namespace md::shots;
using namespace Qt::StringLiterals;

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(u"MeterdeskScreenshots"_s);
    QApplication::setApplicationName(u"meterdesk"_s);
    QApplication::setStyle(QStyleFactory::create(u"Fusion"_s));
    views::Translator::install(QLocale(QLocale::English)); // as the console starts in English
    const QDir out(app.arguments().value(1, u"docs/screenshots"_s));
    QDir().mkpath(out.path());

    QTemporaryDir dir;
    // What File ▸ Connect lists; scripts/screenshots.sh gives this tool a
    // settings folder of its own.
    models::RecentConnections::remember(
        {models::Connection::Kind::Postgres, u"postgresql://finance@db.internal/billing"_s});
    models::RecentConnections::remember(
        {models::Connection::Kind::Sqlite, u"/home/ana/billing/q3-migration.db"_s});
    QString stripeProblem;
    if (!seedStripe(&stripeProblem))
        qFatal("no Stripe for the import's pictures: %s", qPrintable(stripeProblem));
    embedded::EngineBackend backend(dir.filePath(u"demo.db"_s));
    auto prepared = backend.prepare(true);
    settle([&] { return prepared.isFinished(); });
    if (!connectStripe(dir.filePath(u"demo.db"_s)))
        qFatal("cannot connect the demo's Stripe key");
    addWebhookEndpoints(backend);
    const QString readKey = addApiKeys(backend);
    const models::BalanceFilter tracked = giveControls(backend);

    makeDifferences(backend);

    // One write before any picture, so the Audit page has an entry to show
    // and both palettes show the same rewards.
    api::UpdateRewardRequest rename;
    rename.rewardId = u"ai_welcome"_s;
    api::FeatureGrantUpdate grant;
    grant.name = u"AI welcome credits (2027)"_s;
    rename.featureGrant = grant;
    auto renamed = backend.updateReward(rename);
    settle([&] { return renamed.isFinished(); });

    const QPalette light = QApplication::style()->standardPalette();
    const std::pair<QString, QPalette> palettes[] = {{u"light"_s, light},
                                                     {u"dark"_s, darkPalette()}};
    QString pricedCustomer; // the German price-call shot prices the same call
    for (const auto &[name, palette] : palettes) {
        QApplication::setPalette(palette);
        views::MainWindow window(&backend);
        window.resize(1280, 760);
        showBalances(window);
        auto *navigation = window.findChild<QListWidget *>(u"navigation"_s);
        auto *balances = window.balancesPage();
        window.grab().save(out.filePath(u"balances-%1.png"_s.arg(name)));
        // A balance in words: one with a price and a rollover.
        for (int row = 0; row < balances->model()->rowCount(); ++row) {
            const api::BalanceRow balance = balances->model()->balance(row);
            if (!balance.rollovers.isEmpty() && balance.price) {
                balances->table()->selectRow(row);
                break;
            }
        }
        auto *detail = balances->detail();
        settle([&] { return !detail->text().contains(views::BalanceDetailPane::tr("Asking…")); });
        detail->resize(900, 560);
        detail->grab().save(out.filePath(u"balance-detail-%1.png"_s.arg(name)));

        // How a balance came to hold what it holds: the calls of giveControls().
        balances->setFilter(tracked);
        settle([&] {
            return balances->model()->request().customerId == tracked.customerId &&
                   !balances->model()->isLoading() && balances->model()->isLoaded(0);
        });
        balances->table()->selectRow(0);
        detail->tabs()->setCurrentWidget(detail->ledger());
        auto *ledger = detail->ledger()->model();
        settle([&] { return ledger->rowCount() > 1 && !ledger->isLoading(); });
        for (int row = 0; row < balances->model()->rowCount(); ++row) // the row the calls drew on
            if (balances->model()->balance(row).id == ledger->entry(0).balanceId)
                balances->table()->selectRow(row);
        idle();
        window.grab().save(out.filePath(u"ledger-%1.png"_s.arg(name)));
        // Correcting it by hand, reviewed before it is written.
        views::AdjustBalanceDialog *adjust = detail->ledger()->adjustDialog();
        adjust->show();
        adjust->amountEdit()->setText(models::formatAmount(*api::Decimal::parse("-12.5")));
        adjust->reasonEdit()->setText(u"Credit note 17 was issued twice"_s);
        adjust->reviewButton()->click();
        idle();
        adjust->grab().save(out.filePath(u"adjust-review-%1.png"_s.arg(name)));
        adjust->reject();
        detail->tabs()->setCurrentIndex(0);
        balances->setFilter({});
        settle([&] {
            return !balances->model()->request().customerId && !balances->model()->isLoading() &&
                   balances->model()->isLoaded(2);
        });
        balances->table()->selectRow(2);
        // Where a credit lasts past the reset: a new balance that does not reset.
        for (int row = 0; row < balances->model()->rowCount(); ++row) {
            if (!balances->model()->isLoaded(row))
                break;
            const api::BalanceRow balance = balances->model()->balance(row);
            if (balance.unlimited || !models::BalanceAdjustEdit::resets(balance))
                continue;
            views::AdjustBalanceDialog lasting(&backend, balance, &window);
            lasting.show();
            settle([&] { return lasting.targetBox()->count() > 1; });
            lasting.targetBox()->setCurrentIndex(lasting.targetBox()->count() - 1);
            lasting.amountEdit()->setText(models::formatAmount(api::Decimal::fromInteger(25)));
            lasting.reasonEdit()->setText(u"Goodwill for the outage of 3 December"_s);
            idle();
            lasting.grab().save(out.filePath(u"adjust-lasting-%1.png"_s.arg(name)));
            break;
        }

        // The totals of the filter, by feature: amounts add up within a feature only.
        auto *groupBy = balances->findChild<QComboBox *>(u"totalsGroupBy"_s);
        groupBy->setCurrentIndex(0);
        auto *showTotals = balances->findChild<QPushButton *>(u"showTotals"_s);
        showTotals->setChecked(true);
        settle([&] { return balances->totals()->totals().has_value(); });
        window.grab().save(out.filePath(u"balance-totals-%1.png"_s.arg(name)));
        showTotals->setChecked(false);
        groupBy->setCurrentIndex(0);

        navigation->setCurrentRow(1);
        auto *customers = window.findChild<views::CustomersPage *>();
        settle([&] { return customers->model()->rowCount() > 0; });
        auto *customerTable = customers->findChild<QTableView *>(u"customerTable"_s);
        customerTable->selectRow(1);
        settle([&] { return customers->shownCustomer().has_value(); });
        window.grab().save(out.filePath(u"customers-%1.png"_s.arg(name)));
        auto *detailTabs = customers->findChild<QTabWidget *>();
        detailTabs->setCurrentWidget(customers->controls());
        settle([&] { return customers->controls()->alerts()->rowCount() > 0; });
        window.grab().save(out.filePath(u"customer-controls-%1.png"_s.arg(name)));
        // What the customer owes: the first customer with a closed
        // statement of more than its fees (usage, credits bought), that
        // statement chosen; else the last statement of the last one tried.
        detailTabs->setCurrentWidget(customers->charges());
        auto *periods = customers->charges()->periods();
        int shown = 1;
        for (int row = 1; row < std::min(60, customers->model()->rowCount()); ++row) {
            const QString id = customers->model()->customer(row).id;
            customerTable->selectRow(row);
            settle([&] { return periods->customer() == id && periods->rowCount() > 0; });
            shown = std::min(1, periods->rowCount() - 1);
            bool found = false;
            for (int p = 1; p < periods->rowCount() && !found; ++p)
                if (periods->period(p).lines.size() > 1) {
                    shown = p;
                    found = true;
                }
            if (found)
                break;
        }
        customers->charges()->periodTable()->selectRow(shown);
        idle();
        window.grab().save(out.filePath(u"customer-charges-%1.png"_s.arg(name)));
        detailTabs->setCurrentIndex(0);

        navigation->setCurrentRow(2);
        auto *products = window.productsPage();
        settle([&] { return products->model()->rowCount() > 0; });
        products->table()->selectRow(products->model()->rowOf(u"pro"_s));
        idle();
        window.grab().save(out.filePath(u"products-%1.png"_s.arg(name)));
        views::ProductDialog *product = products->editSelected();
        product->nameEdit()->setText(u"Pro (2027)"_s);
        product->items()
            ->item(0, views::ProductDialog::TiersColumn)
            ->setText(u"50000:0.003; inf:0.0015"_s);
        idle();
        product->grab().save(out.filePath(u"product-edit-%1.png"_s.arg(name)));
        product->reviewButton()->click();
        idle();
        product->grab().save(out.filePath(u"product-review-%1.png"_s.arg(name)));
        product->reject();

        views::PromotionDialog *promotion = products->promote();
        auto *differences = static_cast<models::PromotionModel *>(promotion->table()->model());
        settle([&] { return differences->rowCount() > 0; });
        for (const QString &id : {u"pro"_s, u"ai_welcome"_s})
            for (int row = 0; row < differences->rowCount(); ++row)
                if (differences->index(row, models::PromotionModel::IdColumn).data() == id)
                    differences->setData(differences->index(row, 0), Qt::Checked,
                                         Qt::CheckStateRole);
        for (int row = 0; row < differences->rowCount(); ++row)
            if (differences->index(row, models::PromotionModel::IdColumn).data() == u"pro"_s)
                promotion->table()->setCurrentIndex(differences->index(row, 0));
        idle();
        promotion->grab().save(out.filePath(u"promotion-diff-%1.png"_s.arg(name)));
        promotion->reviewButton()->click();
        idle();
        promotion->grab().save(out.filePath(u"promotion-review-%1.png"_s.arg(name)));
        promotion->reject();

        // Tools ▸ Sandbox clock…: a month on, previewed (nothing moved).
        views::SandboxClockDialog clock(&backend, &window);
        clock.show();
        settle([&] { return clock.model()->previewed().has_value(); });
        clock.table()->resizeColumnsToContents();
        idle();
        clock.grab().save(out.filePath(u"sandbox-clock-%1.png"_s.arg(name)));
        clock.reject();

        navigation->setCurrentRow(3);
        auto *rewards = window.rewardsPage();
        settle([&] { return rewards->model()->rowCount() > 0; });
        rewards->table()->selectRow(0);
        idle();
        window.grab().save(out.filePath(u"rewards-%1.png"_s.arg(name)));
        views::RewardDialog *reward = rewards->editSelected();
        reward->addCode();
        idle();
        reward->grab().save(out.filePath(u"reward-edit-%1.png"_s.arg(name)));
        reward->reject();

        navigation->setCurrentRow(4);
        auto *tenants = window.tenantsPage();
        settle([&] { return tenants->model()->rowCount() > 0; });
        idle();
        window.grab().save(out.filePath(u"tenants-%1.png"_s.arg(name)));
        views::LinkAccountDialog *link = tenants->linkAccount();
        link->testAccount()->setText(u"acct_unknown"_s);
        link->linkButton()->click();
        settle([&] {
            return link->problem()->text().startsWith(
                views::LinkAccountDialog::tr("Not linked: %1").section(u'%', 0, 0));
        });
        link->grab().save(out.filePath(u"tenant-link-%1.png"_s.arg(name)));
        link->reject();
        shootStripeKey(backend, &window, out, name);

        navigation->setCurrentRow(5);
        auto *usage = window.usagePage();
        auto *chart = usage->findChild<views::UsageChart *>();
        // The table's first page, and the chart from every event's totals.
        settle([&] {
            return !usage->model()->isLoading() && usage->model()->rowCount() > 0 &&
                   !usage->chartTotals()->isLoading() && !chart->seriesNames().isEmpty();
        });
        idle();
        window.grab().save(out.filePath(u"usage-%1.png"_s.arg(name)));

        pricedCustomer = usage->model()->events().value(0).customerId;
        shootPriceCall(backend, &window, pricedCustomer,
                       out.filePath(u"price-call-%1.png"_s.arg(name)));

        // Who changed what: the reward renamed before the first pass.
        navigation->setCurrentRow(6);
        auto *audit = window.auditPage();
        audit->refresh();
        settle([&] { return audit->model()->rowCount() > 0 && !audit->model()->isLoading(); });
        audit->table()->selectRow(0);
        idle();
        window.grab().save(out.filePath(u"audit-%1.png"_s.arg(name)));

        // What the organization billed, by month and product.
        navigation->setCurrentRow(9);
        auto *revenue = window.revenuePage();
        int tables = 0;
        const auto counting = QObject::connect(revenue->table(), &models::RevenueTableModel::loaded,
                                               revenue, [&tables] { ++tables; });
        revenue->refresh();
        settle([&] { return !revenue->history()->months().isEmpty() && tables > 0; });
        // The last closed month, by product: its fees, usage and credits bought.
        const int before = tables;
        revenue->monthChoice()->setCurrentIndex(1);
        settle([&] { return tables > before; });
        QObject::disconnect(counting);
        idle();
        window.grab().save(out.filePath(u"revenue-%1.png"_s.arg(name)));

        shootWebhooks(window, out, name);
        shootKeys(window, out, name);
        shootReadOnly(dir.filePath(u"demo.db"_s), readKey, out, name);
        shootUsageImport(backend, window, QDir(dir.path()), out, name);

        views::AboutDialog *about = window.showAbout();
        auto *catalogue = about->findChild<QLabel *>(u"catalogue"_s);
        settle([&] { return catalogue->text() != views::AboutDialog::tr("asking…"); });
        about->grab().save(out.filePath(u"about-%1.png"_s.arg(name)));
        about->close();

        // A server to connect to, recent connections below; the key field stays empty.
        views::ConnectionDialog connection(&window);
        connection.setConnection(
            {models::Connection::Kind::Remote, u"https://billing.example.com"_s});
        connection.show();
        idle();
        connection.grab().save(out.filePath(u"connect-%1.png"_s.arg(name)));
        connection.close();

        // The import wizard on a CSV with a few problems and a few existing customers.
        QStringList lines{u"customer_id,name,email,stripe_id,plan_id,status,usage:api_calls"_s};
        // The first existing customer renamed, so its preview shows an identity change.
        lines.append(customers->model()->customer(0).id +
                     u",Acme Labs Inc.,ap@acme.example,,enterprise,active,2500"_s);
        for (int r = 1; r < 3; ++r)
            lines.append(customers->model()->customer(r).id + u",,,,enterprise,active,2500"_s);
        lines.append({u"nova-ai-101,Nova AI,billing@nova.example,cus_N101,pro,active,41250"_s,
                      u"quill-102,Quill Labs,quill-at-example,cus_Q102,starter,trialing,"_s,
                      u"orbit-103,Orbit Co,ap@orbit.example,cus_O103,pro,paused,12"_s,
                      u"lumen-104,Lumen,ops@lumen.example,,free,,"_s,
                      u"vega-105,Vega Systems,finance@vega.example,cus_V105,platinum,active,"_s,
                      u"kite-106,Kite,team@kite.example,cus_K106,starter,active,250000"_s});
        const QString csv = dir.filePath(u"customers.csv"_s);
        QFile file(csv);
        file.open(QIODevice::WriteOnly);
        file.write(lines.join(u'\n').toUtf8() + '\n');
        file.close();
        views::ImportWizard wizard(&backend, &window);
        wizard.show();
        static_cast<views::ImportSourcePage *>(wizard.page(views::ImportWizard::SourcePage))
            ->openFile(csv);
        // Read, and the workspace's plans known, so platinum is flagged on its cell.
        settle([&] {
            return !wizard.session()->batch()->isReading() &&
                   wizard.session()->batch()->knowsPlans();
        });
        wizard.next();
        idle();
        wizard.grab().save(out.filePath(u"import-mapping-%1.png"_s.arg(name)));
        wizard.next();
        auto *validation = static_cast<views::ImportValidationPage *>(wizard.currentPage());
        validation->table()->setCurrentIndex(validation->table()->model()->index(4, 4));
        idle();
        wizard.grab().save(out.filePath(u"import-validation-%1.png"_s.arg(name)));
        models::ImportBatch *batch = wizard.session()->batch();
        batch->setData(batch->index(4, 4), u"ap@quill.example"_s);
        batch->setData(batch->index(5, 7), u"active"_s);
        wizard.next();
        settle([&] { return !wizard.session()->runner()->isRunning(); });
        auto *preview = static_cast<views::ImportPreviewPage *>(wizard.currentPage());
        preview->table()->selectRow(0);
        idle();
        wizard.grab().save(out.filePath(u"import-preview-%1.png"_s.arg(name)));
        wizard.close();
        shootStripeSource(backend, &window, out, name);
        window.close();
    }

    // The screens people have: does everything fit, totals and status bar
    // included? The Balances page has the most to fit.
    for (const auto &[name, palette] : palettes) {
        QApplication::setPalette(palette);
        for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
            views::MainWindow window(&backend);
            window.resize(size);
            showBalances(window);
            window.grab().save(out.filePath(
                u"balances-%1-%2x%3.png"_s.arg(name).arg(size.width()).arg(size.height())));
            window.close();
        }
    }

    // German, dates and numbers included, in the window the English shots use.
    views::Translator::install(QLocale(QLocale::German, QLocale::Germany));
    QApplication::setPalette(light);
    views::MainWindow window(&backend);
    window.resize(1280, 760);
    showBalances(window);
    window.grab().save(out.filePath(u"balances-light-de.png"_s));
    shootPriceCall(backend, &window, pricedCustomer, out.filePath(u"price-call-light-de.png"_s));
    window.close();
    return 0;
}
