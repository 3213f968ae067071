// Conformance, usage of any feature (docs/api.md, "Usage of any feature"):
// balances.track in the deduction order with usage given back, boolean
// features refused; balances.check for boolean and metered features,
// writing nothing; usage.batch answering each event at its index (refused
// events in the middle, repeated Idempotency-Keys within and across
// batches, an async batch), its body limit raised for it alone; its dry
// run telling each balance before its first event (rollovers drawn first and
// left out of remaining) and answering events that draw on no balance; and
// the ledger's trial balance clean afterwards. Runs every way:
// tests/conformance/CMakeLists.txt (data/usage-workspace.json).
#include "services/engine/ledger/LedgerVerifier.h"
#include "tests/conformance/ConformanceSuite.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace md;
using namespace md::test::conformance;

namespace {

const QString Key = u"sk_test_usage00000000000000000000000000"_s;
const QString ReadKey = u"sk_test_usageread0000000000000000000000"_s;

api::TrackRequest feature(const QString &customer, const QString &featureId, const char *value)
{
    api::TrackRequest request;
    request.customerId = customer;
    request.featureId = featureId;
    request.value = dec(value);
    return request;
}

api::UsageBatchEvent featureEvent(const QString &customer, const char *value,
                                  std::optional<QString> key = std::nullopt)
{
    return {feature(customer, u"calls"_s, value).asCall(), std::move(key)};
}

api::UsageBatchEvent tokensEvent(const QString &customer, qint64 input,
                                 std::optional<QString> key = std::nullopt)
{
    api::TrackTokensRequest call;
    call.customerId = customer;
    call.modelId = u"openai/gpt-4o-mini"_s;
    call.inputTokens = input;
    call.featureId = u"credits"_s;
    return {call, std::move(key)};
}

} // namespace

