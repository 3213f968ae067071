// Issue 19 in the console, as a user drives it (offscreen), on EngineBackend
// or on RemoteBackend to a local server (MD_GUI_BACKEND): failed async calls
// on the Usage page with Retry and Discard and their count in the status bar;
// a customer's billing controls in words, edited through the form, and the
// alerts they fired, each alert beside what it watches now; subscriptions
// with their current period.
#include "models/common/AmountFormat.h"
#include "models/customers/BillingControlsEdit.h"
#include "models/customers/ControlsSource.h"
#include "models/customers/UsageAlertModel.h"
#include "models/usage/FailedEventModel.h"
#include "services/engine/Engine.h"
#include "services/engine/controls/BillingControlsUpdater.h"
#include "tests/gui/GuiBackend.h"
#include "tests/support/Await.h"
#include "tests/support/TestDatabase.h"
#include "views/common/ChangeReview.h"
#include "views/customers/BillingControlsDialog.h"
#include "views/customers/CustomerControlsTab.h"
#include "views/customers/CustomersPage.h"
#include "views/usage/FailedEventsPanel.h"
#include "views/usage/UsagePage.h"
#include "views/window/MainWindow.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using test::await;

namespace {

const QString Key = u"sk_test_delta000000000000000000000000000"_s;

// One credit at openai/gpt-4o (2.50 per million input tokens, the bundled catalogue).
api::TrackTokensRequest oneCredit(const QString &customer, qint64 credits = 1)
{
    api::TrackTokensRequest call;
    call.customerId = customer;
    call.modelId = u"openai/gpt-4o"_s;
    call.inputTokens = 400'000 * credits;
    return call;
}

api::UpdateBillingControlsRequest usageLimit(const QString &customer, qint64 units)
{
    api::UpdateBillingControlsRequest request;
    request.customerId = customer;
    request.hasUsageLimits = true;
    api::UsageLimit limit;
    limit.featureId = u"credits"_s;
    limit.limit = api::Decimal::fromInteger(units);
    limit.interval = api::LimitInterval::Month;
    request.billingControls.usageLimits = {limit};
    return request;
}

} // namespace

