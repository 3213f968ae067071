#include "tools/DemoScenes.h"

#include "models/admin/ProcessorKeyEdit.h"
#include "models/balances/BalanceListModel.h"
#include "models/balances/BalanceTotalsModel.h"
#include "models/import/ImportSession.h"
#include "models/import/StripeSource.h"
#include "models/operator/ApiKeyModel.h"
#include "models/operator/WebhookDeliveryModel.h"
#include "models/operator/WebhookEndpointModel.h"
#include "services/embedded/EngineBackend.h"
#include "tests/support/StripeMock.h"
#include "tools/ShotKit.h"
#include "views/admin/ProcessorKeyDialog.h"
#include "views/admin/ProductsPage.h"
#include "views/balances/BalancesPage.h"
#include "views/import/ImportSourcePage.h"
#include "views/import/ImportWizard.h"
#include "views/import/StripeSourcePanel.h"
#include "views/operator/ApiKeyDialog.h"
#include "views/operator/KeysPage.h"
#include "views/operator/WebhooksPage.h"
#include "views/usage/PriceCallDialog.h"
#include "views/usage/UsageImportWizard.h"
#include "views/usage/UsageRunPage.h"
#include "views/usage/UsageSourcePage.h"
#include "views/window/MainWindow.h"

#include <QCheckBox>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTableView>

