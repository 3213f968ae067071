// Webhook delivery (issue 38) in one process: an engine on a clock the test
// moves, the server's senders (server::WebhookSender) and a receiver on a
// loopback port. Deliveries to an endpoint leave in the order of their
// events, each signed as Standard Webhooks says; a receiver down for a
// minute gets everything, in order, once back; retries back off and then
// fail; an endpoint failing for five days is disabled; redirects are not
// followed; only an answer's first KiB is kept; a name resolving to one of
// this machine's addresses, and plain http once the server forbids it, are
// refused at the attempt; an event written in a
// transaction rolled back sends nothing; after a rotation both secrets sign;
// the usage path tells usage alerts, a limit's first refusal in a window
// and the clock's resets.
#include "services/engine/pricing/PriceCatalogue.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/webhooks/WebhookEndpoints.h"
#include "services/engine/webhooks/WebhookOutbox.h"
#include "services/engine/webhooks/WebhookSendQueue.h"
#include "services/engine/webhooks/WebhookSignature.h"
#include "tests/trust/WebhookFixture.h"

#include <QHostInfo>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using engine::WebhookSendQueue;

class TestWebhooks final : public QObject, test::WebhookFixture
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        const QString problem = setUp();
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void cleanup() { tearDown(); }

    void deliveriesLeaveInOrderSignedPerStandardWebhooks()
    {
        const auto made = endpoint(m_receiver->url());
        const QList<QByteArray> sent = sendTests(made, 30);
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests().size(), 30, 10000);
        QCOMPARE(m_receiver->ids(), sent);
        for (const auto &request : m_receiver->requests()) {
            QCOMPARE(request.path, QByteArray("/hooks"));
            QCOMPARE(request.headers.value("content-type"), QByteArray("application/json"));
            const qint64 timestamp = request.headers.value("webhook-timestamp").toLongLong();
            QVERIFY(qAbs(timestamp - QDateTime::currentSecsSinceEpoch()) < 60);
            QCOMPARE(request.headers.value("webhook-signature"),
                     engine::WebhookSignature::sign(*made.secret, QString::fromLatin1(request.id()),
                                                    timestamp, request.body)
                         .toLatin1());
        }
        QTRY_VERIFY_WITH_TIMEOUT(deliveriesOf(made).last().status == api::DeliveryStatus::Succeeded,
                                 5000);
        for (const api::WebhookDelivery &delivery : deliveriesOf(made)) {
            QCOMPARE(delivery.attempts, 1);
            QCOMPARE(delivery.lastStatusCode, std::optional<qint64>(200));
            QCOMPARE(delivery.lastAnswer, std::optional(u"ok"_s));
        }
    }

    void aReceiverDownForAMinuteGetsEverythingInOrder()
    {
        m_receiver->down();
        const auto made = endpoint(m_receiver->url());
        const QList<QByteArray> sent = sendTests(made, 5);
        // The first is tried and fails; the others wait behind it, untried.
        QTRY_VERIFY_WITH_TIMEOUT(deliveriesOf(made).first().attempts == 1, 10000);
        const auto waiting = deliveriesOf(made);
        QVERIFY(waiting.first().lastError && !waiting.first().lastError->isEmpty());
        QCOMPARE(waiting.first().nextAttemptAt, m_now->load() + WebhookSendQueue::RetryDelaysMs[0]);
        for (qsizetype i = 1; i < waiting.size(); ++i)
            QCOMPARE(waiting.at(i).attempts, 0);
        m_now->fetch_add(60'000);
        QVERIFY(m_receiver->up());
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests().size(), 5, 10000);
        QCOMPARE(m_receiver->ids(), sent);
        QTRY_VERIFY_WITH_TIMEOUT(deliveriesOf(made).last().status == api::DeliveryStatus::Succeeded,
                                 5000);
        QCOMPARE(deliveriesOf(made).first().attempts, 2);
        QTRY_VERIFY(!api().listWebhookEndpoints(key()).value().list.first().failingSince);
    }

    void retriesBackOffThenFailAndFiveDaysDisable()
    {
        m_receiver->setAnswer({500, "down for maintenance", {}});
        const auto made = endpoint(m_receiver->url());
        sendTests(made, 1);
        const qint64 start = m_now->load();
        for (qint64 attempt = 1; attempt <= WebhookSendQueue::MaxAttempts; ++attempt) {
            QTRY_COMPARE_WITH_TIMEOUT(deliveriesOf(made).first().attempts, attempt, 10000);
            const auto delivery = deliveriesOf(made).first();
            QCOMPARE(delivery.lastStatusCode, std::optional<qint64>(500));
            QCOMPARE(delivery.lastAnswer, std::optional(u"down for maintenance"_s));
            if (attempt < WebhookSendQueue::MaxAttempts) {
                QCOMPARE(delivery.status, api::DeliveryStatus::Pending);
                const qint64 wait = WebhookSendQueue::RetryDelaysMs.at(std::size_t(attempt - 1));
                QCOMPARE(delivery.nextAttemptAt, m_now->load() + wait);
                m_now->fetch_add(wait - 1); // not yet
                QTest::qWait(50);
                QCOMPARE(deliveriesOf(made).first().attempts, attempt);
                m_now->fetch_add(1);
            } else {
                QCOMPARE(delivery.status, api::DeliveryStatus::Failed);
                QVERIFY(!delivery.nextAttemptAt);
            }
        }
        QCOMPARE(m_receiver->requests().size(), int(WebhookSendQueue::MaxAttempts));
        auto failing = api().listWebhookEndpoints(key()).value().list.first();
        QCOMPARE(failing.failingSince, std::optional(start));
        QVERIFY(failing.enabled);
        // Five days after the first failure, one more failure disables it.
        m_now->store(start + WebhookSendQueue::DisableAfterMs);
        sendTests(made, 1);
        QTRY_VERIFY_WITH_TIMEOUT(!api().listWebhookEndpoints(key()).value().list.first().enabled,
                                 10000);
        const auto disabled = api().listWebhookEndpoints(key()).value().list.first();
        QVERIFY(disabled.disabledReason && disabled.disabledReason->contains(u"five days"_s));
        // Disabled: nothing is sent, events keep; enabled again, they go.
        const qsizetype seen = m_receiver->requests().size();
        m_receiver->setAnswer({});
        QVERIFY(api().sendTestWebhook(key(), {made.id}).error().status == 400);
        api::WebhookEndpointUpdate enable;
        enable.id = made.id;
        enable.enabled = true;
        QVERIFY(api().updateWebhookEndpoint(key(), enable).ok());
        m_now->fetch_add(WebhookSendQueue::RetryDelaysMs[0]);
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests().size(), seen + 1, 10000);
    }

    void redirectsAreNotFollowedAndAnswersAreCut()
    {
        m_receiver->setAnswer({307, "elsewhere", {{"Location", m_receiver->url("/other")}}});
        const auto made = endpoint(m_receiver->url());
        sendTests(made, 1);
        QTRY_COMPARE_WITH_TIMEOUT(deliveriesOf(made).first().attempts, 1, 10000);
        const auto redirected = deliveriesOf(made).first();
        QCOMPARE(redirected.status, api::DeliveryStatus::Pending);
        QVERIFY(redirected.lastError && redirected.lastError->contains(u"redirect"_s));
        QCOMPARE(m_receiver->requests().size(), 1);
        QCOMPARE(m_receiver->requests().first().path, QByteArray("/hooks"));
        m_receiver->setAnswer({200, QByteArray(5000, 'x'), {}});
        QVERIFY(api().redeliverWebhook(key(), {redirected.id}).ok());
        m_now->fetch_add(WebhookSendQueue::RestAfterFailureMs); // the endpoint rests first
        QTRY_VERIFY_WITH_TIMEOUT(
            deliveriesOf(made).first().status == api::DeliveryStatus::Succeeded, 10000);
        QCOMPARE(deliveriesOf(made).first().lastAnswer->size(),
                 api::WebhookDelivery::MaxAnswerBytes);
    }

    void aNameResolvingInsideIsRefusedAtTheAttempt()
    {
        // This machine's name resolves to one of its own addresses (loopback,
        // or a private one in a container): a name, so the endpoint is made
        // while private addresses are allowed; then the server is strict, and
        // the address the name resolves to is refused at the attempt.
        const QString name = QHostInfo::localHostName();
        if (QHostInfo::fromName(name).addresses().isEmpty())
            QSKIP("this machine's name does not resolve");
        const auto made = endpoint("http://" + name.toLatin1() + ':' +
                                   QByteArray::number(m_receiver->port()) + "/hooks");
        m_sender.reset();
        m_engine->setWebhookPolicy({true, false});
        startSender();
        sendTests(made, 1);
        QTRY_COMPARE_WITH_TIMEOUT(deliveriesOf(made).first().attempts, 1, 10000);
        const auto refused = deliveriesOf(made).first();
        QVERIFY2(refused.lastError && refused.lastError->contains(u"resolves to"_s) &&
                     refused.lastError->contains(u"public addresses only"_s),
                 qPrintable(refused.lastError.value_or(QString())));
        QVERIFY(m_receiver->requests().isEmpty());
    }

    void httpRefusedAtTheAttemptOnceTheServerForbidsIt()
    {
        const auto made = endpoint(m_receiver->url());
        m_sender.reset();
        m_engine->setWebhookPolicy({false, true}); // restarted without --webhooks-allow-http
        startSender();
        sendTests(made, 1);
        QTRY_COMPARE_WITH_TIMEOUT(deliveriesOf(made).first().attempts, 1, 10000);
        QVERIFY(deliveriesOf(made).first().lastError->contains(u"https://"_s));
        QVERIFY(m_receiver->requests().isEmpty());
    }

    void anEventRolledBackSendsNothing()
    {
        const auto made = endpoint(m_receiver->url());
        auto db = m_engine->database().connection();
        QVERIFY(db.ok());
        {
            engine::WriteTransaction transaction(db.value(), m_engine->dialect());
            QVERIFY(transaction.begin().ok());
            engine::WebhookOutbox outbox(db.value(), m_engine->dialect(), m_scope, m_now->load());
            QVERIFY(outbox.add(u"product.updated"_s, api::JsonValue::object()).ok());
        } // rolled back
        QVERIFY(deliveriesOf(made).isEmpty());
        const QList<QByteArray> sent = sendTests(made, 1);
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->ids(), sent, 10000);
    }

    void afterARotationBothSecretsSignForADay()
    {
        const auto made = endpoint(m_receiver->url());
        const auto rotated = api().rotateWebhookSecret(key(), {made.id});
        QVERIFY(rotated.ok());
        sendTests(made, 1);
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests().size(), 1, 10000);
        const auto &request = m_receiver->requests().first();
        const qint64 timestamp = request.headers.value("webhook-timestamp").toLongLong();
        const QString id = QString::fromLatin1(request.id());
        QCOMPARE(
            request.headers.value("webhook-signature"),
            (engine::WebhookSignature::sign(*rotated.value().secret, id, timestamp, request.body) +
             u' ' + engine::WebhookSignature::sign(*made.secret, id, timestamp, request.body))
                .toLatin1());
        m_now->fetch_add(engine::WebhookEndpoints::PreviousSecretLifetimeMs + 1);
        sendTests(made, 1);
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests().size(), 2, 10000);
        QVERIFY(!m_receiver->requests().last().headers.value("webhook-signature").contains(' '));
    }

    void theUsagePathTellsAlertsLimitsAndResets()
    {
        QVERIFY(m_engine
                    ->loadWorkspaceFile(
                        QStringLiteral(MD_TEST_CONFORMANCE_DIR "/controls-workspace.json"))
                    .ok());
        auto catalogue = engine::PriceCatalogue::fromFile(
            QStringLiteral(MD_TEST_CONFORMANCE_DIR "/pricing-catalogue.json"));
        QVERIFY(catalogue.ok());
        m_engine->setCatalogue(std::make_shared<engine::PriceCatalogue>(catalogue.value()));
        auto orgs = m_engine->organizations().value();
        const auto delta = std::find_if(orgs.cbegin(), orgs.cend(),
                                        [](const auto &o) { return o.slug == "delta"_L1; });
        QVERIFY(delta != orgs.cend());
        m_scope = {delta->pk, engine::Environment::Sandbox, 0};
        const auto made = endpoint(
            m_receiver->url(), {u"balances.usage_alert_triggered"_s, u"balances.limit_reached"_s});
        api::UpdateBillingControlsRequest controls;
        controls.customerId = u"capped"_s;
        controls.hasUsageLimits = true;
        api::UsageLimit limit;
        limit.featureId = u"credits"_s;
        limit.limit = api::Decimal::fromInteger(5);
        limit.interval = api::LimitInterval::Month;
        controls.billingControls.usageLimits = {limit};
        controls.hasUsageAlerts = true;
        api::UsageAlert alert;
        alert.featureId = u"credits"_s;
        alert.threshold = api::Decimal::fromInteger(4);
        alert.thresholdType = api::ThresholdType::Usage;
        alert.name = u"four used"_s;
        controls.billingControls.usageAlerts = {alert};
        QVERIFY(api().updateBillingControls(key(), controls).ok());
        // At acme/gift a million input tokens cost one credit.
        api::TrackTokensRequest call;
        call.customerId = u"capped"_s;
        call.modelId = u"acme/gift"_s;
        call.inputTokens = 5'000'000;
        QVERIFY(api().trackTokens(key(), call).ok()); // crosses 4, fills the limit
        for (int refused = 0; refused < 3; ++refused)
            QCOMPARE(api().trackTokens(key(), call).error().code, u"usage_limit_reached"_s);
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests().size(), 2, 10000);
        QTest::qWait(100); // the refusals after the first tell nothing more
        QCOMPARE(m_receiver->requests().size(), 2);
        const auto body = [&](int i) {
            return api::JsonValue::parse(m_receiver->requests().at(i).body, {}).value();
        };
        QCOMPARE(body(0).value("type"_L1).toString(), u"balances.usage_alert_triggered"_s);
        const api::JsonValue fired = body(0).value("data"_L1);
        QCOMPARE(fired.value("customer_id"_L1).toString(), u"capped"_s);
        QCOMPARE(fired.value("feature_id"_L1).toString(), u"credits"_s);
        QCOMPARE(fired.value("name"_L1).toString(), u"four used"_s);
        QCOMPARE(fired.value("value"_L1).numberText(), QByteArrayView("5"));
        QCOMPARE(body(1).value("type"_L1).toString(), u"balances.limit_reached"_s);
        const api::JsonValue reached = body(1).value("data"_L1);
        QCOMPARE(reached.value("limit"_L1).toString(), u"usage"_s);
        QCOMPARE(reached.value("code"_L1).toString(), u"usage_limit_reached"_s);
        QVERIFY(reached.value("window_start"_L1).isNumber());
        // The next month's window: its first refusal is told again.
        api::WebhookEndpointUpdate resets;
        resets.id = made.id;
        resets.events = QStringList{u"balances.limit_reached"_s, u"balances.reset"_s};
        QVERIFY(api().updateWebhookEndpoint(key(), resets).ok());
        m_now->fetch_add(32LL * 86'400'000);
        QVERIFY(api().trackTokens(key(), call).ok());
        QCOMPARE(api().trackTokens(key(), call).error().code, u"usage_limit_reached"_s);
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests().size(), 3, 10000);
        QCOMPARE(body(2).value("type"_L1).toString(), u"balances.limit_reached"_s);
        QVERIFY(body(2).value("data"_L1).value("window_start"_L1).numberText() !=
                reached.value("window_start"_L1).numberText());
    }

    void aResetIsToldOncePerBalanceAndMoment()
    {
        endpoint(m_receiver->url(), {u"balances.reset"_s});
        constexpr qint64 ResetsAt = 4102444800000; // small.json: b_ann_pro, monthly
        m_now->store(ResetsAt + 86'400'000);
        api::ListBalancesRequest ann;
        ann.customerId = u"ann"_s;
        QVERIFY(api().listBalances(key(), ann).ok()); // a read brings the clock up to date
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests().size(), 1, 10000);
        const auto told = api::JsonValue::parse(m_receiver->requests().first().body, {}).value();
        QCOMPARE(told.value("type"_L1).toString(), u"balances.reset"_s);
        const api::JsonValue data = told.value("data"_L1);
        QCOMPARE(data.value("balance_id"_L1).toString(), u"b_ann_pro"_s);
        QCOMPARE(data.value("customer_id"_L1).toString(), u"ann"_s);
        QCOMPARE(data.value("feature_id"_L1).toString(), u"api_calls"_s);
        QCOMPARE(data.value("at"_L1).numberText(), QByteArrayView("4102444800000"));
        // What it holds after: the grant, 1000, and 500 rolled over (the rule's most).
        QCOMPARE(data.value("remaining"_L1).numberText(), QByteArrayView("1500"));
        QVERIFY(api().listBalances(key(), ann).ok());
        QTest::qWait(100);
        QCOMPARE(m_receiver->requests().size(), 1);
    }

    void aProductUpdateIsTold()
    {
        const auto made = endpoint(m_receiver->url(), {u"product.updated"_s});
        auto products = api().listProducts(key());
        QVERIFY(products.ok() && !products.value().list.isEmpty());
        api::UpdateProductRequest rename;
        rename.name = u"Renamed for a webhook"_s;
        const QString product = products.value().list.first().id;
        QVERIFY(api().updateProduct(key(), product, rename).ok());
        sendTests(made, 1); // not subscribed: a test event goes all the same
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests().size(), 2, 10000);
        const auto told = api::JsonValue::parse(m_receiver->requests().first().body, {});
        QVERIFY(told.ok());
        QCOMPARE(told.value().value("type"_L1).toString(), u"product.updated"_s);
        QCOMPARE(told.value().value("data"_L1).value("resource"_L1).value("id"_L1).toString(),
                 product);
    }
};

QTEST_GUILESS_MAIN(TestWebhooks)
#include "tst_webhooks.moc"