class TestControlsPages final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;
    test::ServerProcess m_server;
    std::unique_ptr<backend::BillingBackend> m_backend;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_database.error().isEmpty(), qPrintable(m_database.error()));
        {
            // One call accepted under a limit of one credit, then failed when
            // a second one already accepted took it: two calls, one failure.
            engine::Engine setup(m_database.location());
            QVERIFY(setup.open().ok());
            QVERIFY(setup
                        .loadWorkspaceFile(
                            QStringLiteral(MD_TEST_CONFORMANCE_DIR "/controls-workspace.json"))
                        .ok());
            const engine::Scope scope = setup.authenticate(Key).value().scope;
            const auto setLimit = [&](const api::UpdateBillingControlsRequest &request) {
                return setup.withConnection([&](const QSqlDatabase &db) {
                    return engine::BillingControlsUpdater::update(db, setup.dialect(), scope,
                                                                  request, setup.now());
                });
            };
            QVERIFY(setLimit(usageLimit(u"racer"_s, 1)).ok());
            api::TrackTokensRequest async = oneCredit(u"racer"_s);
            async.async = true;
            QVERIFY(setup.trackQueue().enqueue(scope, async, {}).ok());
            QVERIFY(setup.trackQueue().enqueue(scope, async, {}).ok());
            QCOMPARE(setup.trackQueue().drain().value(), 2);
            QCOMPARE(setup.trackQueue().counts(scope).value().failed, 1);
        }
        QString problem;
        m_backend = test::openGuiBackend(m_database.location(), Key, m_server, &problem);
        QVERIFY2(m_backend, qPrintable(problem));
    }

    void failedCallsAreShownRetriedAndCounted()
    {
        views::MainWindow window(m_backend.get());
        window.connectionReady();
        QLabel *count = window.failedEventsLabel();
        QTRY_VERIFY_WITH_TIMEOUT(count->isVisibleTo(&window), 10000);
        QVERIFY2(count->text().contains(u"1 failed event"_s), qPrintable(count->text()));
        // The link opens the Usage page's list of them.
        Q_EMIT count->linkActivated(u"failed"_s);
        views::FailedEventsPanel *panel = window.usagePage()->failedEvents();
        QAbstractItemModelTester tester(panel->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_COMPARE_WITH_TIMEOUT(panel->model()->rowCount(), 1, 10000);
        QCOMPARE(
            panel->model()->index(0, models::FailedEventModel::CustomerColumn).data().toString(),
            u"racer"_s);
        QVERIFY2(panel->model()
                     ->index(0, models::FailedEventModel::ReasonColumn)
                     .data()
                     .toString()
                     .contains(u"racer"_s),
                 "the reason names the customer");
        QVERIFY(!panel->retryButton()->isEnabled()); // nothing selected
        // Raise the limit, select the call and retry: it is applied.
        QVERIFY(await(m_backend->updateBillingControls(usageLimit(u"racer"_s, 10))).ok());
        panel->table()->selectRow(0);
        QVERIFY(panel->retryButton()->isEnabled());
        QSignalSpy changed(panel, &views::FailedEventsPanel::changed);
        panel->retryButton()->click();
        // The answer may come at once (embedded) or later (remote).
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(await(m_backend->about()).value().trackQueue,
                                  (api::QueueCounts{0, 0}), 10000);
        panel->refresh();
        QTRY_COMPARE_WITH_TIMEOUT(panel->model()->rowCount(), 0, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!count->isVisibleTo(&window), 10000);
    }

    void controlsAreShownEditedAndTheirAlertsListed()
    {
        // alerting: an alert at half its 100 credits, crossed by one call.
        api::UpdateBillingControlsRequest alert;
        alert.customerId = u"alerting"_s;
        alert.hasUsageAlerts = true;
        alert.billingControls.usageAlerts = {{u"credits"_s, true, api::Decimal::fromInteger(50),
                                              api::ThresholdType::UsagePercentage, u"half"_s}};
        QVERIFY(await(m_backend->updateBillingControls(alert)).ok());
        QVERIFY(await(m_backend->trackTokens(oneCredit(u"alerting"_s, 60))).ok());

        views::CustomersPage page(m_backend.get());
        page.showCustomer(u"alerting"_s);
        views::CustomerControlsTab *tab = page.controls();
        QTRY_VERIFY_WITH_TIMEOUT(tab->editButton()->isEnabled(), 10000);
        QVERIFY2(tab->summary()->text().contains(u"alert when usage reaches 50"_s),
                 qPrintable(tab->summary()->text()));
        QAbstractItemModelTester tester(tab->alerts(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_COMPARE_WITH_TIMEOUT(tab->alerts()->rowCount(), 1, 10000);
        QVERIFY(tab->alerts()
                    ->index(0, models::UsageAlertModel::AlertColumn)
                    .data()
                    .toString()
                    .startsWith(u"half: "_s));

        // The form: a limit typed wrong names the field; typed right, it saves.
        tab->edit();
        auto *dialog = tab->findChild<views::BillingControlsDialog *>();
        QVERIFY(dialog);
        dialog->addRow(); // the usage limits tab is first
        QTableWidget *limits = dialog->usageLimits();
        QCOMPARE(limits->rowCount(), 1);
        limits->item(0, 0)->setText(u"credits"_s);
        limits->item(0, 1)->setText(u"12,5"_s);
        QVERIFY(!dialog->reviewButton()->isEnabled());
        QVERIFY2(dialog->problemLabel()->text().contains(
                     u"usage limit 1: the limit must be a number, written like 1234.5"_s),
                 qPrintable(dialog->problemLabel()->text()));
        limits->item(0, 1)->setText(u"250.5"_s);
        QVERIFY2(dialog->reviewButton()->isEnabled(), qPrintable(dialog->problemLabel()->text()));
        dialog->reviewButton()->click();
        QVERIFY(dialog->isReviewing());
        QSignalSpy saved(dialog, &views::BillingControlsDialog::saved);
        dialog->saveButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(saved.count(), 1, 10000);
        QTRY_VERIFY2_WITH_TIMEOUT(tab->summary()->text().contains(u"a month"_s),
                                  qPrintable(tab->summary()->text()), 10000);
        const auto stored = await(m_backend->billingControls({u"alerting"_s, std::nullopt}));
        QCOMPARE(stored.value().billingControls.usageLimits.first().limit,
                 *api::Decimal::parse(QByteArrayView("250.5")));
        QCOMPARE(stored.value().billingControls.usageAlerts.size(), 1); // kept
    }

    // Issue 51: the alert's quantity is added up over the rows its calls
    // draw on (the customer's own, or one entity's), and an alert already
    // past its threshold, or a percentage of no grant, is warned of.
    void alertsAreComparedWithWhatTheyWatch()
    {
        const auto row = [](const char *feature, const char *usage, const char *granted,
                            std::optional<QString> entity = std::nullopt) {
            api::BalanceRow b;
            b.featureId = QString::fromLatin1(feature);
            b.usage = *api::Decimal::parse(QByteArrayView(usage));
            b.includedGrant = *api::Decimal::parse(QByteArrayView(granted));
            b.remaining = b.includedGrant.minus(b.usage).value();
            b.entityId = entity;
            return b;
        };
        const QList<api::BalanceRow> rows{
            row("credits", "100", "100"), row("credits", "38.94", "50"),
            row("credits", "50", "60", u"e1"_s), row("calls", "7", "0")};
        using models::BillingControlsEdit;
        const models::Standing own = BillingControlsEdit::standing(rows, std::nullopt);
        QCOMPARE(own.value(u"credits"_s).usage, *api::Decimal::parse(QByteArrayView("138.94")));
        QCOMPARE(own.value(u"credits"_s).granted, api::Decimal::fromInteger(150));
        QCOMPARE(BillingControlsEdit::standing(rows, u"e1"_s).value(u"credits"_s).usage,
                 api::Decimal::fromInteger(50));

        const QLocale english(u"en_US"_s);
        models::BillingControlsForm::UsageAlert alert{u"credits"_s, u"usage"_s, u"30"_s, {}, true};
        QCOMPARE(BillingControlsEdit::now(alert, own, english), u"138.94 used"_s);
        QCOMPARE(BillingControlsEdit::warnings(0, alert, own, english),
                 QStringList{u"Usage alert 1: the usage of credits is already 138.94, past the "
                             "threshold of 30.00, so it cannot fire until a reset brings the "
                             "usage back below it."_s});
        alert.threshold = u"200"_s;
        QVERIFY(BillingControlsEdit::warnings(0, alert, own, english).isEmpty());
        alert.thresholdType = u"remaining_percentage"_s; // 11.06 of 150 left: 7.37 %
        alert.threshold = u"5"_s;
        QVERIFY(BillingControlsEdit::warnings(0, alert, own, english).isEmpty());
        alert.threshold = u"20"_s;
        alert.name = u"low"_s;
        QCOMPARE(BillingControlsEdit::warnings(1, alert, own, english).size(), 1);
        QVERIFY(BillingControlsEdit::warnings(1, alert, own, english)
                    .first()
                    .startsWith(u"Usage alert \"low\": credits already has "_s));
        alert.featureId.clear(); // every feature: calls has no grant
        alert.thresholdType = u"usage_percentage"_s;
        alert.threshold = u"95"_s;
        QCOMPARE(BillingControlsEdit::now(alert, own, english),
                 u"calls: no grant; credits: 92.626666667 % used"_s);
        QCOMPARE(BillingControlsEdit::warnings(1, alert, own, english),
                 QStringList{u"Usage alert \"low\": calls has no grant, so a percentage of it "
                             "cannot fire."_s});
    }

    // The form on spender (9 of 10 credits used): the alert's Now column,
    // and a warning while its threshold is already passed, in the review too.
    void alertFormShowsWhatTheAlertWatches()
    {
        models::ControlsSource source(m_backend.get());
        const auto answer = await(source.read({u"spender"_s, std::nullopt}));
        QVERIFY(answer.ok());
        views::BillingControlsDialog dialog(&source, answer.value());
        dialog.findChild<QTabWidget *>()->setCurrentWidget(dialog.usageAlerts());
        dialog.addRow();
        QTableWidget *alerts = dialog.usageAlerts();
        using Column = views::BillingControlsDialog::AlertColumn;
        alerts->item(0, Column::AlertFeature)->setText(u"credits"_s);
        static_cast<QComboBox *>(alerts->cellWidget(0, Column::AlertWhen))
            ->setCurrentIndex(0); // usage reaches (units)
        alerts->item(0, Column::AlertThreshold)->setText(u"5"_s);
        QTRY_COMPARE(alerts->item(0, Column::AlertNow)->text(),
                     models::formatAmount(api::Decimal::fromInteger(9)) + u" used"_s);
        QVERIFY2(dialog.alertWarnings()->text().contains(u"the usage of credits is already"_s),
                 qPrintable(dialog.alertWarnings()->text()));
        QVERIFY(dialog.reviewButton()->isEnabled()); // a warning, not a refusal
        dialog.reviewButton()->click();
        QCOMPARE(dialog.review()->note(), dialog.alertWarnings()->text());

        dialog.backButton()->click();
        alerts->item(0, Column::AlertThreshold)->setText(u"30"_s);
        QVERIFY(dialog.alertWarnings()->text().isEmpty());
        QVERIFY(!dialog.alertWarnings()->isVisibleTo(&dialog));
    }

    void subscriptionsShowTheirPeriod()
    {
        api::ImportCustomerRequest request;
        request.customerId = u"gui-period"_s;
        api::Billable billable;
        billable.plan.planId = u"metered"_s;
        request.billables = {billable};
        QVERIFY(await(m_backend->importCustomer(request)).ok());
        views::CustomersPage page(m_backend.get());
        page.showCustomer(u"gui-period"_s);
        QTRY_COMPARE_WITH_TIMEOUT(page.subscriptions()->rowCount(), 1, 10000);
        const QString period = page.subscriptions()->item(0, 3)->text();
        QVERIFY2(period.contains(u" – "_s), qPrintable(period));
    }
};

QTEST_MAIN(TestControlsPages)
#include "tst_controlspages.moc"
