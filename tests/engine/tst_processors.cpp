// The payment processor, read (docs/processors.md): an organization's Stripe
// keys sealed under the workspace secret (what is stored, what is shown,
// what a copied row opens to, what a dump holds), and the Stripe client's
// reads: the key and account sent, 429 retried when Retry-After says,
// 5xx and silence given up on after every attempt, Stripe's refusals in
// its own words with the key hidden, and lists paged to the end against
// stripe-stateful-mock.
#include "services/engine/processors/ProcessorKeys.h"
#include "services/engine/processors/StripeClient.h"
#include "services/engine/sql/Sql.h"
#include "tests/engine/EngineFixture.h"
#include "tests/support/StripeMock.h"
#include "tests/support/WebhookReceiver.h"

#include <QJsonArray>
#include <QSet>
#include <QTest>

#include <future>

using namespace md;
using namespace Qt::StringLiterals;
using engine::Environment;
using engine::ProcessorKeys;
using engine::StripeClient;

namespace {

const QString Secret = u"sk_test_51Meterdesk0000000000001234"_s;

// Runs `read` beside the test's event loop, which the receiver answers on.
template <typename F> auto aside(F read)
{
    auto done = std::async(std::launch::async, read);
    if (!QTest::qWaitFor(
            [&] { return done.wait_for(std::chrono::seconds(0)) == std::future_status::ready; },
            60000))
        qFatal("the read did not end within a minute");
    return done.get();
}

StripeClient::Options quick(const test::WebhookReceiver &receiver)
{
    StripeClient::Options options;
    options.base = QUrl(QString::fromLatin1(receiver.url("")));
    options.deadline = std::chrono::milliseconds(5000);
    options.attempts = 3;
    options.firstWait = std::chrono::milliseconds(10);
    return options;
}

} // namespace

