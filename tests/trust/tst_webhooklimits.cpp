// What a webhook endpoint may take (issue 51), in one process with the
// server's senders and loopback receivers: receivers that accept and never
// answer, redelivered to, delay no other organization's deliveries; an
// organization has no more than its share in flight; an endpoint whose
// attempt failed rests, even when redelivered, and then takes the failing
// endpoints' share only; an answer of any length keeps its first KiB; an
// IPv6 address that carries an IPv4 one is judged by the one it carries.
#include "services/engine/webhooks/WebhookSendQueue.h"
#include "services/engine/webhooks/WebhookUrlRule.h"
#include "tests/trust/WebhookFixture.h"

#include <QElapsedTimer>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using engine::WebhookSendQueue;

class TestWebhookLimits final : public QObject, test::WebhookFixture
{
    Q_OBJECT

    // `count` endpoints of this organization whose receiver holds every
    // request, each with a test event to send.
    QList<api::WebhookEndpoint> hangingEndpoints(int count)
    {
        m_receiver->hold();
        QList<api::WebhookEndpoint> made;
        for (int i = 0; i < count; ++i) {
            made.append(endpoint(m_receiver->url()));
            sendTests(made.last(), 1);
        }
        return made;
    }

    api::Result<std::optional<WebhookSendQueue::Batch>>
    claim(const WebhookSendQueue::Eligible &eligible)
    {
        return m_engine->withWriterConnection([&](const QSqlDatabase &db) {
            return WebhookSendQueue(db, m_engine->dialect(), u"test"_s)
                .claim(m_now->load(), std::chrono::minutes(1), 100, eligible);
        });
    }

    api::Result<api::Done> finish(const WebhookSendQueue::Batch &batch,
                                  const WebhookSendQueue::Outcome &outcome)
    {
        return m_engine->withWriterConnection([&](const QSqlDatabase &db) {
            return WebhookSendQueue(db, m_engine->dialect(), u"test"_s)
                .finish(batch, {outcome}, m_now->load());
        });
    }

private Q_SLOTS:
    void init()
    {
        const QString problem = setUp();
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void cleanup() { tearDown(); }

    void aHangingOrganizationDelaysNoOther()
    {
        // Four endpoints that accept and never answer, redelivered to.
        const auto hanging = hangingEndpoints(4);
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->held(), 4, 10000);
        for (const api::WebhookEndpoint &made : hanging)
            QVERIFY(api().redeliverWebhook(key(), {deliveriesOf(made).first().id}).ok());
        const engine::Scope other = otherOrganization(u"beta"_s);
        test::WebhookReceiver answering;
        QVERIFY(answering.up());
        QElapsedTimer sent;
        sent.start();
        sendTestsOf(other, endpointOf(other, answering.url()), 1);
        // Sent behind the four, it would leave only once their deadline had
        // closed their connections.
        QTRY_VERIFY_WITH_TIMEOUT(answering.requests().size() == 1 || m_receiver->held() < 4, 30000);
        QCOMPARE(answering.requests().size(), 1);
        qInfo("another organization's delivery arrived %lld ms after it was made, four"
              " receivers of this one hanging",
              sent.elapsed());
        QCOMPARE(m_receiver->held(), 4);
        m_receiver->release();
        for (const api::WebhookEndpoint &made : hanging)
            QTRY_VERIFY_WITH_TIMEOUT(
                deliveriesOf(made).first().status == api::DeliveryStatus::Succeeded, 10000);
    }

