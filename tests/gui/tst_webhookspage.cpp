// Issue 38 in the console, as an admin drives it (offscreen), on
// EngineBackend or on RemoteBackend to a local server (MD_GUI_BACKEND): the
// Webhooks page makes an endpoint through its form and review and shows its
// secret once with a copy button; a form saved unchanged writes nothing;
// an endpoint turned off says so and sends no test; a test event's
// delivery is listed with its payload and can be sent again; the console
// on a workspace file of its own sends its webhooks, and stops cleanly.
#include "models/operator/WebhookDeliveryModel.h"
#include "models/operator/WebhookEndpointModel.h"
#include "services/embedded/EngineBackend.h"
#include "services/engine/Engine.h"
#include "services/server/WebhookSender.h"
#include "tests/gui/GuiBackend.h"
#include "tests/support/Await.h"
#include "tests/support/StubBackend.h"
#include "tests/support/TestDatabase.h"
#include "views/common/ChangeReview.h"
#include "views/operator/SecretDialog.h"
#include "views/operator/WebhookEndpointDialog.h"
#include "views/operator/WebhooksPage.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>

using namespace md;
using namespace Qt::StringLiterals;
using test::await;

namespace {

const QString Key = u"sk_test_admin00000000000000000000000000"_s; // admin-workspace.json

// One endpoint whose one delivery waits until the deliveries have been read
// `waitFor` times, then has succeeded: a receiver that answers while the
// page is shown.
class DeliveringBackend final : public test::StubBackend
{
public:
    int reads = 0;
    int endpointReads = 0;
    int waitFor = 2;

    backend::Reply<api::Page<api::WebhookEndpoint>> listWebhookEndpoints() override
    {
        ++endpointReads;
        api::WebhookEndpoint endpoint;
        endpoint.pending = reads > waitFor ? 0 : 1; // as its delivery
        endpoint.id = u"we_live"_s;
        endpoint.url = u"https://receiver.example/hooks"_s;
        endpoint.events = {u"*"_s};
        return QtFuture::makeReadyFuture(
            api::Result(api::Page<api::WebhookEndpoint>{{endpoint}, false, std::nullopt}));
    }
    backend::Reply<api::Page<api::WebhookDelivery>>
    listWebhookDeliveries(const api::WebhookDeliveriesRequest &) override
    {
        api::WebhookDelivery delivery;
        delivery.id = u"wd_live"_s;
        delivery.eventId = u"msg_live"_s;
        delivery.endpointId = u"we_live"_s;
        delivery.type = u"webhook_endpoint.test"_s;
        if (++reads > waitFor) {
            delivery.status = api::DeliveryStatus::Succeeded;
            delivery.attempts = 1;
            delivery.lastStatusCode = 200;
        }
        return QtFuture::makeReadyFuture(
            api::Result(api::Page<api::WebhookDelivery>{{delivery}, false, std::nullopt}));
    }
};

} // namespace

