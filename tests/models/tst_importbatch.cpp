// The wizard's models below the views: the batch as a table (include,
// fix in place, encodings, separators), the before/after projection and the
// outcome words, the preview model and its report, and the journal a
// resumed commit reads back (a line cut short by a crash included).
#include "models/ImportBatch.h"
#include "models/ImportChanges.h"
#include "models/ImportJournal.h"
#include "models/ImportPreviewModel.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using models::ImportBatch;
using models::ImportOutcome;

namespace {

api::Decimal number(qint64 units)
{
    return api::Decimal::fromInteger(units);
}

api::FlashedPlan flashed(const QString &plan, bool skipped = false, bool expired = false)
{
    api::FlashedPlan f;
    f.planId = plan;
    f.skipped = skipped;
    if (expired)
        f.expired = true;
    return f;
}

// Reading runs on a worker thread.
bool settled(const ImportBatch &batch)
{
    return !batch.isReading() || QSignalSpy(&batch, &ImportBatch::ready).wait(10000);
}

} // namespace

class TestImportBatch final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void csvRowsAreIncludedFixedAndCounted()
    {
        ImportBatch batch;
        QAbstractItemModelTester tester(&batch);
        QSignalSpy counts(&batch, &ImportBatch::countsChanged);
        batch.setSource(u"people.csv"_s, "customer_id;email;plan_id\n"
                                         "ann;ann@example.com;pro\n"
                                         "bob;bob-at-example;pro\n");
        QVERIFY(settled(batch));
        QCOMPARE(batch.separator(), u';');
        QCOMPARE(batch.header(), (QStringList{u"customer_id"_s, u"email"_s, u"plan_id"_s}));
        QCOMPARE(batch.columnCount(), 3 + 3); // include, line, the columns, problem
        QCOMPARE(batch.rowCount(), 2);
        QCOMPARE(batch.problemCount(), 1);
        QCOMPARE(batch.index(1, ImportBatch::LineColumn).data().toInt(), 3);
        const QModelIndex email = batch.index(1, 3);
        QVERIFY(email.flags() & Qt::ItemIsEditable);
        QVERIFY(email.data(Qt::BackgroundRole).isValid());
        QVERIFY(!batch.index(0, 3).data(Qt::BackgroundRole).isValid());
        QCOMPARE(batch.index(1, 5).data().toString(), u"email: not an email address"_s);
        QVERIFY(batch.index(1, 0).data(ImportBatch::ProblemRole).toBool());

        // Left out: not a problem any more, and not imported.
        counts.clear();
        QVERIFY(batch.setData(batch.index(1, 0), Qt::Unchecked, Qt::CheckStateRole));
        QCOMPARE(counts.size(), 1);
        QCOMPARE(batch.problemCount(), 0);
        QCOMPARE(batch.items().size(), 1);
        batch.includeAll();
        QCOMPARE(batch.problemCount(), 1);
        QVERIFY(batch.setData(email, u"bob@example.com"_s));
        QCOMPARE(batch.problemCount(), 0);
        QCOMPARE(batch.items().size(), 2);
        QCOMPARE(batch.items().at(1).request.customerData->email, u"bob@example.com"_s);
        QCOMPARE(batch.items().at(1).line, 3);

        // Another separator reads other columns, and the mapping is guessed again.
        batch.setSeparator(u',');
        QVERIFY(settled(batch));
        QCOMPARE(batch.columnCount(), 1 + 3);
        QCOMPARE(batch.mapping().customerId, -1);
        QCOMPARE(batch.problemCount(), 2); // no customer id column
    }

    void jsonBodiesAreFixedAsText()
    {
        ImportBatch batch;
        QAbstractItemModelTester tester(&batch);
        batch.setSource({}, "{\"customer_id\":\"ann\",\"billables\":[]}\n{\"customer_id\":\n");
        QVERIFY(settled(batch));
        QCOMPARE(batch.format(), models::ImportFormat::JsonLines);
        QCOMPARE(batch.rowCount(), 2);
        QCOMPARE(batch.problemCount(), 1);
        const QModelIndex body = batch.index(1, 3);
        QCOMPARE(body.data().toString(), u"{\"customer_id\":"_s); // the line as it was
        QVERIFY(batch.setData(body, u"{\"customer_id\":\"bob\",\"billables\":[]}"_s));
        QCOMPARE(batch.problemCount(), 0);
        QCOMPARE(batch.index(1, 2).data().toString(), u"bob"_s);
        QCOMPARE(batch.row(1).line, 2);
        QCOMPARE(batch.preview(5).size(), 3);
    }

    void encodingsAreChosen()
    {
        ImportBatch batch;
        batch.setSource(u"x.csv"_s, "customer_id,name\nc1,Caf\xc3\xa9\n");
        QVERIFY(settled(batch));
        QCOMPARE(batch.index(0, 3).data().toString(), u"Café"_s);
        batch.setEncoding(models::TextEncoding::Latin1);
        QVERIFY(settled(batch));
        QCOMPARE(batch.index(0, 3).data().toString(), u"CafÃ©"_s);
        batch.setSource(u"x.csv"_s, "customer_id,name\nc1,Caf\xe9\n");
        QVERIFY(settled(batch));
        QCOMPARE(batch.index(0, 3).data().toString(), u"Café"_s); // automatic: Latin-1
    }

    void changesProjectPlansAndBalances()
    {
        api::Customer before;
        before.id = u"c"_s;
        api::Subscription old;
        old.planId = u"basic"_s;
        before.subscriptions = {old};
        api::BalanceSummary calls;
        calls.featureId = u"api_calls"_s;
        calls.granted = number(100);
        calls.remaining = number(40);
        api::BalanceBreakdownRow basicRow;
        basicRow.planId = u"basic"_s;
        basicRow.includedGrant = number(100);
        basicRow.remaining = number(40);
        calls.breakdown = {basicRow};
        before.balances.insert(calls.featureId, calls);

        api::Product pro;
        pro.id = u"pro"_s;
        api::ProductItem item;
        item.featureId = u"api_calls"_s;
        item.includedUsage = number(1000);
        pro.items = {item};
        api::ImportCustomerRequest request;
        request.customerId = u"c"_s;
        api::Billable billable;
        billable.plan.planId = u"pro"_s;
        api::ImportBalance usage;
        usage.featureId = u"api_calls"_s;
        usage.usage = api::Decimal::parse(u"250.5"_s);
        billable.plan.balances = {usage};
        request.billables = {billable};
        api::ImportCustomerResponse response;
        response.flashed = {flashed(u"pro"_s), flashed(u"basic"_s, false, true)};

        const auto changes =
            models::ImportChanges::project(before, request, response, {{u"pro"_s, pro}});
        QCOMPARE(changes.plans.size(), 2);
        QCOMPARE(changes.plans.at(0).planId, u"basic"_s);
        QCOMPARE(changes.plans.at(0).after, api::PlanStatus::Expired);
        QCOMPARE(changes.plans.at(1).before, std::nullopt);
        QCOMPARE(changes.plans.at(1).after, api::PlanStatus::Active);
        QCOMPARE(changes.balances.size(), 1);
        const models::BalanceChange &balance = changes.balances.first();
        QCOMPARE(balance.grantedBefore, number(100));
        QCOMPARE(balance.remainingBefore, number(40));
        QCOMPARE(balance.grantedAfter, number(1000)); // basic's row goes, pro's comes
        QCOMPARE(balance.remainingAfter, api::Decimal::parse(u"749.5"_s));
        QCOMPARE(changes.summary(), u"basic expires, + pro (active)"_s);

        QCOMPARE(models::ImportChanges::classify(false, response), ImportOutcome::New);
        QCOMPARE(models::ImportChanges::classify(true, response), ImportOutcome::Expired);
        response.flashed = {flashed(u"pro"_s, true)};
        QCOMPARE(models::ImportChanges::classify(true, response), ImportOutcome::Skipped);
        response.flashed.first().mismatch = true;
        QCOMPARE(models::ImportChanges::classify(false, response), ImportOutcome::Mismatch);
        response.flashed = {flashed(u"pro"_s)};
        QCOMPARE(models::ImportChanges::classify(true, response), ImportOutcome::Updated);
    }

    void previewCountsAndReports()
    {
        models::ImportPreviewModel preview;
        QAbstractItemModelTester tester(&preview);
        ImportBatch batch;
        batch.setSource(u"x.csv"_s, "customer_id,name\nc1,\"One, Inc.\"\nc2,Two\n");
        QVERIFY(settled(batch));
        preview.setItems(batch.items());
        QCOMPARE(preview.outcomeCounts().at(int(ImportOutcome::Pending)), 2);
        preview.setDryRun(0, ImportOutcome::New, {}, {});
        preview.setDryRun(1, ImportOutcome::Error, u"plan \"x\" not found, try again"_s, {});
        QCOMPARE(preview.outcomeCounts().at(int(ImportOutcome::New)), 1);
        QCOMPARE(preview.outcomeCounts().at(int(ImportOutcome::Pending)), 0);
        QCOMPARE(preview.index(1, models::ImportPreviewModel::OutcomeColumn)
                     .data(models::ImportPreviewModel::OutcomeRole)
                     .toInt(),
                 int(ImportOutcome::Error));
        preview.setCommit(0, models::CommitState::Committed, ImportOutcome::New, {});
        QCOMPARE(preview.commitCounts().value(models::CommitState::Committed), 1);
        QCOMPARE(preview.commitCounts().value(models::CommitState::Waiting), 1);
        const QList<QByteArray> lines = preview.reportCsv().split('\n');
        QCOMPARE(lines.at(0), "line,customer_id,dry_run,commit,message\r");
        QCOMPARE(lines.at(1), "2,c1,new,done: new,\r");
        QCOMPARE(lines.at(2), "3,c2,error,not yet,\"plan \"\"x\"\" not found, try again\"\r");
        preview.clearResults();
        QCOMPARE(preview.outcomeCounts().at(int(ImportOutcome::Pending)), 2);
        QCOMPARE(preview.commitCounts().value(models::CommitState::Waiting), 2);
    }

    void journalResumesAfterACrash()
    {
        QTemporaryDir dir;
        const QString source = dir.filePath(u"customers.csv"_s);
        const QString path = models::ImportJournal::pathFor(source, "data");
        QCOMPARE(path, source + u".meterdesk-journal"_s);
        QVERIFY(models::ImportJournal::pathFor({}, "a") != models::ImportJournal::pathFor({}, "b"));
        QString error;
        {
            models::ImportJournal journal(path);
            QVERIFY(journal.load());
            QVERIFY(!journal.exists());
            QVERIFY(journal.begin(u"embedded x"_s, "hash", false));
            QVERIFY(journal.record(u"c1"_s, 2, ImportOutcome::New, {}));
            QVERIFY(journal.record(u"c2"_s, 3, std::nullopt, u"refused"_s));
        }
        // A crash in the middle of a line.
        QFile file(path);
        QVERIFY(file.open(QIODevice::Append));
        file.write("{\"customer_id\":\"c3\",\"res");
        file.close();

        models::ImportJournal again(path);
        QVERIFY(again.load());
        QVERIFY(again.exists());
        QVERIFY(!again.finished());
        QCOMPARE(again.target(), u"embedded x"_s);
        QCOMPARE(again.sourceHash(), "hash");
        QCOMPARE(again.done().keys(), QList<QString>{u"c1"_s}); // the failure is retried
        QVERIFY(again.begin(u"embedded x"_s, "hash", true));
        QVERIFY(again.record(u"c3"_s, 4, ImportOutcome::Updated, {}));
        QVERIFY(again.finish());

        models::ImportJournal last(path);
        QVERIFY(last.load());
        QVERIFY(last.finished());
        QCOMPARE(last.done().size(), 2);
        QCOMPARE(last.done().value(u"c3"_s), ImportOutcome::Updated);

        // Starting afresh sets the old journal aside.
        models::ImportJournal fresh(path);
        QVERIFY(fresh.load());
        QVERIFY(fresh.begin(u"remote y"_s, "hash2", false));
        QVERIFY(fresh.done().isEmpty());
        QVERIFY(QFile::exists(path + u".previous"_s));
    }
};

QTEST_GUILESS_MAIN(TestImportBatch)
#include "tst_importbatch.moc"