namespace md::shots {

using namespace Qt::StringLiterals;

// The demo's second customer (the one the Customers shot selects) with
// billing controls and an alert its calls set off, for the Controls tab;
// answers the filter of the balance those calls drew on, for the Ledger shot.
models::BalanceFilter giveControls(backend::BillingBackend &backend)
{
    api::PageRequest firstTwo;
    firstTwo.limit = 2;
    const QString customer = answered(backend.listCustomers(firstTwo)).list.value(1).id;
    api::TrackTokensRequest call;
    call.customerId = customer;
    call.modelId = u"anthropic/claude-3-5-haiku-20241022"_s;
    call.inputTokens = 40000;
    call.outputTokens = 8000;
    const api::TrackTokensResponse first = answered(backend.trackTokens(call));
    const QString feature = first.balance ? first.balance->featureId : QString();
    const auto amount = [](const char *text) { return *api::Decimal::parse(QByteArrayView(text)); };

    api::UpdateBillingControlsRequest request;
    request.customerId = customer;
    request.hasSpendLimits = request.hasUsageLimits = request.hasUsageAlerts = true;
    request.billingControls.spendLimits = {
        {feature, true, api::SpendLimitType::Absolute, amount("25")}};
    request.billingControls.usageLimits = {{feature, true, amount("500"), api::LimitInterval::Month,
                                            api::LimitAnchor::BillingCycle, std::nullopt},
                                           {feature, true, amount("40"), api::LimitInterval::Day,
                                            api::LimitAnchor::Utc, std::nullopt}};
    const api::Decimal usage = first.balance ? first.balance->usage : api::Decimal();
    request.billingControls.usageAlerts = {
        {feature, true, usage.plus(amount("0.01")).value_or(usage), api::ThresholdType::Usage,
         u"Heavy day"_s},
        {std::nullopt, true, amount("90"), api::ThresholdType::UsagePercentage, std::nullopt}};
    answered(backend.updateBillingControls(request));
    answered(backend.trackTokens(call)); // crosses the "Heavy day" threshold
    models::BalanceFilter tracked;
    tracked.customerId = customer;
    tracked.featureId = feature;
    return tracked;
}

// The demo's sandbox and production start the same. In the sandbox "pro"
// gets a new name and a free trial and the last product is archived, so
// the promotion dialog has a change and a product only production has (with
// the reward renamed below).
void makeDifferences(backend::BillingBackend &backend)
{
    api::UpdateProductRequest pro;
    pro.name = u"Pro (2027)"_s;
    pro.freeTrial = std::optional(api::FreeTrial{api::TrialDuration::Day, 14, false});
    answered(backend.updateProduct(u"pro"_s, pro));
    const QString last = answered(backend.listProducts()).list.last().id;
    api::UpdateProductRequest archive;
    archive.archived = true;
    answered(backend.updateProduct(last, archive));
}

// Shows `window` on its Balances page with the rows and the totals loaded
// and the third row selected.
void showBalances(views::MainWindow &window)
{
    window.show();
    window.connectionReady();
    // Not the page a previous run left open.
    window.findChild<QListWidget *>(u"navigation"_s)->setCurrentRow(0);
    auto *balances = window.balancesPage();
    settle([&] {
        return balances->model()->rowCount() > 0 && !balances->model()->isLoading() &&
               balances->model()->isLoaded(2) && balances->totals()->totals().has_value();
    });
    balances->table()->selectRow(2);
    idle();
}

// Tools ▸ Price a call… for `customer`, once it has its quote.
void shootPriceCall(backend::BillingBackend &backend, QWidget *window, const QString &customer,
                    const QString &file)
{
    views::PriceCallDialog price(&backend, window);
    price.setCustomer(customer);
    price.setModel(u"anthropic/claude-3-5-haiku-20241022"_s);
    price.setTokens({12000, 3400, 5000});
    price.show();
    settle([&] { return price.quote().has_value(); });
    price.grab().save(file);
    price.close();
}

void addWebhookEndpoints(backend::BillingBackend &backend)
{
    answered(backend.createWebhookEndpoint(
        {u"https://hooks.northwind.example/meterdesk"_s,
         {u"balances.usage_alert_triggered"_s, u"balances.limit_reached"_s, u"balances.reset"_s,
          u"balances.expired"_s},
         u"Finance alerts: Slack #billing"_s}));
    const api::WebhookEndpoint everything = answered(backend.createWebhookEndpoint(
        {u"https://ops.northwind.example/billing-events"_s, {u"*"_s}, u"Data warehouse"_s}));
    answered(backend.sendTestWebhook({everything.id}));
}

// Shows `page` as a person would: through the sidebar.
void choosePage(views::MainWindow &window, QWidget *page)
{
    auto *navigation = window.findChild<QListWidget *>(u"navigation"_s);
    navigation->setCurrentRow(window.findChild<QStackedWidget *>()->indexOf(page));
}

void shootWebhooks(views::MainWindow &window, const QDir &out, const QString &palette)
{
    choosePage(window, window.webhooksPage());
    views::WebhooksPage *page = window.webhooksPage();
    settle([&] { return page->endpoints()->rowCount() == 2; });
    page->endpointTable()->selectRow(1);
    settle([&] { return page->deliveries()->rowCount() > 1 && !page->deliveries()->isLoading(); });
    page->deliveryTable()->selectRow(0);
    idle();
    window.grab().save(out.filePath(u"webhooks-%1.png"_s.arg(palette)));
    page->endpointTable()->selectRow(0);
    settle([&] { return page->deliveries()->rowCount() > 0 && !page->deliveries()->isLoading(); });
    page->editEndpoint();
    idle();
    auto *dialog = page->findChild<QDialog *>();
    dialog->grab().save(out.filePath(u"webhook-edit-%1.png"_s.arg(palette)));
    dialog->close();
}

QString addApiKeys(backend::BillingBackend &backend)
{
    const qint64 day = 86'400'000;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    answered(backend.createApiKey({u"Billing sync (ERP)"_s,
                                   {u"balances:write"_s, u"billing:write"_s, u"plans:write"_s},
                                   std::nullopt}));
    const api::ApiKey laptop =
        answered(backend.createApiKey({u"Ana's old laptop"_s, {u"balances:read"_s}, std::nullopt}));
    answered(backend.revokeApiKey({laptop.id}));
    answered(backend.createApiKey(
        {u"Webhook admin"_s, {u"webhooks:read"_s, u"webhooks:write"_s}, now + 30 * day}));
    return *answered(backend.createApiKey(
                         {u"Finance dashboard"_s, {u"balances:read"_s}, now + 90 * day}))
                .secret;
}

void shootKeys(views::MainWindow &window, const QDir &out, const QString &palette)
{
    views::KeysPage *page = window.keysPage();
    choosePage(window, page);
    settle([&] { return page->keys()->rowCount() >= 4; }); // addApiKeys()' four
    page->table()->selectRow(0);
    idle();
    window.grab().save(out.filePath(u"keys-%1.png"_s.arg(palette)));
    // The new key's form, filled in as an admin would before Create key.
    views::ApiKeyDialog *dialog = page->newKey();
    dialog->nameField()->setText(u"Usage export (nightly)"_s);
    dialog->scopeBox(u"balances:read"_s)->setChecked(true);
    dialog->scopeBox(u"billing:read"_s)->setChecked(true);
    dialog->expiresBox()->setChecked(true);
    idle();
    dialog->grab().save(out.filePath(u"key-new-%1.png"_s.arg(palette)));
    dialog->close();
}

void shootReadOnly(const QString &location, const QString &readKey, const QDir &out,
                   const QString &palette)
{
    embedded::EngineBackend reader(location, engine::Clock(), readKey);
    auto prepared = reader.prepare(false);
    settle([&] { return prepared.isFinished(); });
    views::MainWindow window(&reader);
    window.resize(1280, 760);
    window.connectionReady();
    auto *badge = window.findChild<QLabel *>(u"readOnlyBadge"_s);
    settle([&] { return badge->isVisibleTo(&window); });
    views::ProductsPage *products = window.productsPage();
    choosePage(window, products);
    settle([&] { return products->table()->model()->rowCount() > 0; });
    products->table()->selectRow(0);
    window.show();
    idle();
    window.grab().save(out.filePath(u"read-only-%1.png"_s.arg(palette)));
}

void shootUsageImport(backend::BillingBackend &backend, views::MainWindow &window, const QDir &work,
                      const QDir &out, const QString &palette)
{
    // Customers who hold API calls, a week of their past usage, and the
    // mistakes a real export has: a word for a number, a customer that is gone.
    api::ListBalancesRequest request;
    request.featureId = u"api_calls"_s;
    request.limit = 6;
    auto holders = backend.listBalances(request);
    settle([&] { return holders.isFinished(); });
    QStringList lines{u"customer,feature,quantity,time"_s};
    const qint64 day = 86'400'000;
    const qint64 start = QDateTime::currentMSecsSinceEpoch() - 7 * day;
    int row = 0;
    for (const api::BalanceRow &balance : holders.result().value().list)
        for (int d = 0; d < 7; ++d)
            lines.append(u"%1,api_calls,%2,%3"_s.arg(balance.customerId)
                             .arg(40 + 17 * (row++ % 9))
                             .arg(start + d * day));
    lines.append(u"%1,api_calls,twelve,%2"_s.arg(holders.result().value().list.first().customerId)
                     .arg(start));
    lines.append(u"retired-customer-77,api_calls,5,%1"_s.arg(start));
    const QString path = work.filePath(u"past-usage.csv"_s);
    QFile file(path);
    file.open(QIODevice::WriteOnly);
    file.write(lines.join(u'\n').toUtf8() + '\n');
    file.close();

    views::UsageImportWizard wizard(&backend, &window);
    wizard.show();
    auto *source = static_cast<views::UsageSourcePage *>(wizard.currentPage());
    source->pathEdit()->setText(path);
    source->readFile(path);
    settle([&] { return !source->isReading() && source->isComplete(); });
    idle();
    wizard.grab().save(out.filePath(u"usage-import-source-%1.png"_s.arg(palette)));
    wizard.next();
    auto *dryRun = static_cast<views::UsageRunPage *>(wizard.currentPage());
    settle([&] { return dryRun->isComplete(); });
    idle();
    wizard.grab().save(out.filePath(u"usage-import-dryrun-%1.png"_s.arg(palette)));
    wizard.reject();
}

bool seedStripe(QString *problem)
{
    test::StripeMock *stripe = test::StripeMock::shared(problem);
    if (!stripe)
        return false;
    const auto create = [](const QString &kind, const QJsonObject &params) {
        return QJsonObject{{u"create"_s, kind}, {u"params"_s, params}};
    };
    const auto price = [&](const QString &id, const QString &product, int cents,
                           const QJsonObject &metadata) {
        return create(u"plans"_s, {{u"id"_s, id},
                                   {u"product"_s, product},
                                   {u"amount"_s, cents},
                                   {u"currency"_s, u"usd"_s},
                                   {u"interval"_s, u"month"_s},
                                   {u"metadata"_s, metadata}});
    };
    QJsonArray steps{
        create(u"products"_s, {{u"id"_s, u"prod_pro"_s}, {u"name"_s, u"Pro"_s}}),
        create(u"products"_s, {{u"id"_s, u"prod_starter"_s}, {u"name"_s, u"Starter"_s}}),
        create(u"products"_s, {{u"id"_s, u"prod_legacy"_s}, {u"name"_s, u"Legacy seats"_s}}),
        price(u"price_pro_monthly"_s, u"prod_pro"_s, 4900, {{u"meterdesk_plan_id"_s, u"pro"_s}}),
        price(u"price_starter_monthly"_s, u"prod_starter"_s, 1900, {}),
        price(u"price_legacy_seat"_s, u"prod_legacy"_s, 500, {})};
    const QStringList names{u"Harbor Analytics"_s, u"Lumen Labs"_s,    u"Orbit Health"_s,
                            u"Cedar Logistics"_s,  u"Nimbus Retail"_s, u"Quartz Legal"_s,
                            u"Maple Studio"_s,     u"Vertex Farms"_s,  u"Atlas Dental"_s};
    QJsonArray subscriptions;
    for (int i = 0; i < names.size(); ++i) {
        const QString customer = u"cus_%1"_s.arg(QString(names.at(i)).remove(u' '));
        steps.append(
            create(u"customers"_s, {{u"id"_s, customer},
                                    {u"email"_s, u"billing@%1.example"_s.arg(
                                                     names.at(i).section(u' ', 0, 0).toLower())}}));
        const QString plan = i % 4 == 3   ? u"price_legacy_seat"_s
                             : i % 2 == 0 ? u"price_pro_monthly"_s
                                          : u"price_starter_monthly"_s;
        subscriptions.append(
            create(u"subscriptions"_s,
                   {{u"customer"_s, customer},
                    {u"items"_s,
                     QJsonArray{QJsonObject{{u"plan"_s, plan}, {u"quantity"_s, 1 + i % 3}}}}}));
    }
    for (const QJsonValue &step : std::as_const(subscriptions))
        steps.append(step);
    *problem = stripe->seed(steps);
    if (!problem->isEmpty())
        return false;
    qputenv("MD_STRIPE_API_BASE", stripe->url().toString().toUtf8());
    return true;
}

bool connectStripe(const QString &database)
{
    return test::StripeMock::connectTestKey(database, u"demo"_s,
                                            u"sk_test_meterdesk_screenshots_01"_s)
        .isEmpty();
}

void shootStripeKey(backend::BillingBackend &backend, QWidget *window, const QDir &out,
                    const QString &palette)
{
    views::ProcessorKeyDialog dialog(&backend, window);
    dialog.show();
    settle([&] { return !dialog.edit()->busy(); });
    dialog.secret()->setText(u"sk_test_screenshot_not_a_real_key_0002"_s);
    idle();
    dialog.grab().save(out.filePath(u"stripe-key-%1.png"_s.arg(palette)));
    dialog.secret()->clear();
    dialog.close();
}

void shootStripeSource(backend::BillingBackend &backend, QWidget *window, const QDir &out,
                       const QString &palette)
{
    views::ImportWizard wizard(&backend, window);
    wizard.resize(980, 760);
    wizard.show();
    settle([&] { return !wizard.session()->planNames().isEmpty(); });
    auto *source =
        static_cast<views::ImportSourcePage *>(wizard.page(views::ImportWizard::SourcePage));
    source->fromStripeButton()->click();
    QSignalSpy finished(wizard.session()->stripe(), &models::StripeSource::finished);
    source->stripe()->readButton()->click();
    settle([&] { return !finished.isEmpty(); });
    idle();
    wizard.grab().save(out.filePath(u"import-stripe-%1.png"_s.arg(palette)));
    wizard.close();
}

} // namespace md::shots
