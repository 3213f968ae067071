// The usage backfill's models (UsageFile, UsageBackfill and its tables) on
// the small workspace behind an EngineBackend: a CSV's bad cells found in
// their columns, JSON events of both kinds, the dry run's before and after
// (rollovers drawn first, shown apart from remaining) and refusals, events
// drawing on no balance listed apart, a commit that counts nothing twice when
// run again, and one
// cancelled then resumed exactly where it stopped; and, on a backend that
// answers when told, two requests in flight only when they share no
// customer, their answers taken in the order sent.
#include "models/common/AmountFormat.h"
#include "models/usage/UsageBackfill.h"
#include "models/usage/UsageChangeModel.h"
#include "models/usage/UsageRefusalModel.h"
#include "tests/models/SmallBackend.h"
#include "tests/support/StubBackend.h"

#include <QAbstractItemModelTester>
#include <QPromise>
#include <QTemporaryDir>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using models::UsageField;

namespace {

const QByteArray Csv = "customer,feature,quantity,time\n"
                       "bob,api_calls,10,5000\n"
                       "bob,api_calls,2.5,1970-01-01T00:00:06Z\n"
                       "bob,api_calls,abc,5000\n"
                       ",api_calls,1,5000\n"
                       "bob,api_calls,1,yesterday\n"
                       "zed,api_calls,1,5000\n";

api::Decimal dec(const char *text)
{
    return *api::Decimal::parse(QByteArrayView(text));
}

// Holds each usage.batch request until the test answers it: every event applied.
class HeldBatches final : public test::StubBackend
{
public:
    struct Held
    {
        api::UsageBatchRequest request;
        std::shared_ptr<QPromise<api::Result<api::UsageBatchResponse>>> promise;
    };
    QList<Held> held;

    backend::Reply<api::UsageBatchResponse>
    usageBatch(const api::UsageBatchRequest &request) override
    {
        auto promise = std::make_shared<QPromise<api::Result<api::UsageBatchResponse>>>();
        promise->start();
        held.append({request, promise});
        return promise->future();
    }

    void answer(qsizetype index)
    {
        api::UsageBatchResponse response;
        response.results.resize(held.at(index).request.events.size());
        held.at(index).promise->addResult(api::Result<api::UsageBatchResponse>(response));
        held.at(index).promise->finish();
    }

    void fail(qsizetype index)
    {
        held.at(index).promise->addResult(api::Result<api::UsageBatchResponse>(
            api::ApiError{503, api::ErrorCode::DatabaseUnavailable, u"the server went away"_s}));
        held.at(index).promise->finish();
    }
};

QList<models::UsageBackfill::Item> eventsOf(const QList<std::pair<QString, int>> &customers)
{
    QList<models::UsageBackfill::Item> items;
    for (const auto &[customer, count] : customers)
        for (int i = 0; i < count; ++i) {
            api::TrackRequest event;
            event.customerId = customer;
            event.featureId = u"api_calls"_s;
            items.append({int(items.size()) + 2,
                          api::UsageBatchEvent{event.asCall(), u"k-%1-%2"_s.arg(customer).arg(i)}});
        }
    return items;
}

} // namespace

