// Group commit (docs/performance.md): calls applied together in one batch
// see each other's deductions in order, a refused call leaves its neighbours
// alone, nothing is written before flush(), every concurrent caller gets its
// own answer, the writer's cache follows writes made elsewhere, and a full
// async queue says to come back later. SQLite and PostgreSQL.
#include "services/engine/sql/Sql.h"
#include "services/engine/track/CallResolver.h"
#include "services/engine/track/TrackBatch.h"
#include "tests/engine/EngineFixture.h"
#include "tests/engine/LedgerWorkspace.h"
#include "tests/engine/ScopeRoutes.h"

#include <QSemaphore>
#include <QThreadPool>

using namespace md;
using namespace Qt::StringLiterals;

class TestGroupCommit final : public QObject
{
    Q_OBJECT

    std::unique_ptr<test::EngineFixture> m_fixture;
    engine::Scope m_scope;

    static api::TrackTokensRequest call(qint64 dollars, bool overflow = false)
    {
        api::TrackTokensRequest request;
        request.customerId = u"cy"_s;
        request.modelId = u"test/dollar"_s;
        request.inputTokens = dollars;
        if (overflow)
            request.overageBehavior = api::OverageBehavior::Overflow;
        return request;
    }

    QSqlDatabase connection() { return m_fixture->engine->database().connection().value(); }

    engine::ResolvedCall resolved(const api::TrackTokensRequest &request)
    {
        auto found = engine::CallResolver::resolve(connection(), m_scope, request,
                                                   *m_fixture->engine->catalogue());
        if (!found)
            qFatal("resolve: %s", qPrintable(found.error().message));
        return found.value();
    }

    // Everything "cy" has left, rows and rollovers, as the engine lists it.
    api::Decimal left()
    {
        api::ListBalancesRequest all;
        all.customerId = u"cy"_s;
        api::Decimal total;
        const auto page = test::listBalances(*m_fixture->engine, m_scope, all);
        if (!page)
            qFatal("list: %s", qPrintable(page.error().message));
        for (const api::BalanceRow &row : page.value().list) {
            total = total.plus(row.remaining).value();
            for (const api::Rollover &rollover : row.rollovers)
                total = total.plus(rollover.balance).value();
        }
        return total;
    }

