// What the console reads from Stripe, driven as a migration engineer does
// (offscreen), on EngineBackend or over HTTP (MD_GUI_BACKEND), against
// stripe-stateful-mock (docs/processors.md): Customers ▸ Check against
// Stripe lists nothing while both agree, and the difference once Stripe
// changes; it changes nothing. The import wizard's Stripe source reads 505
// subscriptions in pages (Cancel midway drops them), matches prices to
// plans (by metadata, by product name, one left out), marks a customer on
// two plans for review, and dry-runs and commits 502 customers.
#include "models/admin/ProcessorKeyEdit.h"
#include "models/customers/StripeDriftModel.h"
#include "models/import/ImportBatch.h"
#include "models/import/ImportPreviewModel.h"
#include "models/import/ImportRunner.h"
#include "models/import/ImportSession.h"
#include "models/import/StripeSource.h"
#include "tests/gui/GuiBackend.h"
#include "tests/support/StripeMock.h"
#include "tests/support/TestDatabase.h"
#include "views/admin/ProcessorKeyDialog.h"
#include "views/admin/TenantsPage.h"
#include "views/customers/CustomersPage.h"
#include "views/customers/StripeDriftDialog.h"
#include "views/import/ImportSourcePage.h"
#include "views/import/ImportWizard.h"
#include "views/import/StripeSourcePanel.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;

namespace {

const QString Key = u"sk_test_admin00000000000000000000000000"_s;

QJsonObject create(const QString &kind, const QJsonObject &params)
{
    return {{u"create"_s, kind}, {u"params"_s, params}};
}

} // namespace

class TestFromStripe final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;
    test::ServerProcess m_server;
    std::unique_ptr<backend::BillingBackend> m_backend;
    test::StripeMock *m_stripe = nullptr;
    static constexpr int Migrated = 500;

    // Until the runner's dry run or commit is over.
    static bool runToEnd(views::ImportWizard &wizard)
    {
        QSignalSpy finished(wizard.session()->runner(), &models::ImportRunner::finished);
        return !wizard.session()->runner()->isRunning() || finished.wait(240000);
    }