class TestUsageConformance final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;
    test::ServerProcess m_server;
    std::unique_ptr<backend::BillingBackend> m_backend;

    QHash<QString, api::Decimal> remaining(const QString &customer)
    {
        ListBalancesRequest request;
        request.customerId = customer;
        auto page = await(m_backend->listBalances(request));
        if (!page)
            qFatal("list failed: %s", qPrintable(page.error().message));
        QHash<QString, api::Decimal> held;
        for (const api::BalanceRow &row : page.value().list)
            held.insert(row.id, row.remaining);
        return held;
    }

    api::UsageBatchResponse batch(QList<api::UsageBatchEvent> events, bool async = false)
    {
        api::UsageBatchRequest request;
        request.async = async;
        for (api::UsageBatchEvent &event : events)
            request.events.append(std::move(event));
        auto answer = await(m_backend->usageBatch(request));
        if (!answer)
            qFatal("usage.batch failed: %s", qPrintable(answer.error().message));
        if (answer.value().results.size() != request.events.size())
            qFatal("usage.batch answered %d of %d events", int(answer.value().results.size()),
                   int(request.events.size()));
        return answer.value();
    }

    qint64 usageEventsOf(const QString &customer)
    {
        api::PageRequest request;
        request.customerId = customer;
        request.limit = 200; // more than any customer here has
        auto page = await(m_backend->listUsageEvents(request));
        if (!page)
            qFatal("usage_events.list failed: %s", qPrintable(page.error().message));
        return page.value().list.size();
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString problem = test::openWorkspace(
            m_database, m_server, QStringLiteral(MD_TEST_CONFORMANCE_DIR "/usage-workspace.json"));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        m_backend = test::backendFor(m_database, m_server, Key);
    }

    void trackDeductsInTheDeductionOrder()
    {
        auto tracked = await(m_backend->track(feature(u"cal"_s, u"calls"_s, "120")));
        QVERIFY2(tracked.ok(), tracked.ok() ? "" : qPrintable(tracked.error().message));
        QCOMPARE(tracked.value().value, dec("120"));
        // The resetting row first, then the pack.
        QCOMPARE(tracked.value().deductions.size(), 2);
        QCOMPARE(tracked.value().deductions.at(0).balanceId, u"b_cal_month"_s);
        QCOMPARE(tracked.value().deductions.at(0).value, dec("100"));
        QCOMPARE(tracked.value().deductions.at(1).balanceId, u"b_cal_pack"_s);
        QCOMPARE(tracked.value().deductions.at(1).value, dec("20"));
        QCOMPARE(tracked.value().balance->remaining, dec("30"));
        QCOMPARE(tracked.value().balances.value(u"calls"_s)->usage, dec("120"));
        const auto held = remaining(u"cal"_s);
        QCOMPARE(held.value(u"b_cal_month"_s), dec("0"));
        QCOMPARE(held.value(u"b_cal_pack"_s), dec("30"));
        // The event is listed as the feature's, with no model.
        api::PageRequest events;
        events.customerId = u"cal"_s;
        auto listed = await(m_backend->listUsageEvents(events));
        QVERIFY(listed.ok());
        QCOMPARE(listed.value().list.first().featureId, u"calls"_s);
        QVERIFY(!listed.value().list.first().modelId);
        QCOMPARE(listed.value().list.first().value, dec("120"));
        // Its ledger entries name the route.
        auto ledger = await(m_backend->listLedger({u"cal"_s, u"calls"_s, 50, {}}));
        QVERIFY(ledger.ok());
        QCOMPARE(ledger.value().list.first().source.route, u"balances.track"_s);
    }

    void aNegativeValueGivesUsageBack()
    {
        // After the call above: month used 100, pack used 20. Back in the
        // reverse order: the pack first.
        auto back = await(m_backend->track(feature(u"cal"_s, u"calls"_s, "-30")));
        QVERIFY2(back.ok(), back.ok() ? "" : qPrintable(back.error().message));
        QCOMPARE(back.value().value, dec("-30"));
        QCOMPARE(back.value().deductions.size(), 2);
        QCOMPARE(back.value().deductions.at(0).balanceId, u"b_cal_pack"_s);
        QCOMPARE(back.value().deductions.at(0).value, dec("-20"));
        QCOMPARE(back.value().deductions.at(1).value, dec("-10"));
        QCOMPARE(remaining(u"cal"_s).value(u"b_cal_pack"_s), dec("50"));
        // No row goes above its grant: what was never used is not given.
        auto more = await(m_backend->track(feature(u"cal"_s, u"calls"_s, "-1000")));
        QVERIFY(more.ok());
        QCOMPARE(more.value().deductions.size(), 1);
        QCOMPARE(more.value().deductions.first().value, dec("-90"));
        QCOMPARE(more.value().balance->remaining, dec("150"));
        QCOMPARE(more.value().balance->usage, dec("0"));
    }

    void overflowIsGivenBackFirst()
    {
        // cal holds 100 (monthly) and 50 (a pack) again: 160 overflows by 10
        // onto the monthly row, which went last and comes back first.
        api::TrackRequest over = feature(u"cal"_s, u"calls"_s, "160");
        over.overageBehavior = api::OverageBehavior::Overflow;
        QVERIFY(await(m_backend->track(over)).ok());
        QCOMPARE(remaining(u"cal"_s).value(u"b_cal_month"_s), dec("-10"));
        auto back = await(m_backend->track(feature(u"cal"_s, u"calls"_s, "-10")));
        QVERIFY(back.ok());
        QCOMPARE(back.value().deductions.size(), 1);
        QCOMPARE(back.value().deductions.first().balanceId, u"b_cal_month"_s);
        QCOMPARE(remaining(u"cal"_s).value(u"b_cal_month"_s), dec("0"));
        QCOMPARE(remaining(u"cal"_s).value(u"b_cal_pack"_s), dec("0"));
        // Then the pack, drawn on last, before the monthly row.
        auto rest = await(m_backend->track(feature(u"cal"_s, u"calls"_s, "-60")));
        QVERIFY(rest.ok());
        QCOMPARE(rest.value().deductions.first().balanceId, u"b_cal_pack"_s);
        QCOMPARE(remaining(u"cal"_s).value(u"b_cal_pack"_s), dec("50"));
        QCOMPARE(remaining(u"cal"_s).value(u"b_cal_month"_s), dec("10"));
        QVERIFY(await(m_backend->track(feature(u"cal"_s, u"calls"_s, "-90"))).ok());
    }

    void capAndOverflowAsTrackTokens()
    {
        auto capped = await(m_backend->track(feature(u"lean"_s, u"calls"_s, "25")));
        QVERIFY(capped.ok());
        QCOMPARE(capped.value().deductions.first().value, dec("10"));
        QCOMPARE(capped.value().balance->remaining, dec("0"));
        api::TrackRequest over = feature(u"lean"_s, u"calls"_s, "4.5");
        over.overageBehavior = api::OverageBehavior::Overflow;
        auto overflowed = await(m_backend->track(over));
        QVERIFY(overflowed.ok());
        QCOMPARE(overflowed.value().balance->remaining, dec("-4.5"));
    }

    void anEntityTracksItsOwnRows()
    {
        api::TrackRequest request = feature(u"ent"_s, u"calls"_s, "3");
        request.entityId = u"e1"_s;
        auto tracked = await(m_backend->track(request));
        QVERIFY(tracked.ok());
        QCOMPARE(tracked.value().entityId, std::optional(u"e1"_s));
        QCOMPARE(tracked.value().deductions.first().balanceId, u"b_ent_e1"_s);
        QCOMPARE(remaining(u"ent"_s).value(u"b_ent_own"_s), dec("10"));
    }

    void trackRefusals_data()
    {
        QTest::addColumn<QString>("customer");
        QTest::addColumn<QString>("feature");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("names");
        QTest::newRow("boolean feature")
            << u"cal"_s << u"premium"_s << 400 << u"invalid_request"_s << u"balances.check"_s;
        QTest::newRow("unknown feature")
            << u"cal"_s << u"gold"_s << 404 << u"feature_not_found"_s << u"gold"_s;
        QTest::newRow("unknown customer")
            << u"zed"_s << u"calls"_s << 404 << u"customer_not_found"_s << u"zed"_s;
    }
    void trackRefusals()
    {
        QFETCH(QString, customer);
        QFETCH(QString, feature);
        QFETCH(int, status);
        QFETCH(QString, code);
        QFETCH(QString, names);
        auto refused = await(m_backend->track(::feature(customer, feature, "1")));
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().status, status);
        QCOMPARE(refused.error().code, code);
        QVERIFY2(refused.error().message.contains(names), qPrintable(refused.error().message));
    }

    void aRepeatedKeyTracksOnce()
    {
        const auto before = remaining(u"p3"_s).value(u"b_p3"_s);
        QVERIFY(await(m_backend->track(feature(u"p3"_s, u"calls"_s, "2"), u"usage-once"_s)).ok());
        auto again = await(m_backend->track(feature(u"p3"_s, u"calls"_s, "2"), u"usage-once"_s));
        QVERIFY(!again.ok());
        QCOMPARE(again.error().code, u"duplicate_idempotency_key"_s);
        QCOMPARE(remaining(u"p3"_s).value(u"b_p3"_s), before.minus(dec("2")).value());
    }

    void checkBooleanAndMetered_data()
    {
        QTest::addColumn<QString>("customer");
        QTest::addColumn<QString>("feature");
        QTest::addColumn<QString>("required");
        QTest::addColumn<bool>("allowed");
        QTest::addColumn<bool>("withBalance");
        QTest::newRow("boolean held") << u"cal"_s << u"premium"_s << u"1"_s << true << false;
        QTest::newRow("boolean not held") << u"lean"_s << u"premium"_s << u"1"_s << false << false;
        QTest::newRow("metered, enough") << u"cal"_s << u"calls"_s << u"150"_s << true << true;
        QTest::newRow("metered, short") << u"cal"_s << u"calls"_s << u"150.5"_s << false << true;
        QTest::newRow("metered, none held") << u"tok"_s << u"calls"_s << u"1"_s << false << false;
        QTest::newRow("overage allowed") << u"ovr"_s << u"calls"_s << u"1000"_s << true << true;
        QTest::newRow("nothing left, capped") << u"lean"_s << u"calls"_s << u"1"_s << false << true;
        QTest::newRow("nothing required") << u"lean"_s << u"calls"_s << u"0"_s << true << true;
    }
    void checkBooleanAndMetered()
    {
        QFETCH(QString, customer);
        QFETCH(QString, feature);
        QFETCH(QString, required);
        QFETCH(bool, allowed);
        QFETCH(bool, withBalance);
        const auto before = remaining(customer);
        const qint64 events = usageEventsOf(customer);
        api::CheckRequest request{customer, feature, dec(required.toLatin1().constData()), {}};
        auto checked = await(test::backendFor(m_database, m_server, ReadKey)->check(request));
        QVERIFY2(checked.ok(), checked.ok() ? "" : qPrintable(checked.error().message));
        QCOMPARE(checked.value().allowed, allowed);
        QCOMPARE(checked.value().balance.has_value(), withBalance);
        if (withBalance) {
            QCOMPARE(checked.value().balance->featureId, feature);
            api::Decimal sum;
            for (const api::Decimal &held : before)
                sum = sum.plus(held).value();
            if (customer != u"cal"_s) // cal holds other features too
                QCOMPARE(checked.value().balance->remaining, sum);
        }
        // Nothing written.
        QCOMPARE(remaining(customer), before);
        QCOMPARE(usageEventsOf(customer), events);
    }

    void checkRefusals()
    {
        auto unknown = await(m_backend->check({u"zed"_s, u"calls"_s, dec("1"), {}}));
        QVERIFY(!unknown.ok());
        QCOMPARE(unknown.error().code, u"customer_not_found"_s);
        auto noFeature = await(m_backend->check({u"cal"_s, u"gold"_s, dec("1"), {}}));
        QVERIFY(!noFeature.ok());
        QCOMPARE(noFeature.error().code, u"feature_not_found"_s);
        auto noEntity = await(m_backend->check({u"ent"_s, u"calls"_s, dec("1"), u"e9"_s}));
        QVERIFY(!noEntity.ok());
        QCOMPARE(noEntity.error().code, u"entity_not_found"_s);
    }

    void aReadKeyChecksButWritesNothing()
    {
        auto reader = test::backendFor(m_database, m_server, ReadKey);
        auto track = await(reader->track(feature(u"p0"_s, u"calls"_s, "1")));
        QVERIFY(!track.ok());
        QCOMPARE(track.error().status, 403);
        api::UsageBatchRequest request;
        request.events.append(featureEvent(u"p0"_s, "1"));
        auto batched = await(reader->usageBatch(request));
        QVERIFY(!batched.ok());
        QCOMPARE(batched.error().status, 403);
    }

    void aBatchAnswersEachEventAtItsIndex()
    {
        const auto p0 = remaining(u"p0"_s).value(u"b_p0"_s);
        const auto p1 = remaining(u"p1"_s).value(u"b_p1"_s);
        const auto tok = remaining(u"tok"_s).value(u"b_tok"_s);
        api::UsageBatchRequest request;
        request.events = {featureEvent(u"p0"_s, "1.5", u"b-1"_s),
                          tokensEvent(u"tok"_s, 1000),
                          featureEvent(u"zed"_s, "1"),
                          api::ApiError::invalidInputs(u"feature_id"_s, u"is required"_s),
                          featureEvent(u"p1"_s, "2", u"b-1"_s), // the same key again
                          featureEvent(u"p1"_s, "3", u"b-2"_s),
                          featureEvent(u"p0"_s, "-0.5")};
        auto answered = await(m_backend->usageBatch(request));
        QVERIFY2(answered.ok(), answered.ok() ? "" : qPrintable(answered.error().message));
        const QList<api::UsageBatchResult> &results = answered.value().results;
        // The invalid event is not sent by a client's writer: answered
        // where it stands when it is (over HTTP below), skipped here.
        const bool sentInvalid = results.size() == request.events.size();
        QCOMPARE(results.size(), request.events.size() - (sentInvalid ? 0 : 1));
        QCOMPARE(results.at(0).status, 200);
        QCOMPARE(results.at(0).body->deductions.first().value, dec("1.5"));
        QCOMPARE(results.at(1).status, 200);
        const api::Decimal tokens = results.at(1).body->value;
        QVERIFY(api::Decimal() < tokens);
        QCOMPARE(results.at(2).status, 404);
        QCOMPARE(results.at(2).error->code, u"customer_not_found"_s);
        const qsizetype k = sentInvalid ? 4 : 3;
        QCOMPARE(results.at(k).status, 409);
        QCOMPARE(results.at(k).error->code, u"duplicate_idempotency_key"_s);
        QVERIFY(!results.at(k).body);
        QCOMPARE(results.at(k + 1).status, 200);
        QCOMPARE(results.at(k + 2).status, 200);
        QCOMPARE(results.at(k + 2).body->value, dec("-0.5"));
        QCOMPARE(remaining(u"p0"_s).value(u"b_p0"_s), p0.minus(dec("1")).value());
        QCOMPARE(remaining(u"p1"_s).value(u"b_p1"_s), p1.minus(dec("3")).value());
        QCOMPARE(remaining(u"tok"_s).value(u"b_tok"_s), tok.minus(tokens).value());
        // Across batches too: both keys are taken now.
        const auto again =
            batch({featureEvent(u"p1"_s, "7", u"b-2"_s), featureEvent(u"p1"_s, "7", u"b-1"_s),
                   featureEvent(u"p1"_s, "7", u"b-3"_s)});
        QCOMPARE(again.results.at(0).status, 409);
        QCOMPARE(again.results.at(1).status, 409);
        QCOMPARE(again.results.at(2).status, 200);
        QCOMPARE(remaining(u"p1"_s).value(u"b_p1"_s), p1.minus(dec("10")).value());
    }

    void aBatchOfAThousandEvents()
    {
        const auto before = remaining(u"p2"_s).value(u"b_p2"_s);
        QList<api::UsageBatchEvent> events;
        for (int i = 0; i < 1000; ++i)
            events.append(featureEvent(u"p2"_s, "0.25", u"thousand-%1"_s.arg(i)));
        const auto answered = batch(events);
        for (const api::UsageBatchResult &result : answered.results)
            QCOMPARE(result.status, 200);
        QCOMPARE(remaining(u"p2"_s).value(u"b_p2"_s), before.minus(dec("250")).value());
        // The last answer saw every call before it.
        QCOMPARE(answered.results.last().body->balance->remaining,
                 before.minus(dec("250")).value());
    }

    void anAsyncBatchIsAcceptedWithItsRefusals()
    {
        const auto before = remaining(u"p3"_s).value(u"b_p3"_s);
        const auto answered =
            batch({featureEvent(u"p3"_s, "1", u"a-1"_s), featureEvent(u"zed"_s, "1"),
                   featureEvent(u"p3"_s, "2", u"a-1"_s), featureEvent(u"p3"_s, "4"),
                   featureEvent(u"p3"_s, "8", u"usage-once"_s)},
                  true);
        QCOMPARE(answered.results.at(0).status, 202);
        QVERIFY(!answered.results.at(0).body);
        QCOMPARE(answered.results.at(1).status, 404);
        QCOMPARE(answered.results.at(2).status, 409); // within the batch
        QCOMPARE(answered.results.at(3).status, 202);
        QCOMPARE(answered.results.at(4).status, 409); // recorded by an earlier call
        // Applied by the queue's worker shortly after.
        QTRY_COMPARE_WITH_TIMEOUT(remaining(u"p3"_s).value(u"b_p3"_s),
                                  before.minus(dec("5")).value(), 10000);
    }

    void aDryRunAnswersAsTheBatchWouldAndWritesNothing()
    {
        const auto before = remaining(u"p0"_s);
        const qint64 events = usageEventsOf(u"p0"_s);
        api::UsageBatchRequest request;
        request.dryRun = true;
        // More than a batch may hold: a dry run plans a customer's whole backfill.
        for (int i = 0; i < 1500; ++i)
            request.events.append(featureEvent(u"p0"_s, "0.5", u"dry-%1"_s.arg(i % 1499)));
        request.events.append(featureEvent(u"zed"_s, "1"));
        request.events.append(featureEvent(u"p0"_s, "1", u"b-1"_s)); // used by an earlier batch
        auto planned = await(m_backend->usageBatch(request));
        QVERIFY2(planned.ok(), planned.ok() ? "" : qPrintable(planned.error().message));
        const auto &results = planned.value().results;
        QCOMPARE(results.size(), 1502);
        QCOMPARE(results.at(0).status, 200);
        // Each planned after the ones before it.
        const api::Decimal held = before.value(u"b_p0"_s);
        QCOMPARE(results.at(1497).body->balance->remaining, held.minus(dec("749")).value());
        QCOMPARE(results.at(1499).status, 409); // its key repeats the first's
        QCOMPARE(results.at(1500).status, 404);
        QCOMPARE(results.at(1501).status, 409);
        QCOMPARE(remaining(u"p0"_s), before);
        QCOMPARE(usageEventsOf(u"p0"_s), events);
        // What it may not do.
        request.async = true;
        auto both = await(m_backend->usageBatch(request));
        QVERIFY(!both.ok());
        QVERIFY2(both.error().message.contains(u"never async"_s), qPrintable(both.error().message));
    }

    void aDryRunTellsEachBalanceBeforeItsFirstEvent()
    {
        const auto before = remaining(u"roll"_s);
        const qint64 events = usageEventsOf(u"roll"_s);
        const auto seats = [](const char *value, std::optional<QString> entity) {
            api::TrackRequest call = feature(u"roll"_s, u"seats"_s, value);
            call.entityId = std::move(entity);
            return api::UsageBatchEvent{call.asCall(), std::nullopt};
        };
        api::UsageBatchRequest request;
        request.dryRun = true;
        request.events = {featureEvent(u"roll"_s, "1", u"b-1"_s), // used before: refused
                          featureEvent(u"roll"_s, "50"),
                          featureEvent(u"roll"_s, "20"),
                          featureEvent(u"tok"_s, "1"),
                          seats("2", std::nullopt), // the entity's feature, without it
                          seats("1", u"r1"_s)};
        auto planned = await(m_backend->usageBatch(request));
        QVERIFY2(planned.ok(), planned.ok() ? "" : qPrintable(planned.error().message));
        const auto &results = planned.value().results;
        QCOMPARE(results.size(), 6);
        QCOMPARE(results.at(0).status, 409);
        QVERIFY(!results.at(0).balanceBefore);
        // Told on the first event applied: 60 remaining, 30 rolled over (left
        // out of the summary). 50 takes the 30 first, then 20 off remaining,
        // which usage rose by.
        const auto &first = results.at(1);
        QCOMPARE(first.status, 200);
        QVERIFY(first.balanceBefore);
        QCOMPARE(first.balanceBefore->featureId, u"calls"_s);
        QCOMPARE(first.balanceBefore->remaining, dec("60"));
        QCOMPARE(first.balanceBefore->usage, dec("40"));
        QCOMPARE(first.balanceBefore->breakdown.size(), 1);
        QCOMPARE(first.body->deductions.size(), 1);
        QCOMPARE(first.body->deductions.first().value, dec("50"));
        QCOMPARE(first.body->balance->remaining, dec("40"));
        QCOMPARE(first.body->balance->usage, dec("60"));
        QVERIFY(!results.at(2).balanceBefore); // told once
        QCOMPARE(results.at(2).body->balance->remaining, dec("20"));
        // No balance held of the feature, by the customer or (the entity's
        // feature sent without it) at the customer's level: recorded, drawing
        // on nothing.
        for (const qsizetype i : {3, 4}) {
            const auto &none = results.at(i);
            QCOMPARE(none.status, 200);
            QVERIFY(none.body->deductions.isEmpty());
            QVERIFY(!none.body->balance || none.body->balance->breakdown.isEmpty());
            QVERIFY(none.balanceBefore);
            QVERIFY(none.balanceBefore->breakdown.isEmpty());
            QCOMPARE(none.balanceBefore->remaining, dec("0"));
        }
        // The entity's own balance is another balance, told on its own first event.
        QCOMPARE(results.at(5).status, 200);
        QCOMPARE(results.at(5).body->deductions.first().balanceId, u"b_roll_r1"_s);
        QCOMPARE(results.at(5).balanceBefore->remaining, dec("5"));
        QCOMPARE(remaining(u"roll"_s), before);
        QCOMPARE(usageEventsOf(u"roll"_s), events);
    }

    void theBodyLimitIsRaisedForTheBatchAlone()
    {
        if (!overHttp())
            QSKIP("the body limit is the server's");
        const QList<std::pair<QByteArray, QByteArray>> headers{
            {"Authorization", "Bearer " + Key.toLatin1()}, {"Content-Type", "application/json"}};
        // 1,000 events with properties: past the 1 MiB every other route takes.
        QJsonArray events;
        const QString filler(1500, u'x');
        for (int i = 0; i < 1000; ++i)
            events.append(QJsonObject{{u"kind"_s, u"feature"_s},
                                      {u"customer_id"_s, u"p0"_s},
                                      {u"feature_id"_s, u"calls"_s},
                                      {u"value"_s, 0},
                                      {u"properties"_s, QJsonObject{{u"note"_s, filler}}}});
        const QByteArray body =
            QJsonDocument(QJsonObject{{u"events"_s, events}}).toJson(QJsonDocument::Compact);
        QVERIFY(body.size() > 1024 * 1024);
        const auto batchAnswer =
            test::rawRequest(m_server, u"/v1/meterdesk/usage.batch"_s, headers, body);
        QCOMPARE(batchAnswer.status, 200);
        const auto single =
            test::rawRequest(m_server, u"/v1/meterdesk/balances.track"_s, headers, body);
        QCOMPARE(single.status, 413);
        // A bad event is answered at its index, the others applied.
        const QJsonObject good{{u"kind"_s, u"feature"_s},
                               {u"customer_id"_s, u"p0"_s},
                               {u"feature_id"_s, u"calls"_s},
                               {u"value"_s, 0}};
        const QJsonObject bad{{u"kind"_s, u"feature"_s}, {u"customer_id"_s, u"p0"_s}};
        const auto mixed = test::rawRequest(
            m_server, u"/v1/meterdesk/usage.batch"_s, headers,
            QJsonDocument(QJsonObject{{u"events"_s, QJsonArray{good, bad, 7}}}).toJson());
        QCOMPARE(mixed.status, 200);
        const QJsonArray results = mixed.json().value(u"results"_s).toArray();
        QCOMPARE(results.size(), 3);
        QCOMPARE(results.at(0).toObject().value(u"status"_s).toInt(), 200);
        QCOMPARE(results.at(1).toObject().value(u"status"_s).toInt(), 400);
        QCOMPARE(
            results.at(1).toObject().value(u"error"_s).toObject().value(u"message"_s).toString(),
            u"feature_id: is required"_s);
        QCOMPARE(results.at(2).toObject().value(u"status"_s).toInt(), 400);
        // The async batch's status is 202.
        const auto async = test::rawRequest(
            m_server, u"/v1/meterdesk/usage.batch"_s, headers,
            QJsonDocument(QJsonObject{{u"async"_s, true}, {u"events"_s, QJsonArray{good}}})
                .toJson());
        QCOMPARE(async.status, 202);
    }

    // Last but one: it moves the sandbox's clock a day on.
    void usageGivenBackNeverOpensRoomInALimit()
    {
        api::UpdateBillingControlsRequest controls;
        controls.customerId = u"ent"_s;
        controls.hasUsageLimits = true;
        api::UsageLimit daily;
        daily.featureId = u"calls"_s;
        daily.limit = dec("3");
        daily.interval = api::LimitInterval::Day;
        daily.anchor = api::LimitAnchor::Utc;
        controls.billingControls.usageLimits = {daily};
        QVERIFY(await(m_backend->updateBillingControls(controls)).ok());
        QVERIFY(await(m_backend->track(feature(u"ent"_s, u"calls"_s, "3"))).ok());
        // A day on, yesterday's 3 are given back: today's window stays at 0,
        // so today still allows 3, not 6.
        auto now = await(m_backend->clock());
        QVERIFY(now.ok());
        QVERIFY(await(m_backend->advanceClock({now.value().now + 86'400'000, false})).ok());
        QVERIFY(await(m_backend->track(feature(u"ent"_s, u"calls"_s, "-3"))).ok());
        auto capped = await(m_backend->track(feature(u"ent"_s, u"calls"_s, "5")));
        QVERIFY2(capped.ok(), capped.ok() ? "" : qPrintable(capped.error().message));
        QCOMPARE(capped.value().deductions.first().value, dec("3"));
    }

    void theTrialBalanceIsClean()
    {
        engine::Engine engine(m_database.location());
        QVERIFY(engine.open().ok());
        auto report = engine.withConnection([&](const QSqlDatabase &db) {
            return engine::LedgerVerifier::verify(db, engine.dialect());
        });
        QVERIFY2(report.ok(), report.ok() ? "" : qPrintable(report.error().message));
        QVERIFY2(report.value().balanced(), qPrintable(report.value().differences.join(u'\n')));
        QVERIFY(report.value().entries > 0);
    }

    void cleanupTestCase()
    {
        m_backend.reset();
        if (overHttp())
            QCOMPARE(m_server.stop(), 0);
    }
};

QTEST_MAIN(TestUsageConformance)
#include "tst_conformance_usage.moc"