    qint64 events()
    {
        return engine::queryRows(connection(), u"SELECT COUNT(*) FROM usage_events"_s, {})
            .value()
            .first()
            .first()
            .toLongLong();
    }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<test::EngineFixture>();
        MD_OPEN_FIXTURE(*m_fixture);
        const auto scope = test::ledger::open(*m_fixture);
        QVERIFY(scope);
        m_scope = *scope;
    }

    void callsInOneBatchSeeEachOther()
    {
        const QSqlDatabase db = connection();
        const engine::Dialect dialect = m_fixture->engine->dialect();
        engine::WriteTransaction transaction(db, dialect);
        QVERIFY(transaction.begin().ok());
        engine::TrackBatch batch(db, dialect, *m_fixture->now);
        const api::TrackTokensRequest ten = call(10);
        QVERIFY(batch.lockCustomers({resolved(ten).customerPk}, {resolved(ten).featurePk}).ok());
        QVERIFY(batch.prefetch(m_scope, {resolved(ten)}).ok());
        // 22 dollars: 10, then 10 of the 12 left, then the last 2 (capped).
        QList<api::Decimal> after;
        QList<api::Decimal> taken;
        for (int i = 0; i < 3; ++i) {
            auto answer = batch.add(m_scope, ten, resolved(ten), std::nullopt);
            QVERIFY2(answer.ok(), answer.ok() ? "" : qPrintable(answer.error().message));
            after.append(answer.value().balance->remaining);
            api::Decimal sum;
            for (const api::Deduction &deduction : answer.value().deductions)
                sum = sum.plus(deduction.value).value();
            taken.append(sum);
        }
        QCOMPARE(taken, (QList{api::Decimal::fromInteger(10), api::Decimal::fromInteger(10),
                               api::Decimal::fromInteger(2)}));
        QCOMPARE(after.last(), api::Decimal());
        QCOMPARE(left(), api::Decimal::fromInteger(22)); // nothing written before flush
        QVERIFY(batch.flush().ok());
        QVERIFY(transaction.commit().ok());
        QCOMPARE(left(), api::Decimal());
        QCOMPARE(events(), 3);
    }

    void aRefusalLeavesItsNeighboursAlone()
    {
        const QSqlDatabase db = connection();
        const engine::Dialect dialect = m_fixture->engine->dialect();
        engine::WriteTransaction transaction(db, dialect);
        QVERIFY(transaction.begin().ok());
        engine::TrackBatch batch(db, dialect, *m_fixture->now);
        const api::TrackTokensRequest one = call(1);
        QVERIFY(batch.add(m_scope, one, resolved(one), u"k"_s).ok());
        auto repeated = batch.add(m_scope, one, resolved(one), u"k"_s);
        QVERIFY(!repeated.ok());
        QCOMPARE(repeated.error().status, 409);
        auto third = batch.add(m_scope, one, resolved(one), std::nullopt);
        QVERIFY(third.ok());
        QCOMPARE(third.value().balance->remaining, api::Decimal::fromInteger(20));
        QVERIFY(batch.flush().ok());
        QVERIFY(transaction.commit().ok());
        QCOMPARE(left(), api::Decimal::fromInteger(20));
        QCOMPARE(events(), 2);
    }

    void aBatchNeverFlushedWritesNothing()
    {
        {
            engine::TrackBatch batch(connection(), m_fixture->engine->dialect(), *m_fixture->now);
            QVERIFY(batch.add(m_scope, call(5), resolved(call(5)), std::nullopt).ok());
        }
        QCOMPARE(left(), api::Decimal::fromInteger(22));
        QCOMPARE(events(), 0);
    }

    void concurrentCallsAreEachAnsweredAfterTheirCommit()
    {
        // 16 threads hand over 25 calls each without waiting; every answer
        // arrives once, and the balances hold exactly what was taken.
        constexpr int Threads = 16;
        constexpr int Calls = 25;
        QSemaphore answered;
        std::atomic<int> failures{0};
        QThreadPool pool;
        pool.setMaxThreadCount(Threads);
        for (int t = 0; t < Threads; ++t)
            pool.start([&, t] {
                for (int i = 0; i < Calls; ++i)
                    m_fixture->engine->trackTokens(
                        m_scope, call(1, true), u"call-%1-%2"_s.arg(t).arg(i),
                        [&](api::Result<api::TrackTokensResponse> answer) {
                            if (!answer.ok() || answer.value().deductions.isEmpty())
                                ++failures;
                            answered.release();
                        });
            });
        answered.acquire(Threads * Calls); // each call answered (once: no more are released)
        pool.waitForDone();
        QCOMPARE(failures.load(), 0);
        QCOMPARE(answered.available(), 0);
        QCOMPARE(left(), api::Decimal::fromInteger(22 - Threads * Calls));
        QCOMPARE(events(), Threads * Calls);
    }

    void aCustomersCallsAreAppliedInTheOrderTheyCame()
    {
        // More calls than several batches hold, handed over at once: on
        // PostgreSQL two writers take batches, and a customer's later batch
        // must wait for its earlier one. 22 dollars: the first 22 calls take
        // one each, every later one finds nothing left.
        constexpr int Calls = 5 * engine::TrackWriter::MaxBatch + 7;
        std::vector<engine::TrackWriter::Submission> calls;
        QList<std::optional<api::Decimal>> taken(Calls);
        QSemaphore answered;
        for (int i = 0; i < Calls; ++i)
            calls.push_back(
                {call(1), std::nullopt, [&, i](api::Result<api::TrackTokensResponse> answer) {
                     api::Decimal sum;
                     if (answer)
                         for (const api::Deduction &part : answer.value().deductions)
                             sum = sum.plus(part.value).value();
                     taken[i] = sum;
                     answered.release();
                 }});
        m_fixture->engine->trackWriter().submitAll(m_scope, std::move(calls));
        answered.acquire(Calls);
        for (int i = 0; i < Calls; ++i)
            QVERIFY2(taken.at(i) == api::Decimal::fromInteger(i < 22 ? 1 : 0),
                     qPrintable(u"call %1 took %2"_s.arg(i).arg(taken.at(i)->toString())));
        QCOMPARE(left(), api::Decimal());
    }

    void theWriterSeesWhatOthersWrote()
    {
        // The writer keeps the rows it read between batches (SQLite); a
        // change made on another connection must not be overwritten.
        QVERIFY(m_fixture->engine->trackTokens(m_scope, call(1), std::nullopt).ok());
        QVERIFY(engine::execute(connection(),
                                u"UPDATE balances SET remaining = '100' WHERE id = 'plan_daily'"_s,
                                {})
                    .ok());
        auto next = m_fixture->engine->trackTokens(m_scope, call(1), std::nullopt);
        QVERIFY(next.ok());
        // 21 left after the first call; plan_daily went from 5 to 100; minus 1.
        QCOMPARE(next.value().balance->remaining, api::Decimal::fromInteger(21 + 95 - 1));
        QCOMPARE(left(), api::Decimal::fromInteger(21 + 95 - 1));
    }

    void aFullQueueAsksToComeBackLater()
    {
        engine::TrackQueue &queue = m_fixture->engine->trackQueue(); // no worker runs
        queue.setBacklogLimit(2);
        api::TrackTokensRequest async = call(1);
        async.async = true;
        QVERIFY(queue.enqueue(m_scope, async, std::nullopt).ok());
        QVERIFY(queue.enqueue(m_scope, async, std::nullopt).ok());
        auto full = queue.enqueue(m_scope, async, std::nullopt);
        QVERIFY(!full.ok());
        QCOMPARE(full.error().status, 503);
        QCOMPARE(full.error().code, u"queue_full"_s);
        QCOMPARE(queue.counts(m_scope).value().pending, 2); // the refused call was not stored
        QCOMPARE(queue.drain().value(), 2);
        QVERIFY(queue.enqueue(m_scope, async, std::nullopt).ok()); // room again
        QCOMPARE(left(), api::Decimal::fromInteger(20));
    }
};

QTEST_GUILESS_MAIN(TestGroupCommit)
#include "tst_groupcommit.moc"
