// What the console reads from Stripe, driven as a migration engineer does
// (offscreen), on EngineBackend or over HTTP (MD_GUI_BACKEND), against
// stripe-stateful-mock (docs/processors.md): Customers ▸ Check against
// Stripe lists nothing while both agree, and the difference once Stripe
// changes; it changes nothing.
#include "models/customers/StripeDriftModel.h"
#include "services/engine/Engine.h"
#include "services/engine/processors/ProcessorKeys.h"
#include "tests/gui/GuiBackend.h"
#include "tests/support/StripeMock.h"
#include "tests/support/TestDatabase.h"
#include "views/customers/CustomersPage.h"
#include "views/customers/StripeDriftDialog.h"

#include <QAbstractItemModelTester>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
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
             create(u"customers"_s, {{u"id"_s, u"cus_gui"_s}}),
             create(u"subscriptions"_s,
                    {{u"id"_s, u"sub_gui"_s},
                     {u"customer"_s, u"cus_gui"_s},
                     {u"items"_s, QJsonArray{QJsonObject{{u"plan"_s, u"plan_legacy"_s},
                                                         {u"quantity"_s, 2}}}}})});
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        qputenv("MD_STRIPE_API_BASE", m_stripe->url().toString().toUtf8());
        m_backend = test::openLoadedBackend(
            m_database.location(), QStringLiteral(MD_ADMIN_WORKSPACE), Key, m_server, &problem);
        QVERIFY2(m_backend, qPrintable(problem));
        engine::Engine setup(m_database.location());
        QVERIFY(setup.open().ok());
        auto delta = setup.operatorKey(u"delta"_s, engine::Environment::Sandbox);
        QVERIFY(delta.ok());
        QVERIFY(engine::ProcessorKeys::connect(setup.database().connection().value(),
                                               setup.dialect(), delta.value().scope,
                                               u"sk_test_meterdesk_gui_000000001"_s, setup.now())
                    .ok());
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
};

QTEST_MAIN(TestFromStripe)
#include "tst_fromstripe.moc"