    void anOrganizationTakesOnlyItsShare()
    {
        m_sender.reset();
        server::WebhookSender::Options tight;
        tight.inFlight = 3;
        tight.perOrganization = 2;
        tight.failing = 1;
        startSender(tight);
        const auto hanging = hangingEndpoints(4);
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->held(), 2, 10000);
        const engine::Scope other = otherOrganization(u"beta"_s);
        test::WebhookReceiver answering;
        QVERIFY(answering.up());
        sendTestsOf(other, endpointOf(other, answering.url()), 1);
        QTRY_VERIFY_WITH_TIMEOUT(answering.requests().size() == 1 || m_receiver->held() < 2, 30000);
        QCOMPARE(answering.requests().size(), 1);
        QCOMPARE(m_receiver->held(), 2);
        QCOMPARE(m_receiver->requests().size(), 2); // the other two wait for the share
        m_receiver->release();
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests().size(), 4, 10000);
        for (const api::WebhookEndpoint &made : hanging)
            QTRY_VERIFY_WITH_TIMEOUT(
                deliveriesOf(made).first().status == api::DeliveryStatus::Succeeded, 10000);
    }

    void aFailedEndpointRestsThenTakesTheFailingShare()
    {
        m_sender.reset(); // the test takes the leases itself
        const engine::Scope other = otherOrganization(u"beta"_s);
        sendTests(endpoint(m_receiver->url()), 1);
        const auto theirs = endpointOf(other, m_receiver->url());
        sendTestsOf(other, theirs, 1);
        // This organization has its share in flight: the other's endpoint is taken.
        auto taken = claim({{m_scope.orgPk}, true});
        QVERIFY(taken && taken.value());
        QCOMPARE(taken.value()->orgPk, other.orgPk);
        QVERIFY(!taken.value()->failing);
        QVERIFY(finish(*taken.value(), {false, 500, "down", {}}).ok());
        // Redelivered, its delivery is due now; the endpoint rests all the same.
        const auto redelivered = api().redeliverWebhook(test::everyScope(other),
                                                        {deliveriesOf(other, theirs).first().id});
        QVERIFY(redelivered.ok());
        QCOMPARE(redelivered.value().nextAttemptAt, std::optional(m_now->load()));
        taken = claim({{m_scope.orgPk}, true});
        QVERIFY(taken && !taken.value());
        m_now->fetch_add(WebhookSendQueue::RestAfterFailureMs);
        // Failing: not taken while the failing endpoints have their share.
        taken = claim({{m_scope.orgPk}, false});
        QVERIFY(taken && !taken.value());
        taken = claim({{m_scope.orgPk}, true});
        QVERIFY(taken && taken.value() && taken.value()->failing);
        QVERIFY(finish(*taken.value(), {true, 200, "ok", {}}).ok());
        taken = claim({{}, false});
        QVERIFY(taken && taken.value());
        QCOMPARE(taken.value()->orgPk, m_scope.orgPk);
    }

    void answersOfAnyLengthKeepTheirFirstKiB()
    {
        QByteArray answer;
        for (int i = 0; answer.size() < 100 * 1024; ++i)
            answer += QByteArray::number(i) + ' ';
        const std::optional<QString> kept =
            QString::fromLatin1(answer.left(api::WebhookDelivery::MaxAnswerBytes));
        m_receiver->setAnswer({200, answer, {}});
        const auto made = endpoint(m_receiver->url());
        sendTests(made, 2); // the second on a new connection: the first was read no further
        QTRY_VERIFY_WITH_TIMEOUT(deliveriesOf(made).last().status == api::DeliveryStatus::Succeeded,
                                 10000);
        for (const api::WebhookDelivery &delivery : deliveriesOf(made))
            QCOMPARE(delivery.lastAnswer, kept);
        // A failure's too, which is no failure to answer.
        m_receiver->setAnswer({500, answer, {}});
        sendTests(made, 1);
        QTRY_COMPARE_WITH_TIMEOUT(deliveriesOf(made).last().attempts, 1, 10000);
        const api::WebhookDelivery failed = deliveriesOf(made).last();
        QCOMPARE(failed.lastStatusCode, std::optional<qint64>(500));
        QCOMPARE(failed.lastAnswer, kept);
        QVERIFY2(!failed.lastError, qPrintable(failed.lastError.value_or(QString())));
    }

    void addressesCarryingIPv4AreJudgedByIt_data()
    {
        QTest::addColumn<QString>("address");
        QTest::addColumn<QString>("refusal"); // empty: allowed
        QTest::newRow("translated loopback")
            << u"::ffff:0:127.0.0.1"_s << u"a loopback address inside an IPv4-translated"_s;
        QTest::newRow("translated public")
            << u"::ffff:0:8.8.8.8"_s << u"an IPv4-translated address, which no public"_s;
        QTest::newRow("mapped loopback")
            << u"::ffff:127.0.0.1"_s << u"a loopback address inside an IPv4-mapped"_s;
        QTest::newRow("mapped metadata") << u"::ffff:169.254.169.254"_s << u"link-local"_s;
        QTest::newRow("mapped public") << u"::ffff:8.8.8.8"_s << QString();
        QTest::newRow("NAT64 private")
            << u"64:ff9b::10.0.0.1"_s << u"a private address inside a NAT64"_s;
        QTest::newRow("NAT64 public") << u"64:ff9b::8.8.8.8"_s << QString();
        QTest::newRow("local NAT64") << u"64:ff9b:1::808:808"_s << u"translated"_s;
        QTest::newRow("6to4 metadata") << u"2002:a9fe:a9fe::1"_s << u"inside a 6to4"_s;
        QTest::newRow("6to4 public") << u"2002:808:808::1"_s << QString();
        QTest::newRow("compatible loopback")
            << u"::127.0.0.1"_s << u"a loopback address inside an IPv4-compatible"_s;
        QTest::newRow("compatible public")
            << u"::8.8.8.8"_s << u"an IPv4-compatible address, which no public"_s;
        QTest::newRow("unspecified") << u"::"_s << u"unspecified"_s;
        QTest::newRow("loopback") << u"::1"_s << u"a loopback address"_s;
        QTest::newRow("Teredo") << u"2001:0:4136:e378:8000:63bf:3fff:fdd2"_s << u"Teredo"_s;
        QTest::newRow("public") << u"2001:4860:4860::8888"_s << QString();
    }

    void addressesCarryingIPv4AreJudgedByIt()
    {
        QFETCH(QString, address);
        QFETCH(QString, refusal);
        // As the sender checks a resolved address…
        const auto problem = engine::WebhookUrlRule::addressProblem(address);
        QCOMPARE(problem.has_value(), !refusal.isEmpty());
        if (problem)
            QVERIFY2(problem->contains(refusal), qPrintable(*problem));
        // …and webhook_endpoints.create a URL.
        const auto inUrl =
            engine::WebhookUrlRule::urlProblem(u"https://[%1]/hooks"_s.arg(address), {});
        QCOMPARE(inUrl.has_value(), !refusal.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestWebhookLimits)
#include "tst_webhooklimits.moc"
