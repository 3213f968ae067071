// Token tracking in the engine: the deduction order across rows and
// rollovers, idempotency, no lost update under concurrent calls (SQLite and
// PostgreSQL), and the queue behind the async flag.
#include "services/engine/controls/BillingControlsUpdater.h"
#include "services/engine/track/CallCheck.h"
#include "services/engine/track/FailedEvents.h"
#include "tests/engine/EngineFixture.h"
#include "tests/engine/LedgerWorkspace.h"
#include "tests/engine/ScopeRoutes.h"

#include <QtConcurrent/QtConcurrentRun>

using namespace md;
using namespace Qt::StringLiterals;
using test::ledger::Prices;

class TestCallCheck final : public QObject
{
    Q_OBJECT

    std::unique_ptr<test::EngineFixture> m_fixture;
    engine::Scope m_scope;

    api::Result<api::TrackTokensResponse> track(const QString &customer, qint64 dollars,
                                                std::optional<QString> key = {},
                                                bool overflow = false,
                                                std::optional<QString> feature = {})
    {
        api::TrackTokensRequest call;
        call.customerId = customer;
        call.modelId = u"test/dollar"_s;
        call.inputTokens = dollars;
        call.featureId = feature;
        if (overflow)
            call.overageBehavior = api::OverageBehavior::Overflow;
        return m_fixture->engine->trackTokens(m_scope, call, key);
    }

    api::TrackTokensRequest asyncCall(const QString &customer, qint64 dollars)
    {
        api::TrackTokensRequest call;
        call.customerId = customer;
        call.modelId = u"test/dollar"_s;
        call.inputTokens = dollars;
        call.async = true;
        return call;
    }

    // Everything the customer has left: rows and rollovers.
    api::Decimal totalOf(const QString &customer)
    {
        api::ListBalancesRequest all;
        all.customerId = customer;
        api::Decimal total;
        const auto page = test::listBalances(*m_fixture->engine, m_scope, all);
        for (const api::BalanceRow &row : page.value().list) {
            total = total.plus(row.remaining).value();
            for (const api::Rollover &rollover : row.rollovers)
                total = total.plus(rollover.balance).value();
        }
        return total;
    }