private Q_SLOTS:
    // Delta (the admin workspace) reads the mock with its test key; its
    // customer "gui-linked" is on "legacy" through Stripe's sub_gui.
    void initTestCase()
    {
        QVERIFY2(m_database.error().isEmpty(), qPrintable(m_database.error()));
        QString problem;
        m_stripe = test::StripeMock::shared(&problem);
        QVERIFY2(m_stripe, qPrintable(problem));
        problem = m_stripe->seed(
            {create(u"products"_s, {{u"id"_s, u"prod_legacy"_s}, {u"name"_s, u"Legacy"_s}}),
             create(u"plans"_s,
                    {{u"id"_s, u"plan_legacy"_s},
                     {u"product"_s, u"prod_legacy"_s},
                     {u"amount"_s, 1000},
                     {u"currency"_s, u"usd"_s},
                     {u"interval"_s, u"month"_s},
                     {u"metadata"_s, QJsonObject{{u"meterdesk_plan_id"_s, u"legacy"_s}}}}),
             create(u"products"_s, {{u"id"_s, u"prod_basic"_s}, {u"name"_s, u"Basic"_s}}),
             create(u"products"_s, {{u"id"_s, u"prod_orphan"_s}, {u"name"_s, u"Orphan"_s}}),
             create(u"plans"_s, {{u"id"_s, u"plan_basic"_s},
                                 {u"product"_s, u"prod_basic"_s},
                                 {u"amount"_s, 500},
                                 {u"currency"_s, u"usd"_s},
                                 {u"interval"_s, u"month"_s}}),
             create(u"plans"_s, {{u"id"_s, u"plan_orphan"_s},
                                 {u"product"_s, u"prod_orphan"_s},
                                 {u"amount"_s, 100},
                                 {u"currency"_s, u"usd"_s},
                                 {u"interval"_s, u"month"_s}}),
             create(u"customers"_s, {{u"id"_s, u"cus_gui"_s}}),
             create(u"subscriptions"_s,
                    {{u"id"_s, u"sub_gui"_s},
                     {u"customer"_s, u"cus_gui"_s},
                     {u"items"_s, QJsonArray{QJsonObject{{u"plan"_s, u"plan_legacy"_s},
                                                         {u"quantity"_s, 2}}}}})});
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        // The wizard's account: 500 on legacy (the first also on basic), 2
        // on basic, 3 on a price no plan is for.
        QJsonArray customers;
        QJsonArray subscriptions;
        const auto add = [&](const QString &customer, const QString &subscription,
                             const QString &plan) {
            if (!subscription.endsWith(u'b'))
                customers.append(create(
                    u"customers"_s,
                    {{u"id"_s, customer}, {u"email"_s, QString(customer + u"@stripe.example"_s)}}));
            subscriptions.append(create(
                u"subscriptions"_s,
                {{u"id"_s, subscription},
                 {u"customer"_s, customer},
                 {u"items"_s, QJsonArray{QJsonObject{{u"plan"_s, plan}, {u"quantity"_s, 1}}}}}));
        };
        for (int i = 0; i < Migrated; ++i)
            add(u"cus_w%1"_s.arg(i, 3, 10, QChar(u'0')), u"sub_w%1"_s.arg(i, 3, 10, QChar(u'0')),
                u"plan_legacy"_s);
        add(u"cus_w000"_s, u"sub_w000b"_s, u"plan_basic"_s);
        for (int i = 0; i < 2; ++i)
            add(u"cus_b%1"_s.arg(i), u"sub_b%1"_s.arg(i), u"plan_basic"_s);
        for (int i = 0; i < 3; ++i)
            add(u"cus_o%1"_s.arg(i), u"sub_o%1"_s.arg(i), u"plan_orphan"_s);
        for (const QJsonValue &step : std::as_const(subscriptions))
            customers.append(step);
        problem = m_stripe->seed(customers);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        qputenv("MD_STRIPE_API_BASE", m_stripe->url().toString().toUtf8());
        m_backend = test::openLoadedBackend(
            m_database.location(), QStringLiteral(MD_ADMIN_WORKSPACE), Key, m_server, &problem);
        QVERIFY2(m_backend, qPrintable(problem));
        problem = test::StripeMock::connectTestKey(m_database.location(), u"delta"_s,
                                                   u"sk_test_meterdesk_gui_000000001"_s);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        api::ImportCustomerRequest request;
        request.customerId = u"gui-linked"_s;
        api::Billable billable;
        billable.link = api::BillableLink{u"sub_gui"_s, {}};
        billable.plan.planId = u"legacy"_s;
        request.billables = {billable};
        auto imported = m_backend->importCustomer(request);
        imported.waitForFinished();
        QVERIFY2(imported.result().ok(),
                 imported.result().ok() ? "" : qPrintable(imported.result().error().message));
    }

    void cleanupTestCase()
    {
        m_backend.reset();
        m_server.stop();
    }

    void checkAgainstStripeListsWhatChanged()
    {
        views::CustomersPage page(m_backend.get());
        page.show();
        page.checkStripe()->click();
        auto *dialog = page.findChild<views::StripeDriftDialog *>();
        QVERIFY(dialog);
        QAbstractItemModelTester tester(dialog->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_VERIFY(!dialog->model()->busy());
        // Every imported customer (none selected): one plan, agreeing,
        // but for the mock's month end (tst_conformance_stripe says why).
        QVERIFY2(dialog->summary()->text().contains(u"1 plan"_s),
                 qPrintable(dialog->summary()->text()));
        for (int row = 0; row < dialog->model()->rowCount(); ++row)
            QCOMPARE(dialog->model()->drift(row).field, u"current_period_end"_s);
        const int agreeing = dialog->model()->rowCount();
        const QString problem =
            m_stripe->seed({QJsonObject{{u"quantity"_s, 7}, {u"subscription"_s, u"sub_gui"_s}}});
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        dialog->checkAgain()->click();
        QVERIFY(!dialog->checkAgain()->isEnabled()); // one check at a time
        QTRY_VERIFY(!dialog->model()->busy());
        QVERIFY(dialog->checkAgain()->isEnabled());
        QCOMPARE(dialog->model()->rowCount(), agreeing + 1);
        int row = 0;
        while (row < dialog->model()->rowCount() &&
               dialog->model()->drift(row).field != "quantity"_L1)
            ++row;
        QVERIFY(row < dialog->model()->rowCount());
        const auto cell = [&](int column) {
            return dialog->model()->index(row, column).data().toString();
        };
        QCOMPARE(cell(models::StripeDriftModel::FieldColumn), u"Quantity"_s);
        QCOMPARE(cell(models::StripeDriftModel::MeterdeskColumn), u"2"_s);
        QCOMPARE(cell(models::StripeDriftModel::StripeColumn), u"7"_s);
        QVERIFY(dialog->summary()->text().contains(u"Nothing was changed"_s));
        // Nothing was: Meterdesk still holds two.
        auto customer = m_backend->customer(u"gui-linked"_s);
        customer.waitForFinished();
        QCOMPARE(customer.result().value().subscriptions.first().quantity,
                 api::Decimal::fromInteger(2));
    }

    void theWizardImportsFromStripe()
    {
        using views::ImportWizard;
        ImportWizard wizard(m_backend.get());
        wizard.show();
        QTRY_VERIFY(!wizard.session()->target().isEmpty());
        QTRY_VERIFY(!wizard.session()->planNames().isEmpty());
        auto *source =
            qobject_cast<views::ImportSourcePage *>(wizard.page(ImportWizard::SourcePage));
        source->fromStripeButton()->click();
        views::StripeSourcePanel *stripe = source->stripe();
        QVERIFY(stripe->isEnabled());
        QAbstractItemModelTester tester(wizard.session()->preview(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);

        // Cancel after the first page: nothing is kept, nothing to import.
        models::StripeSource *reading = wizard.session()->stripe();
        QSignalSpy canceled(reading, &models::StripeSource::canceled);
        auto once = connect(reading, &models::StripeSource::progressed, stripe,
                            [stripe] { stripe->cancelButton()->click(); });
        stripe->readButton()->click();
        QVERIFY(!stripe->readButton()->isEnabled());
        QVERIFY(canceled.wait(60000));
        disconnect(once);
        QVERIFY(reading->subscriptions().isEmpty());
        QVERIFY(stripe->readButton()->isEnabled());
        QVERIFY(!wizard.button(QWizard::NextButton)->isEnabled());

        // Read to the end: three prices, matched by metadata and by product
        // name, one left out.
        QSignalSpy finished(reading, &models::StripeSource::finished);
        stripe->readButton()->click();
        QVERIFY(finished.wait(120000));
        QCOMPARE(reading->subscriptions().size(), Migrated + 1 + 2 + 3 + 1); // + sub_gui
        QTableWidget *prices = stripe->prices();
        QCOMPARE(prices->rowCount(), 3);
        QHash<QString, QString> mapped;
        for (int row = 0; row < prices->rowCount(); ++row)
            mapped.insert(prices->item(row, views::StripeSourcePanel::PriceColumn)->text(),
                          qobject_cast<QComboBox *>(
                              prices->cellWidget(row, views::StripeSourcePanel::PlanColumn))
                              ->currentData()
                              .toString());
        QCOMPARE(mapped, (QHash<QString, QString>{{u"plan_legacy"_s, u"legacy"_s},
                                                  {u"plan_basic"_s, u"basic"_s},
                                                  {u"plan_orphan"_s, QString()}}));
        // 500 + 2 + gui-linked's Stripe customer (already imported as gui-linked: a new id).
        QVERIFY2(stripe->status()->text().startsWith(u"503 customer"_s),
                 qPrintable(stripe->status()->text()));
        QVERIFY2(stripe->status()->text().contains(u"3 left out"_s),
                 qPrintable(stripe->status()->text()));
        QTRY_VERIFY(wizard.button(QWizard::NextButton)->isEnabled());
        wizard.next();
        QCOMPARE(wizard.currentId(), int(ImportWizard::ValidationPage));
        QCOMPARE(wizard.session()->batch()->rowCount(), 503);
        wizard.next();
        QCOMPARE(wizard.currentId(), int(ImportWizard::PreviewPage));
        QVERIFY(runToEnd(wizard));
        models::ImportPreviewModel *preview = wizard.session()->preview();
        QCOMPARE(preview->outcomeCounts().at(int(models::ImportOutcome::New)), 503);
        const int twoPlans = preview->rowOf(u"cus_w000"_s);
        QVERIFY(preview->index(twoPlans, models::ImportPreviewModel::ChangesColumn)
                    .data()
                    .toString()
                    .startsWith(u"Review: on 2 plan"_s));
        wizard.next();
        QCOMPARE(wizard.currentId(), int(ImportWizard::CommitPage));
        QVERIFY(runToEnd(wizard));
        QCOMPARE(preview->commitCounts().value(models::CommitState::Committed), 503);
        auto customer = m_backend->customer(u"cus_w000"_s);
        customer.waitForFinished();
        QVERIFY(customer.result().ok());
        QCOMPARE(customer.result().value().subscriptions.size(), 2);
        QCOMPARE(customer.result().value().email, u"cus_w000@stripe.example"_s);
    }

    // Last: Tenants ▸ Stripe key… shows the key by its hint, connects a new
    // one (the field emptied at once) and keeps it nowhere in the console.
    void theStripeKeyIsConnectedFromTenants()
    {
        views::TenantsPage page(m_backend.get());
        page.show();
        page.findChild<QPushButton *>(u"stripeKey"_s)->click();
        auto *dialog = page.findChild<views::ProcessorKeyDialog *>();
        QVERIFY(dialog);
        QTRY_VERIFY(!dialog->edit()->busy());
        QVERIFY2(dialog->summary()->text().contains(u"sk_test_…0001"_s),
                 qPrintable(dialog->summary()->text()));
        QVERIFY(!dialog->connectButton()->isEnabled()); // nothing typed
        QCOMPARE(dialog->secret()->echoMode(), QLineEdit::Password);
        QTest::keyClicks(dialog->secret(), u"sk_test_meterdesk_gui_000000002"_s);
        QVERIFY(dialog->connectButton()->isEnabled());
        dialog->connectButton()->click();
        QVERIFY(dialog->secret()->text().isEmpty());
        QTRY_VERIFY(!dialog->edit()->busy());
        QVERIFY2(dialog->summary()->text().startsWith(u"Connected sk_test_…0002."_s),
                 qPrintable(dialog->summary()->text()));
        QSettings settings;
        for (const QString &key : settings.allKeys())
            QVERIFY(!settings.value(key).toString().contains(u"meterdesk_gui"_s));
        dialog->disconnectButton()->click();
        QTRY_VERIFY(!dialog->edit()->busy());
        QVERIFY(dialog->summary()->text().contains(u"No Stripe key is connected"_s));
        QVERIFY(!dialog->disconnectButton()->isEnabled());
    }
};

QTEST_MAIN(TestFromStripe)
#include "tst_fromstripe.moc"