class TestWebhooksPage final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;
    test::ServerProcess m_server;
    std::unique_ptr<backend::BillingBackend> m_backend;

    qsizetype auditedEndpointChanges()
    {
        api::AuditLogRequest request;
        request.resourceType = u"webhook_endpoint"_s;
        request.limit = 200;
        return await(m_backend->listAuditLog(request)).value().list.size();
    }

    // Checks the events of `types` in the form's list.
    static void tick(views::WebhookEndpointDialog *dialog, const QStringList &types, bool on)
    {
        for (int row = 0; row < dialog->events()->count(); ++row)
            if (types.contains(dialog->events()->item(row)->data(Qt::UserRole).toString()))
                dialog->events()->item(row)->setCheckState(on ? Qt::Checked : Qt::Unchecked);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_database.error().isEmpty(), qPrintable(m_database.error()));
        QString problem;
        m_backend = test::openLoadedBackend(
            m_database.location(), QStringLiteral(MD_ADMIN_WORKSPACE), Key, m_server, &problem);
        QVERIFY2(m_backend, qPrintable(problem));
    }

    void anEndpointIsMadeReviewedAndItsSecretShownOnce()
    {
        views::WebhooksPage page(m_backend.get());
        QAbstractItemModelTester endpoints(page.endpoints(),
                                           QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester deliveries(page.deliveries(),
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
        page.show();
        QTRY_VERIFY(page.findChild<QLabel *>(u"webhooksEmpty"_s)->isVisible());
        views::WebhookEndpointDialog *dialog = page.newEndpoint();
        QVERIFY(!dialog->reviewButton()->isEnabled());
        QVERIFY(dialog->problemLabel()->text().contains(u"URL"_s));
        dialog->urlEdit()->setText(u"ftp://receiver.invalid/hooks"_s);
        QVERIFY(dialog->problemLabel()->text().contains(u"https://"_s));
        dialog->urlEdit()->setText(u"https://receiver.invalid/hooks"_s);
        QVERIFY(!dialog->reviewButton()->isEnabled()); // no event chosen yet
        tick(dialog, {u"balances.usage_alert_triggered"_s, u"track_queue.failed"_s}, true);
        dialog->descriptionEdit()->setText(u"On-call pager"_s);
        QVERIFY(dialog->reviewButton()->isEnabled());
        dialog->reviewButton()->click();
        QTableWidget *review = dialog->review()->table();
        QCOMPARE(review->rowCount(), 3);
        QCOMPARE(review->item(0, 2)->text(), u"https://receiver.invalid/hooks"_s);
        QVERIFY(review->item(1, 2)->text().contains(u"track_queue.failed"_s));
        QVERIFY(!dialog->enabledBox()->isVisibleTo(dialog)); // a new one is sent to
        dialog->saveButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(page.findChild<views::SecretDialog *>(), 10000);
        auto *secret = page.findChild<views::SecretDialog *>();
        QVERIFY(secret->secretField()->text().startsWith(u"whsec_"_s));
        QVERIFY(secret->secretField()->isReadOnly());
        secret->copyButton()->click();
        QCOMPARE(QApplication::clipboard()->text(), secret->secretField()->text());
        const QString shown = secret->secretField()->text();
        secret->accept();
        QTRY_COMPARE_WITH_TIMEOUT(page.endpoints()->rowCount(), 1, 10000);
        const api::WebhookEndpoint &made = page.endpoints()->endpoint(0);
        QVERIFY(!made.secret); // listed without it
        QCOMPARE(made.description, std::optional(u"On-call pager"_s));
        QCOMPARE(page.endpoints()
                     ->index(0, models::WebhookEndpointModel::HealthColumn)
                     .data()
                     .toString(),
                 u"Healthy"_s);
        QVERIFY(!page.findChild<QLabel *>(u"webhooksEmpty"_s)->isVisible());
        // Nowhere on the page after it is closed.
        QTRY_VERIFY(!page.findChild<views::SecretDialog *>());
        for (const QLineEdit *edit : page.findChildren<QLineEdit *>())
            QVERIFY(edit->text() != shown);
    }

    void aFormSavedUnchangedWritesNothing()
    {
        views::WebhooksPage page(m_backend.get());
        page.show();
        QTRY_COMPARE_WITH_TIMEOUT(page.endpoints()->rowCount(), 1, 10000);
        const qsizetype audited = auditedEndpointChanges();
        views::WebhookEndpointDialog *dialog = page.editEndpoint();
        QVERIFY(dialog);
        QVERIFY(!dialog->reviewButton()->isEnabled());
        // Ticked and unticked, retyped: still the same endpoint.
        tick(dialog, {u"balances.reset"_s}, true);
        QVERIFY(dialog->reviewButton()->isEnabled());
        tick(dialog, {u"balances.reset"_s}, false);
        dialog->descriptionEdit()->setText(u"On-call pager "_s);
        QVERIFY(!dialog->reviewButton()->isEnabled());
        QCOMPARE(dialog->reviewButton()->toolTip(), u"Nothing has changed yet"_s);
        dialog->reject();
        QCOMPARE(auditedEndpointChanges(), audited);
        QCOMPARE(await(m_backend->listWebhookEndpoints()).value().list.first().updatedAt,
                 page.endpoints()->endpoint(0).updatedAt);
    }

    void anEndpointTurnedOffSaysSoAndSendsNoTest()
    {
        views::WebhooksPage page(m_backend.get());
        page.show();
        QTRY_COMPARE_WITH_TIMEOUT(page.endpoints()->rowCount(), 1, 10000);
        views::WebhookEndpointDialog *dialog = page.editEndpoint();
        QVERIFY(dialog->enabledBox()->isVisibleTo(dialog));
        dialog->enabledBox()->setChecked(false);
        dialog->reviewButton()->click();
        QCOMPARE(dialog->review()->table()->rowCount(), 1);
        dialog->saveButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!page.endpoints()->endpoint(0).enabled, 10000);
        QVERIFY(page.endpoints()
                    ->index(0, models::WebhookEndpointModel::HealthColumn)
                    .data()
                    .toString()
                    .startsWith(u"Off"_s));
        QTRY_VERIFY(!page.testButton()->isEnabled());
        dialog = page.editEndpoint();
        dialog->enabledBox()->setChecked(true);
        dialog->reviewButton()->click();
        dialog->saveButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(page.endpoints()->endpoint(0).enabled, 10000);
    }

    void aTestEventIsListedWithItsPayloadAndSentAgain()
    {
        views::WebhooksPage page(m_backend.get());
        QAbstractItemModelTester deliveries(page.deliveries(),
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
        page.show();
        QTRY_COMPARE_WITH_TIMEOUT(page.endpoints()->rowCount(), 1, 10000);
        const QString id = page.endpoints()->endpoint(0).id;
        page.sendTest();
        QTRY_COMPARE_WITH_TIMEOUT(page.deliveries()->rowCount(), 1, 10000);
        QCOMPARE(
            page.deliveries()->index(0, models::WebhookDeliveryModel::TypeColumn).data().toString(),
            u"webhook_endpoint.test"_s);
        QTRY_VERIFY(page.detail()->toPlainText().contains(id));
        QVERIFY(page.detail()->toPlainText().contains(u"\"type\""_s));
        QVERIFY(page.redeliverButton()->isEnabled());
        const QString eventId = page.deliveries()->delivery(0).eventId;
        page.redeliver();
        QTRY_COMPARE_WITH_TIMEOUT(page.deliveries()->rowCount(), 1, 10000);
        QCOMPARE(page.deliveries()->delivery(0).eventId, eventId); // the same event, again
        // Narrowed to failed deliveries: none (it waits, or is being tried).
        page.statusFilter()->setCurrentIndex(3);
        QTRY_COMPARE_WITH_TIMEOUT(page.deliveries()->rowCount(), 0, 10000);
    }

    // A delivery shown waiting moves on while the page is shown, without
    // F5; once none waits the page reads nothing more, and hidden it stops.
    void aWaitingDeliveryIsFollowedWhileShown()
    {
        DeliveringBackend backend;
        views::WebhooksPage page(&backend);
        page.show();
        QTRY_COMPARE(page.deliveries()->rowCount(), 1);
        QCOMPARE(page.deliveries()->delivery(0).status, api::DeliveryStatus::Pending);
        QTRY_COMPARE_WITH_TIMEOUT(page.deliveries()->delivery(0).status,
                                  api::DeliveryStatus::Succeeded, 4 * views::WebhooksPage::LiveMs);
        QCOMPARE(page.deliveryTable()->currentIndex().row(), 0); // still selected
        // The endpoint's Waiting column follows its delivery.
        const QModelIndex waiting =
            page.endpoints()->index(0, models::WebhookEndpointModel::PendingColumn);
        QTRY_COMPARE_WITH_TIMEOUT(waiting.data().toLongLong(), 0, 4 * views::WebhooksPage::LiveMs);
        QCOMPARE(page.endpointTable()->currentIndex().row(), 0);
        auto *live = page.findChild<QTimer *>(u"liveDeliveries"_s);
        QVERIFY(live && live->isActive());
        const int settled = backend.reads;
        const int endpointsSettled = backend.endpointReads;
        QSignalSpy ticks(live, &QTimer::timeout);
        QTRY_VERIFY_WITH_TIMEOUT(ticks.count() >= 2, 4 * views::WebhooksPage::LiveMs);
        QCOMPARE(backend.reads, settled); // nothing waits: nothing read
        QCOMPARE(backend.endpointReads, endpointsSettled);
        page.hide();
        QVERIFY(!live->isActive());
    }

    void theConsoleOnItsOwnWorkspaceSendsItsWebhooks()
    {
        QTemporaryDir dir;
        {
            engine::Engine setup(dir.filePath(u"own.db"_s));
            QVERIFY(setup.open().ok());
            QVERIFY(setup.loadWorkspaceFile(QStringLiteral(MD_ADMIN_WORKSPACE)).ok());
        }
        embedded::EngineBackend console(dir.filePath(u"own.db"_s), engine::Clock(), Key, {},
                                        server::WebhookSender::starter());
        QVERIFY(await(console.prepare(false)).ok());
        // .invalid never resolves: the attempt is made, and fails saying so.
        const auto made = await(console.createWebhookEndpoint(
            {u"https://receiver.invalid/hooks"_s, {u"*"_s}, std::nullopt}));
        QVERIFY(made.ok());
        QVERIFY(await(console.sendTestWebhook({made.value().id})).ok());
        api::WebhookDeliveriesRequest mine;
        mine.endpointId = made.value().id;
        QTRY_VERIFY_WITH_TIMEOUT(
            await(console.listWebhookDeliveries(mine)).value().list.value(0).attempts == 1, 30000);
        const auto tried = await(console.listWebhookDeliveries(mine)).value().list.first();
        QVERIFY2(tried.lastError && tried.lastError->contains(u"receiver.invalid"_s),
                 qPrintable(tried.lastError.value_or(QString())));
    }
};

QTEST_MAIN(TestWebhooksPage)
#include "tst_webhookspage.moc"