    api::Decimal remaining(const QString &balanceId)
    {
        api::ListBalancesRequest all;
        all.customerId = u"cy"_s;
        const auto page = test::listBalances(*m_fixture->engine, m_scope, all);
        for (const api::BalanceRow &row : page.value().list)
            if (row.id == balanceId)
                return row.remaining;
        qFatal("no balance %s", qPrintable(balanceId));
    }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<test::EngineFixture>(); // a fresh workspace for each case
        MD_OPEN_FIXTURE(*m_fixture);
        const auto scope = test::ledger::open(*m_fixture);
        QVERIFY(scope);
        m_scope = *scope;
    }

    void deductsInTheDocumentedOrder()
    {
        // 2 from the rollover, then daily before monthly (shorter reset), then the
        // expiring standalone before the one without expiry.
        auto tracked = track(u"cy"_s, 20);
        QVERIFY2(tracked.ok(), tracked.ok() ? "" : qPrintable(tracked.error().message));
        QStringList order;
        for (const api::Deduction &d : tracked.value().deductions)
            order.append(d.balanceId + u'=' + d.value.toString());
        QCOMPARE(order, (QStringList{u"plan_monthly=7"_s, u"plan_daily=5"_s,
                                     u"standalone_expiring=5"_s, u"standalone_forever=3"_s}));
        QCOMPARE(remaining(u"plan_daily"_s), api::Decimal());
        QCOMPARE(remaining(u"standalone_forever"_s), api::Decimal::fromInteger(2));
        QCOMPARE(tracked.value().balance->remaining, api::Decimal::fromInteger(2));
    }

    void anIdempotencyKeyCountsOnce()
    {
        QVERIFY(track(u"cy"_s, 1, u"call-1"_s).ok());
        auto again = track(u"cy"_s, 1, u"call-1"_s);
        QVERIFY(!again.ok());
        QCOMPARE(again.error().status, 409);
        QCOMPARE(again.error().code, u"duplicate_idempotency_key"_s);
        // 1 dollar left the rollover, once.
        QCOMPARE(remaining(u"plan_monthly"_s), api::Decimal::fromInteger(5));
    }

    void creditSystemDetection()
    {
        auto several = track(u"two"_s, 1);
        QCOMPARE(several.error().code, u"invalid_request"_s);
        QVERIFY(several.error().message.contains(u"ai2"_s));
        QVERIFY(track(u"two"_s, 1, {}, false, u"ai2"_s).ok());
        auto none = track(u"none"_s, 1);
        QCOMPARE(none.error().status, 404);
        QCOMPARE(none.error().code, u"feature_not_found"_s);
    }

    void concurrentCallsLoseNoUpdate()
    {
        // 8 threads × 20 calls of one dollar each, with overflow so every dollar lands.
        QList<QFuture<int>> workers;
        QThreadPool pool;
        pool.setMaxThreadCount(8);
        for (int w = 0; w < 8; ++w) {
            workers.append(QtConcurrent::run(&pool, [this] {
                int failures = 0;
                for (int i = 0; i < 20; ++i) {
                    auto tracked = track(u"cy"_s, 1, {}, true);
                    if (!tracked.ok()) {
                        qWarning("track failed: %s",
                                 qPrintable(tracked.error().message)); // say why, then count it
                        ++failures;
                    }
                }
                return failures;
            }));
        }
        for (QFuture<int> &worker : workers)
            QCOMPARE(worker.result(), 0);
        pool.waitForDone();
        // 22 dollars were there (20 on rows, 2 in the rollover): 160 taken leaves -138 in all.
        QCOMPARE(totalOf(u"cy"_s), api::Decimal::fromInteger(22 - 160));
    }

    void queuedCallsSurviveARestart()
    {
        // No worker runs: what is acknowledged must already be in the database.
        engine::TrackQueue &queue = m_fixture->engine->trackQueue();
        QVERIFY(queue.enqueue(m_scope, asyncCall(u"cy"_s, 1), {}).ok());
        QVERIFY(queue.enqueue(m_scope, asyncCall(u"cy"_s, 2), u"queued-1"_s).ok());
        auto repeated = queue.enqueue(m_scope, asyncCall(u"cy"_s, 2), u"queued-1"_s);
        QCOMPARE(repeated.error().status, 409);
        QCOMPARE(queue.counts(m_scope).value().pending, 2);
        QCOMPARE(totalOf(u"cy"_s), api::Decimal::fromInteger(22)); // nothing applied yet

        // "Restart": a new engine on the same database applies them.
        m_fixture->engine.reset();
        MD_OPEN_FIXTURE(*m_fixture);
        m_fixture->engine->setCatalogue(std::make_shared<engine::PriceCatalogue>(
            engine::PriceCatalogue::fromJson(Prices).value()));
        QCOMPARE(m_fixture->engine->trackQueue().drain().value(), 2);
        QCOMPARE(totalOf(u"cy"_s), api::Decimal::fromInteger(22 - 3));
        QCOMPARE(m_fixture->engine->trackQueue().counts(m_scope).value().pending, 0);
        // The key now belongs to an applied event and is still refused.
        QCOMPARE(track(u"cy"_s, 2, u"queued-1"_s).error().status, 409);
    }

    // Everything a synchronous call checks is checked before a call is
    // accepted: it is refused with the same status and code.
    void anAsyncCallThatWouldFailIsRefusedAtOnce_data()
    {
        QTest::addColumn<QString>("customer");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("feature");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QTest::newRow("unknown customer")
            << u"nobody"_s << u"test/dollar"_s << QString() << 404 << u"customer_not_found"_s;
        QTest::newRow("no credit system")
            << u"none"_s << u"test/dollar"_s << QString() << 404 << u"feature_not_found"_s;
        QTest::newRow("several credit systems")
            << u"two"_s << u"test/dollar"_s << QString() << 400 << u"invalid_request"_s;
        QTest::newRow("unknown feature")
            << u"cy"_s << u"test/dollar"_s << u"ghost"_s << 404 << u"feature_not_found"_s;
        QTest::newRow("unknown model")
            << u"cy"_s << u"test/unknown"_s << QString() << 400 << u"invalid_request"_s;
    }
    void anAsyncCallThatWouldFailIsRefusedAtOnce()
    {
        QFETCH(QString, customer);
        QFETCH(QString, model);
        QFETCH(QString, feature);
        QFETCH(int, status);
        QFETCH(QString, code);
        api::TrackTokensRequest call = asyncCall(customer, 1);
        call.modelId = model;
        if (!feature.isEmpty())
            call.featureId = feature;
        const auto sync = [&] {
            api::TrackTokensRequest direct = call;
            direct.async = false;
            return m_fixture->engine->trackTokens(m_scope, direct, {});
        }();
        const auto async = m_fixture->engine->trackTokens(m_scope, call, {});
        QVERIFY(!sync.ok() && !async.ok());
        QCOMPARE(async.error().status, status);
        QCOMPARE(async.error().code, code);
        QCOMPARE(async.error(), sync.error());
        QCOMPARE(m_fixture->engine->trackQueue().counts(m_scope).value().pending, 0);
    }

    // What only fails later (here a usage limit another call used up
    // meanwhile) is kept with its reason, and can be retried or discarded.
    void aQueuedCallThatFailsLaterIsKeptRetriedAndDiscarded()
    {
        const auto limit = [this](int units) {
            api::UpdateBillingControlsRequest request;
            request.customerId = u"cy"_s;
            request.hasUsageLimits = true;
            api::UsageLimit cap;
            cap.featureId = u"ai"_s;
            cap.limit = api::Decimal::fromInteger(units);
            cap.interval = api::LimitInterval::Month;
            request.billingControls.usageLimits = {cap};
            return m_fixture->engine->withConnection([&](const QSqlDatabase &db) {
                return engine::BillingControlsUpdater::update(db, m_fixture->engine->dialect(),
                                                              m_scope, request, *m_fixture->now);
            });
        };
        QVERIFY(limit(2).ok());
        engine::TrackQueue &queue = m_fixture->engine->trackQueue();
        for (int i = 0; i < 3; ++i) // each fits when accepted: nothing is used yet
            QVERIFY(queue.enqueue(m_scope, asyncCall(u"cy"_s, 1), {}).ok());
        QCOMPARE(queue.drain().value(), 3);
        QCOMPARE(queue.counts(m_scope).value(), (api::QueueCounts{0, 1}));
        QCOMPARE(totalOf(u"cy"_s), api::Decimal::fromInteger(20)); // two applied
        const auto failed = m_fixture->engine->withConnection(
            [&](const QSqlDatabase &db) { return engine::FailedEvents::list(db, m_scope, {}); });
        QVERIFY(failed.ok());
        QCOMPARE(failed.value().list.size(), 1);
        const api::FailedEvent event = failed.value().list.first();
        QCOMPARE(event.customerId, u"cy"_s);
        QCOMPARE(event.error.status, 429);
        QCOMPARE(event.error.code, u"usage_limit_reached"_s);
        QCOMPARE(event.request.value("input_tokens"_L1).numberText(), QByteArrayView("1"));
        // A retry while the limit still holds fails again; after raising it, it applies.
        QCOMPARE(queue.retry(m_scope, {event.id}).value().done, QStringList{event.id});
        QCOMPARE(queue.drain().value(), 1);
        QCOMPARE(queue.counts(m_scope).value().failed, 1);
        QVERIFY(limit(3).ok());
        const auto retried = queue.retry(m_scope, {event.id, u"tq_999999"_s}).value();
        QCOMPARE(retried.done, QStringList{event.id});
        QCOMPARE(retried.notFound, QStringList{u"tq_999999"_s});
        QCOMPARE(queue.drain().value(), 1);
        QCOMPARE(queue.counts(m_scope).value(), (api::QueueCounts{0, 0}));
        QCOMPARE(totalOf(u"cy"_s), api::Decimal::fromInteger(19));
        // The limit full: refused at once. A call accepted and then caught
        // by a lowered limit fails later; discarded, it is gone.
        QCOMPARE(queue.enqueue(m_scope, asyncCall(u"cy"_s, 1), {}).error().status, 429);
        QVERIFY(limit(4).ok());
        QVERIFY(queue.enqueue(m_scope, asyncCall(u"cy"_s, 1), {}).ok());
        QVERIFY(limit(3).ok());
        QCOMPARE(queue.drain().value(), 1);
        const auto again = m_fixture->engine->withConnection(
            [&](const QSqlDatabase &db) { return engine::FailedEvents::list(db, m_scope, {}); });
        const QString id = again.value().list.first().id;
        const auto discarded = m_fixture->engine->withConnection([&](const QSqlDatabase &db) {
            return engine::FailedEvents::discard(db, m_fixture->engine->dialect(), m_scope, {id});
        });
        QCOMPARE(discarded.value().done, QStringList{id});
        QCOMPARE(queue.counts(m_scope).value(), (api::QueueCounts{0, 0}));
    }

    void queuedAndDirectCallsTogetherLoseNoUpdate()
    {
        m_fixture->engine->trackQueue().startWorker();
        QList<QFuture<int>> workers;
        QThreadPool pool;
        pool.setMaxThreadCount(8);
        for (int w = 0; w < 8; ++w) {
            workers.append(QtConcurrent::run(&pool, [this, w] {
                int failures = 0;
                for (int i = 0; i < 20; ++i) {
                    api::TrackTokensRequest call = asyncCall(u"cy"_s, 1);
                    call.async = (w + i) % 2 == 0;
                    call.overageBehavior = api::OverageBehavior::Overflow;
                    if (auto tracked = m_fixture->engine->trackTokens(m_scope, call, {});
                        !tracked.ok()) {
                        qWarning("track failed: %s", qPrintable(tracked.error().message));
                        ++failures;
                    }
                }
                return failures;
            }));
        }
        for (QFuture<int> &worker : workers)
            QCOMPARE(worker.result(), 0);
        // The worker applies what is queued: poll, no fixed wait.
        QTRY_COMPARE_WITH_TIMEOUT(m_fixture->engine->trackQueue().counts(m_scope).value().pending,
                                  0, 10000);
        QCOMPARE(totalOf(u"cy"_s), api::Decimal::fromInteger(22 - 160));
    }
};

QTEST_GUILESS_MAIN(TestCallCheck)
#include "tst_callcheck.moc"