class TestUsageBackfill final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<embedded::EngineBackend> m_backend;

    api::Decimal bobRemaining()
    {
        api::ListBalancesRequest request;
        request.customerId = u"bob"_s;
        request.featureId = u"api_calls"_s;
        auto future = m_backend->listBalances(request);
        future.waitForFinished();
        return future.result().value().list.first().remaining;
    }

    // Runs `start` and waits for the backfill to finish; false on an error.
    template <typename Start> bool run(models::UsageBackfill &backfill, Start start)
    {
        QSignalSpy finished(&backfill, &models::UsageBackfill::finished);
        start();
        if (!finished.wait(20000)) // never emitted from inside start…()
            return false;
        return finished.first().at(1).toString().isEmpty();
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_backend = test::smallBackend(m_dir.filePath(u"usage.db"_s));
        QVERIFY(m_backend);
    }

    void csvCellsAreCheckedWhereTheyAre()
    {
        const auto content = models::UsageFile::read(Csv, u"past.csv"_s, {}, u"bf-x"_s);
        QCOMPARE(content.format, models::ImportFormat::Csv);
        QCOMPARE(content.rows.size(), 6);
        // Guessed from the header's common names.
        const models::UsageMapping guessed = models::UsageMapping::guess(content.header);
        QCOMPARE(guessed.column(UsageField::CustomerId), 0);
        QCOMPARE(guessed.column(UsageField::Value), 2);
        QCOMPARE(guessed.column(UsageField::Timestamp), 3);
        QVERIFY(content.rows.at(0).isValid());
        QCOMPARE(content.rows.at(0).event->call.value, std::optional(dec("10")));
        // A row with a time is keyed by what it says: the same event keeps its
        // key in another export, moved to another line among other rows.
        const QString key = *content.rows.at(0).event->idempotencyKey;
        QVERIFY2(key.startsWith(u"usage-"_s) && key.endsWith(u"-1"_s), qPrintable(key));
        const auto exported = models::UsageFile::read(
            "time,quantity,feature,customer\n6000,1,api_calls,bob\n5000,10,api_calls,bob\n"
            "5000,10,api_calls,bob\n",
            u"again.csv"_s, {}, u"bf-other"_s);
        QCOMPARE(exported.rows.at(1).event->idempotencyKey, std::optional(key));
        // Its twin on the next line is another event.
        QVERIFY(exported.rows.at(2).event->idempotencyKey != std::optional(key));
        QVERIFY(exported.rows.at(2).event->idempotencyKey->endsWith(u"-2"_s));
        // A customer's keys begin alike (they sit together in the server's
        // index of keys); another customer's do not.
        const auto ownerOf = [&](int row) {
            return content.rows.at(row).event->idempotencyKey->section(u'-', 1, 1);
        };
        QCOMPARE(ownerOf(1), ownerOf(0));
        QVERIFY(ownerOf(5) != ownerOf(0));
        QCOMPARE(content.rows.at(1).event->call.timestamp, std::optional(qint64(6000)));
        QVERIFY(content.rows.at(2).cellErrors.contains(2));
        QVERIFY(content.rows.at(3).cellErrors.contains(0));
        QVERIFY(content.rows.at(4).cellErrors.contains(3));
        QVERIFY(content.rows.at(5).isValid()); // refused by the server, not here
        // A saved mapping fits a file whose columns moved.
        const QJsonObject saved = guessed.toJson(content.header);
        const QStringList moved{u"time"_s, u"quantity"_s, u"customer"_s, u"feature"_s};
        const auto again = models::UsageMapping::fromJson(saved, moved);
        QCOMPARE(again.column(UsageField::CustomerId), 2);
        QCOMPARE(again.column(UsageField::Timestamp), 0);
    }

    void jsonEventsOfBothKinds()
    {
        const QByteArray lines =
            R"({"customer_id":"bob","model_id":"openai/gpt-4o-mini","input_tokens":5,"output_tokens":1})"
            "\n"
            R"({"customer_id":"bob","feature_id":"api_calls","value":3,"idempotency_key":"mine"})"
            "\n"
            R"({"customer_id":"bob"})"
            "\nnot json\n";
        const auto content = models::UsageFile::read(lines, u"past.jsonl"_s, {}, u"bf-y"_s);
        QCOMPARE(content.rows.size(), 4);
        QVERIFY(content.rows.at(0).isValid());
        QVERIFY(!content.rows.at(0).event->call.value); // tokens
        QCOMPARE(content.rows.at(1).event->idempotencyKey, std::optional(u"mine"_s));
        // No time, no key of its own: the file's and the line's.
        QCOMPARE(content.rows.at(0).event->idempotencyKey, std::optional(u"bf-y-1"_s));
        QVERIFY(content.rows.at(2).error.contains(u"feature"_s));
        QVERIFY(!content.rows.at(3).error.isEmpty());
    }

    void dryRunThenCommitCountsOnce()
    {
        auto content = models::UsageFile::read(Csv, u"past.csv"_s, {}, u"bf-z"_s);
        models::UsageBackfill backfill(m_backend.get());
        backfill.setItems(models::UsageBackfill::order(content.rows));
        QCOMPARE(backfill.size(), 3);
        models::UsageChangeModel changes(&backfill);
        models::UsageRefusalModel refusals(&backfill);
        QAbstractItemModelTester changesTester(&changes);
        QAbstractItemModelTester refusalsTester(&refusals);
        const api::Decimal before = bobRemaining();
        QVERIFY(run(backfill, [&] { backfill.startDryRun(); }));
        changes.reload();
        refusals.reload();
        QCOMPARE(changes.rowCount(), 1);
        const auto &change = backfill.changes().first();
        QCOMPARE(change.customerId, u"bob"_s);
        QCOMPARE(change.before, before);
        QCOMPARE(change.after, before.minus(dec("12.5")).value());
        QCOMPARE(change.used, dec("12.5"));
        QCOMPARE(change.events, 2);
        QVERIFY(!change.estimated);
        QCOMPARE(refusals.rowCount(), 1);
        QCOMPARE(refusals.index(0, models::UsageRefusalModel::LineColumn).data().toInt(), 7);
        QCOMPARE(refusals.index(0, models::UsageRefusalModel::StatusColumn).data().toInt(), 404);
        QCOMPARE(bobRemaining(), before); // the dry run wrote nothing

        QVERIFY(run(backfill, [&] { backfill.startCommit(0); }));
        QCOMPARE(backfill.applied(), 2);
        QCOMPARE(backfill.refusals().size(), 1);
        QCOMPARE(bobRemaining(), before.minus(dec("12.5")).value());
        // Run again: the keys made from the file and line were used.
        QVERIFY(run(backfill, [&] { backfill.startCommit(0); }));
        QCOMPARE(backfill.applied(), 0);
        QCOMPARE(backfill.alreadyRecorded(), 2);
        QCOMPARE(bobRemaining(), before.minus(dec("12.5")).value());
    }

    void rolloversAreDrawnApartFromRemaining()
    {
        // ann's api_calls: 750.5 remaining, and 50 then 40 rolled over
        // (soonest to expire first), which remaining leaves out.
        auto content = models::UsageFile::read("customer,feature,quantity\n"
                                               "ann,api_calls,60\n"
                                               "ann,api_calls,40\n",
                                               u"rolled.csv"_s, {}, u"bf-roll"_s);
        models::UsageBackfill backfill(m_backend.get());
        backfill.setItems(models::UsageBackfill::order(content.rows));
        models::UsageChangeModel changes(&backfill);
        QAbstractItemModelTester tester(&changes);
        QVERIFY(run(backfill, [&] { backfill.startDryRun(); }));
        changes.reload();
        QCOMPARE(changes.rowCount(), 1);
        const auto &change = backfill.changes().first();
        // 90 from the rollovers, then 10 off remaining: before − used = after.
        QCOMPARE(change.before, dec("750.5"));
        QCOMPARE(change.used, dec("10"));
        QCOMPARE(change.after, dec("740.5"));
        QCOMPARE(change.fromRollovers, dec("90"));
        QCOMPARE(change.events, 2);
        QCOMPARE(changes.index(0, models::UsageChangeModel::RolloversColumn).data().toString(),
                 models::formatAmount(dec("90"), QLocale()));
    }

    void eventsDrawingOnNoBalanceAreListedApart()
    {
        // bob holds no balance of messages: recorded, drawing on nothing.
        auto content = models::UsageFile::read("customer,feature,quantity\n"
                                               "bob,messages,2\n"
                                               "bob,api_calls,1\n"
                                               "bob,messages,3\n",
                                               u"none.csv"_s, {}, u"bf-none"_s);
        models::UsageBackfill backfill(m_backend.get());
        backfill.setItems(models::UsageBackfill::order(content.rows));
        models::UsageChangeModel changes(&backfill);
        models::UsageNoBalanceModel noBalance(&backfill);
        QAbstractItemModelTester changesTester(&changes);
        QAbstractItemModelTester noBalanceTester(&noBalance);
        QVERIFY(run(backfill, [&] { backfill.startDryRun(); }));
        changes.reload();
        noBalance.reload();
        QCOMPARE(changes.rowCount(), 1); // api_calls, not a 0.00 → 0.00 row of messages
        QCOMPARE(backfill.changes().first().featureId, u"api_calls"_s);
        QCOMPARE(backfill.refusals().size(), 0);
        QCOMPARE(noBalance.rowCount(), 1);
        const auto &noted = backfill.noBalance().first();
        QCOMPARE(noted.customerId, u"bob"_s);
        QCOMPARE(noted.entityId, std::nullopt);
        QCOMPARE(noted.featureId, u"messages"_s);
        QCOMPARE(noted.events, 2);
        QCOMPARE(noted.value, dec("5"));
        QCOMPARE(noBalance.index(0, models::UsageNoBalanceModel::EventsColumn).data().toString(),
                 QLocale().toString(2));
    }

    void aCancelledCommitResumesWhereItStopped()
    {
        QByteArray csv = "customer_id,feature_id,value\n";
        for (int i = 0; i < 2500; ++i)
            csv += "bob,api_calls,0.001\n";
        auto content = models::UsageFile::read(csv, u"many.csv"_s, {}, u"bf-many"_s);
        models::UsageBackfill backfill(m_backend.get());
        backfill.setItems(models::UsageBackfill::order(content.rows));
        const api::Decimal before = bobRemaining();
        QSignalSpy finished(&backfill, &models::UsageBackfill::finished);
        backfill.startCommit(0);
        backfill.cancel(); // the request in flight is answered, no other sent
        QVERIFY(finished.wait(20000));
        QVERIFY(finished.first().at(0).toBool());
        QCOMPARE(backfill.committed(), models::UsageBackfill::CommitEvents);
        QCOMPARE(bobRemaining(), before.minus(dec("1")).value());
        QVERIFY(run(backfill, [&] { backfill.startCommit(backfill.committed()); }));
        QCOMPARE(backfill.applied(), 1500);
        QCOMPARE(backfill.alreadyRecorded(), 0);
        QCOMPARE(bobRemaining(), before.minus(dec("2.5")).value());
    }

    void twoRequestsInFlightWhenTheyShareNoCustomer()
    {
        HeldBatches backend;
        models::UsageBackfill backfill(&backend);
        backfill.setItems(eventsOf({{u"a"_s, 600}, {u"b"_s, 600}, {u"c"_s, 600}}));
        QSignalSpy progress(&backfill, &models::UsageBackfill::progress);
        QSignalSpy finished(&backfill, &models::UsageBackfill::finished);
        backfill.startCommit(0);
        // Cut where a customer ends: a's events, then b's, both sent at once.
        QCOMPARE(backend.held.size(), 2);
        QCOMPARE(backend.held.at(0).request.events.size(), 600);
        QCOMPARE(backend.held.at(1).request.events.first().value().call.customerId, u"b"_s);
        QCOMPARE(backend.held.at(1).request.events.size(), 600);
        // The second answered first: nothing is taken before the first.
        backend.answer(1);
        QCoreApplication::processEvents(); // its answer delivered, and kept
        QCOMPARE(backfill.committed(), 0);
        QCOMPARE(backend.held.size(), 2);
        backend.answer(0);
        QTRY_COMPARE(backfill.committed(), 1200);
        QCOMPARE(backfill.applied(), 1200);
        QCOMPARE(progress.last().at(0).toLongLong(), 1200);
        QCOMPARE(backend.held.size(), 3); // c's events
        backfill.cancel();
        backend.answer(2);
        QVERIFY(finished.wait(5000));
        QVERIFY(!finished.first().at(0).toBool()); // everything was sent before Cancel
        QCOMPARE(backfill.committed(), 1800);
    }

    void oneCustomersEventsAreNeverInFlightTogether()
    {
        HeldBatches backend;
        models::UsageBackfill backfill(&backend);
        // a's 1,500 events fill the first request and begin the second.
        backfill.setItems(eventsOf({{u"a"_s, 1500}, {u"b"_s, 10}}));
        QSignalSpy finished(&backfill, &models::UsageBackfill::finished);
        backfill.startCommit(0);
        QCOMPARE(backend.held.size(), 1);
        QCOMPARE(backend.held.at(0).request.events.size(), models::UsageBackfill::CommitEvents);
        backend.answer(0);
        QTRY_COMPARE(backend.held.size(), 2); // the rest of a's, then b's with them
        QCOMPARE(backend.held.at(1).request.events.size(), 510);
        backfill.cancel();
        backend.answer(1);
        QVERIFY(finished.wait(5000));
        QCOMPARE(backfill.committed(), 1510);
    }

    void cancelWaitsForEveryRequestInFlight()
    {
        HeldBatches backend;
        models::UsageBackfill backfill(&backend);
        backfill.setItems(eventsOf({{u"a"_s, 900}, {u"b"_s, 900}, {u"c"_s, 900}}));
        QSignalSpy finished(&backfill, &models::UsageBackfill::finished);
        backfill.startCommit(0);
        QCOMPARE(backend.held.size(), 2);
        backfill.cancel();
        backend.answer(0);
        QTRY_COMPARE(backfill.committed(), 900);
        QCOMPARE(finished.size(), 0); // b's request is still out
        backend.answer(1);
        QVERIFY(finished.wait(5000));
        QVERIFY(finished.first().at(0).toBool());
        QCOMPARE(backfill.committed(), 1800);
        QCOMPARE(backend.held.size(), 2); // c's never sent
    }

    void anErrorEndsTheRunOnceTheOtherRequestIsAnswered()
    {
        HeldBatches backend;
        models::UsageBackfill backfill(&backend);
        backfill.setItems(eventsOf({{u"a"_s, 900}, {u"b"_s, 900}, {u"c"_s, 900}}));
        QSignalSpy finished(&backfill, &models::UsageBackfill::finished);
        backfill.startCommit(0);
        QCOMPARE(backend.held.size(), 2);
        backend.fail(1); // b's request
        QCoreApplication::processEvents();
        QCOMPARE(finished.size(), 0); // a's is still out: a run started now could send it again
        QVERIFY(backfill.isRunning());
        backend.answer(0);
        QVERIFY(finished.wait(5000));
        QVERIFY(!finished.first().at(0).toBool());
        QCOMPARE(finished.first().at(1).toString(), u"the server went away"_s);
        QCOMPARE(backfill.committed(), 900); // a's, answered in order; b's not
        QCOMPARE(backfill.applied(), 900);
        QCOMPARE(backend.held.size(), 2); // c's never sent
    }
};

QTEST_GUILESS_MAIN(TestUsageBackfill)
#include "tst_usagebackfill.moc"