class TestProcessors final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aKeyIsSealedShownByItsHintAndBoundToItsRow()
    {
        test::EngineFixture fixture;
        MD_OPEN_FIXTURE(fixture);
        QVERIFY(fixture.engine->loadWorkspace(test::smallWorkspace()).ok());
        auto db = fixture.engine->database().connection();
        const auto orgs = fixture.engine->organizations();
        const engine::Scope test{orgs.value().first().pk, Environment::Sandbox};
        const engine::Scope live{orgs.value().first().pk, Environment::Production};

        auto connected =
            ProcessorKeys::connect(db.value(), fixture.engine->dialect(), test, Secret, 1000);
        QVERIFY2(connected.ok(), connected.ok() ? "" : qPrintable(connected.error().message));
        QCOMPARE(connected.value().hint, u"sk_test_…1234"_s);
        QCOMPARE(ProcessorKeys::secret(db.value(), test).value(), Secret);
        // Stored sealed: the key is nowhere in the row.
        auto stored =
            engine::queryRows(db.value(), u"SELECT sealed, hint FROM processor_keys"_s, {});
        QCOMPARE(stored.value().size(), 1);
        QVERIFY(!stored.value().first().at(0).toString().contains(u"51Meterdesk"_s));
        QVERIFY(!QByteArray::fromBase64(stored.value().first().at(0).toString().toLatin1())
                     .contains("51Meterdesk"));
        // A sealed key copied to another environment's row does not open there.
        QVERIFY(engine::execute(db.value(),
                                u"INSERT INTO processor_keys (org_pk, env, sealed, hint,"
                                " connected_at) SELECT org_pk, 'live', sealed, hint, connected_at"
                                " FROM processor_keys"_s,
                                {})
                    .ok());
        auto copied = ProcessorKeys::secret(db.value(), live);
        QVERIFY(!copied.ok());
        QVERIFY2(copied.error().message.contains(u"does not open"_s),
                 qPrintable(copied.error().message));
        // Neither a dump nor the audit log holds it.
        const QByteArray dump = fixture.engine->dumpWorkspace().value().toJson();
        QVERIFY(!dump.contains("51Meterdesk") && !dump.contains("sealed"));
        auto audit = engine::queryRows(db.value(), u"SELECT * FROM audit_log"_s, {});
        for (const QVariantList &row : std::as_const(audit.value()))
            for (const QVariant &value : row)
                QVERIFY(!value.toString().contains(u"51Meterdesk"_s));
        // Connected again: replaced; disconnected: gone, then 404.
        QVERIFY(ProcessorKeys::connect(db.value(), fixture.engine->dialect(), test,
                                       u"rk_test_another0000000000009876"_s, 2000)
                    .ok());
        const auto listed = ProcessorKeys::list(db.value(), test.orgPk).value(); // live, test
        QCOMPARE(listed.size(), 2);
        QCOMPARE(listed.at(1).env, u"test"_s);
        QCOMPARE(listed.at(1).hint, u"rk_test_…9876"_s);
        QVERIFY(ProcessorKeys::disconnect(db.value(), fixture.engine->dialect(), test, 3000).ok());
        QCOMPARE(ProcessorKeys::secret(db.value(), test).error().status, 404);
        QCOMPARE(ProcessorKeys::disconnect(db.value(), fixture.engine->dialect(), test, 4000)
                     .error()
                     .status,
                 404);
    }

    void keysOfTheWrongKindAreRefused_data()
    {
        QTest::addColumn<QString>("secret");
        QTest::addColumn<bool>("live");
        QTest::newRow("a live key for test") << u"sk_live_0000000000000000"_s << false;
        QTest::newRow("a test key for live") << u"sk_test_0000000000000000"_s << true;
        QTest::newRow("a publishable key") << u"pk_test_0000000000000000"_s << false;
        QTest::newRow("too short") << u"sk_test_1"_s << false;
        QTest::newRow("a space inside") << u"sk_test_0000 000000000000"_s << false;
        QTest::newRow("a line break inside") << u"sk_test_0000\n000000000000"_s << false;
    }
    void keysOfTheWrongKindAreRefused()
    {
        QFETCH(QString, secret);
        QFETCH(bool, live);
        QVERIFY(ProcessorKeys::problemOf(secret,
                                         live ? Environment::Production : Environment::Sandbox));
    }

    void aReadSendsTheKeyAndTheAccount()
    {
        test::WebhookReceiver stripe;
        QVERIFY(stripe.up());
        stripe.setAnswer({200, R"({"id":"acct_1","object":"account"})", {}});
        auto read = aside([&] {
            return StripeClient(Secret, quick(stripe))
                .get(u"/v1/accounts/acct_1"_s, {}, u"acct_tenant"_s);
        });
        QVERIFY(read.ok());
        QCOMPARE(read.value().value("id"_L1).toString(), u"acct_1"_s);
        const test::WebhookReceiver::Request &sent = stripe.requests().constLast();
        QCOMPARE(sent.path, QByteArray("/v1/accounts/acct_1"));
        QCOMPARE(sent.headers.value("authorization"), "Bearer " + Secret.toLatin1());
        QCOMPARE(sent.headers.value("stripe-account"), QByteArray("acct_tenant"));
    }

    void tooManyRequestsIsTriedAgainWhenRetryAfterSays()
    {
        test::WebhookReceiver stripe;
        QVERIFY(stripe.up());
        stripe.queueAnswers(
            {{429, R"({"error":{"message":"Too many requests"}})", {{"Retry-After", "0"}}}});
        stripe.setAnswer({200, R"({"id":"acct_1"})", {}});
        StripeClient::Options options = quick(stripe);
        // Were Retry-After not read, the wait would be ten minutes.
        options.firstWait = std::chrono::minutes(10);
        auto read =
            aside([&] { return StripeClient(Secret, options).get(u"/v1/accounts/acct_1"_s); });
        QVERIFY2(read.ok(), read.ok() ? "" : qPrintable(read.error().message));
        QCOMPARE(stripe.requests().size(), 2);
    }

    void serverErrorsAreGivenUpOnAfterEveryAttempt()
    {
        test::WebhookReceiver stripe;
        QVERIFY(stripe.up());
        stripe.setAnswer({500, "{}", {}});
        auto read =
            aside([&] { return StripeClient(Secret, quick(stripe)).get(u"/v1/accounts"_s); });
        QVERIFY(!read.ok());
        QCOMPARE(read.error().status, 503);
        QCOMPARE(read.error().code, u"processor_unavailable"_s);
        QVERIFY2(read.error().message.contains(u"3 attempts (HTTP 500)"_s),
                 qPrintable(read.error().message));
        QCOMPARE(stripe.requests().size(), 3);
    }

    void silenceEndsAtTheDeadline()
    {
        test::WebhookReceiver stripe;
        QVERIFY(stripe.up());
        stripe.hold();
        StripeClient::Options options = quick(stripe);
        options.deadline = std::chrono::milliseconds(300);
        options.attempts = 2;
        auto read = aside([&] { return StripeClient(Secret, options).get(u"/v1/accounts"_s); });
        QVERIFY(!read.ok());
        QCOMPARE(read.error().code, u"processor_unavailable"_s);
        QVERIFY2(read.error().message.contains(u"no answer within 300 ms"_s),
                 qPrintable(read.error().message));
        stripe.release();
    }

    void aRefusalKeepsStripesWordsAndHidesTheKey()
    {
        test::WebhookReceiver stripe;
        QVERIFY(stripe.up());
        stripe.setAnswer(
            {401,
             R"({"error":{"message":"Invalid API Key provided: sk_test_51M*************1234","type":"invalid_request_error"}})",
             {}});
        StripeClient::Refusal refusal;
        auto read = aside([&] {
            return StripeClient(Secret, quick(stripe)).get(u"/v1/accounts"_s, {}, {}, &refusal);
        });
        QVERIFY(!read.ok());
        QCOMPARE(read.error().status, 502);
        QCOMPARE(read.error().code, u"processor_refused"_s);
        QVERIFY2(read.error().message.startsWith(u"Stripe says: Invalid API Key provided: "
                                                 "sk_test_…1234"_s),
                 qPrintable(read.error().message));
        QVERIFY(!read.error().message.contains(u"51M"_s));
        QCOMPARE(refusal.status, 401);
        QCOMPARE(stripe.requests().size(), 1); // a refusal is not tried again
    }

    void aListIsPagedToItsEndOnTheMock()
    {
        QString problem;
        test::StripeMock *mock = test::StripeMock::shared(&problem);
        QVERIFY2(mock, qPrintable(problem));
        const QStringList made{u"acct_page1"_s, u"acct_page2"_s, u"acct_page3"_s, u"acct_page4"_s,
                               u"acct_page5"_s};
        problem = mock->seedAccounts(made);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        StripeClient::Options options;
        options.base = mock->url();
        QUrlQuery query;
        query.addQueryItem(u"limit"_s, u"2"_s);
        QStringList seen;
        int pages = 0;
        auto listed =
            StripeClient(u"sk_test_meterdesk_paging_0001"_s, options)
                .list(u"/v1/accounts"_s, query, std::nullopt, [&](const QJsonArray &page) {
                    ++pages;
                    for (const QJsonValue &account : page)
                        seen.append(account.toObject().value("id"_L1).toString());
                    return true;
                });
        QVERIFY2(listed.ok(), listed.ok() ? "" : qPrintable(listed.error().message));
        for (const QString &id : made)
            QVERIFY2(seen.contains(id), qPrintable(id));
        QCOMPARE(QSet<QString>(seen.begin(), seen.end()).size(), seen.size()); // none twice
        QVERIFY(pages >= 3);
    }
};

QTEST_GUILESS_MAIN(TestProcessors)
#include "tst_processors.moc"
