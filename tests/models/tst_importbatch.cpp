// The wizard's models below the views: the batch as a table (include,
// fix in place, encodings, separators, a customer on two lines), the preview
// model and its report, the journal a resumed commit reads back (a line cut
// short by a crash included), and a commit that takes as done only what an
// earlier run recorded. The before/after is tst_importchanges.
#include "models/import/ImportBatch.h"
#include "models/import/ImportJournal.h"
#include "models/import/ImportPreviewModel.h"
#include "models/import/ImportRunner.h"
#include "tests/support/StubBackend.h"

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

// Answers every import as done, counting them.
class ImportingBackend final : public test::StubBackend
{
public:
    int imports = 0;

    backend::Reply<api::ImportCustomerResponse>
    importCustomer(const api::ImportCustomerRequest &request) override
    {
        ++imports;
        api::ImportCustomerResponse response;
        response.customerId = request.customerId;
        return QtFuture::makeReadyFuture(api::Result<api::ImportCustomerResponse>(response));
    }
};

// Reading runs on a worker thread.
bool settled(const ImportBatch &batch)
{
    return !batch.isReading() || QSignalSpy(&batch, &ImportBatch::ready).wait(10000);
}

// `csv` read into `batch`, every row of it past validation (as before the
// duplicate check) and dry-run as new in `preview`, and `journal` begun: a
// commit can start.
bool readyToCommit(ImportBatch &batch, const QByteArray &csv, models::ImportPreviewModel &preview,
                   models::ImportJournal &journal)
{
    batch.setSource(u"run.csv"_s, csv);
    if (!settled(batch))
        return false;
    preview.setItems(batch.items());
    for (int r = 0; r < preview.rowCount(); ++r)
        preview.setDryRun(r, ImportOutcome::New, {}, {});
    return journal.load() && journal.begin(u"embedded x"_s, "hash", false);
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

    // Issue 51: a customer on two lines was previewed twice as new and one
    // line silently dropped. Both lines are a problem, each naming the other.
    void aCustomerOnTwoLinesIsAProblemOnBoth()
    {
        ImportBatch batch;
        QAbstractItemModelTester tester(&batch);
        batch.setSource(u"walk.csv"_s, "customer_id,email\n"
                                       "walk-001,one@walk.example\n"
                                       "walk-002,two@walk.example\n"
                                       "walk-003,three@walk.example\n"
                                       "walk-001,again@walk.example\n");
        QVERIFY(settled(batch));
        QCOMPARE(batch.problemCount(), 2);
        const int problem = batch.columnCount() - 1;
        QCOMPARE(batch.index(0, problem).data().toString(),
                 u"customer walk-001 is also on line(s) 5; leave out all but one"_s);
        QCOMPARE(batch.index(3, problem).data().toString(),
                 u"customer walk-001 is also on line(s) 2; leave out all but one"_s);
        const QModelIndex customer = batch.index(0, 2);
        QVERIFY(customer.data(Qt::BackgroundRole).isValid());
        QVERIFY(customer.data(Qt::ToolTipRole).toString().contains(u"line(s) 5"_s));
        QVERIFY(batch.index(3, 0).data(ImportBatch::ProblemRole).toBool());
        QVERIFY(!batch.index(1, 0).data(ImportBatch::ProblemRole).toBool());

        // One left out: the other is fine again, and three are imported.
        QSignalSpy changed(&batch, &ImportBatch::dataChanged);
        QVERIFY(batch.setData(batch.index(3, 0), Qt::Unchecked, Qt::CheckStateRole));
        QCOMPARE(batch.problemCount(), 0);
        QVERIFY(!customer.data(Qt::BackgroundRole).isValid());
        QVERIFY(batch.index(0, problem).data().toString().isEmpty());
        QVERIFY(std::any_of(changed.cbegin(), changed.cend(), [](const QList<QVariant> &args) {
            return args.at(0).toModelIndex().row() == 0; // the view repaints the other line
        }));
        QCOMPARE(batch.items().size(), 3);
        // A fix that makes another duplicate is caught as it is typed.
        QVERIFY(batch.setData(batch.index(2, 2), u"walk-002"_s));
        QCOMPARE(batch.problemCount(), 2);
        batch.excludeProblems(); // which line is right is for the user to say: both go
        QCOMPARE(batch.items().size(), 1);
    }

    // Once the workspace's plans are known, a row naming another plan is
    // flagged at validation (a warning: the server would refuse it), row by
    // row, with no reset that would close an editor; fixing it clears it.
    void aPlanTheWorkspaceLacksIsFlaggedRowByRow()
    {
        ImportBatch batch;
        QAbstractItemModelTester tester(&batch);
        batch.setSource(u"plans.csv"_s, "customer_id,plan_id\n"
                                        "p-1,pro\n"
                                        "p-2,platinum\n"
                                        "p-3,starter\n");
        QVERIFY(settled(batch));
        QVERIFY(!batch.knowsPlans());
        QCOMPARE(batch.unknownPlanCount(), 0); // nothing said before the plans are known
        QSignalSpy resets(&batch, &ImportBatch::modelReset);
        QSignalSpy changed(&batch, &ImportBatch::dataChanged);
        batch.setKnownPlans({u"pro"_s, u"starter"_s, u"free"_s});
        QCOMPARE(resets.size(), 0);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.first().at(0).toModelIndex().row(), 1);
        QCOMPARE(batch.unknownPlanCount(), 1);
        QCOMPARE(batch.problemCount(), 0); // a warning: the row may still go to the dry run
        const QModelIndex plan = batch.index(1, 3);
        QVERIFY(plan.data(Qt::BackgroundRole).isValid());
        QVERIFY2(plan.data(Qt::ToolTipRole).toString().contains(u"\"platinum\" is not a plan"_s),
                 qPrintable(plan.data(Qt::ToolTipRole).toString()));
        QVERIFY(plan.data(Qt::ToolTipRole).toString().contains(u"free, pro, starter"_s));
        QVERIFY(batch.index(1, batch.columnCount() - 1).data().toString().contains(u"platinum"_s));
        QVERIFY(!batch.index(0, 3).data(Qt::BackgroundRole).isValid());
        // Fixed in place: the warning goes.
        QVERIFY(batch.setData(plan, u"pro"_s));
        QCOMPARE(batch.unknownPlanCount(), 0);
        QVERIFY(!plan.data(Qt::BackgroundRole).isValid());
        // Mapped instead (the file read again with it): a plan value makes it a plan the
        // workspace has.
        models::CsvMapping mapping = batch.mapping();
        mapping.planValues.insert(u"platinum"_s, u"pro"_s);
        batch.setMapping(mapping);
        QVERIFY(settled(batch));
        QCOMPARE(batch.unknownPlanCount(), 0);
        QCOMPARE(batch.items().at(1).request.billables.first().plan.planId, u"pro"_s);
        // A row left out is not counted.
        QVERIFY(batch.setData(batch.index(2, 3), u"gold"_s));
        QCOMPARE(batch.unknownPlanCount(), 1);
        QVERIFY(batch.setData(batch.index(2, 0), Qt::Unchecked, Qt::CheckStateRole));
        QCOMPARE(batch.unknownPlanCount(), 0);
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
        QVERIFY(QFile::exists(fresh.previousPath()));
        QCOMPARE(fresh.previousPath(), path + u".previous"_s);
    }

    // Issue 51: the second line of a customer was reported "done in an
    // earlier run" because the first line had just been journaled. Only what
    // an earlier run recorded is taken as done.
    void aCommitTakesAsDoneOnlyWhatAnEarlierRunRecorded()
    {
        QTemporaryDir dir;
        ImportBatch batch;
        models::ImportPreviewModel preview;
        models::ImportJournal journal(dir.filePath(u"walk.csv.meterdesk-journal"_s));
        QVERIFY(
            readyToCommit(batch, "customer_id\nwalk-001\nwalk-002\nwalk-001\n", preview, journal));
        ImportingBackend backend;
        models::ImportRunner runner(&backend, &preview);
        QSignalSpy finished(&runner, &models::ImportRunner::finished);
        runner.startCommit(&journal);
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(backend.imports, 3);
        QCOMPARE(preview.commitCounts().value(models::CommitState::Committed), 3);
        QCOMPARE(preview.commitCounts().value(models::CommitState::Earlier), 0);

        // Read back, it is an earlier run's: nothing is sent again.
        models::ImportJournal again(journal.path());
        QVERIFY(again.load());
        QVERIFY(again.finished());
        QCOMPARE(again.earlier().size(), 2);
        QVERIFY(again.begin(u"embedded x"_s, "hash", true));
        QVERIFY(!again.finished()); // until this run finishes too
        preview.clearResults();
        for (int r = 0; r < preview.rowCount(); ++r)
            preview.setDryRun(r, ImportOutcome::Unchanged, {}, {});
        models::ImportRunner resumed(&backend, &preview);
        QSignalSpy resumedFinished(&resumed, &models::ImportRunner::finished);
        resumed.startCommit(&again);
        QTRY_COMPARE(resumedFinished.size(), 1);
        QCOMPARE(backend.imports, 3);
        QCOMPARE(preview.commitCounts().value(models::CommitState::Earlier), 3);
    }

    // Paused while the person is asked whether to stop: the customer in
    // flight finishes, no other is sent until the run resumes.
    void aPausedCommitSendsNothingMore()
    {
        QTemporaryDir dir;
        ImportBatch batch;
        models::ImportPreviewModel preview;
        models::ImportJournal journal(dir.filePath(u"pause.csv.meterdesk-journal"_s));
        QVERIFY(readyToCommit(batch, "customer_id\npause-1\npause-2\npause-3\n", preview, journal));
        ImportingBackend backend;
        models::ImportRunner runner(&backend, &preview);
        QSignalSpy finished(&runner, &models::ImportRunner::finished);
        runner.startCommit(&journal);
        runner.pause();
        QCOMPARE(backend.imports, 1); // the one in flight
        QTRY_COMPARE(preview.commitCounts().value(models::CommitState::Committed), 1);
        QCoreApplication::processEvents();
        QCOMPARE(backend.imports, 1);
        QVERIFY(finished.isEmpty());
        QVERIFY(runner.isRunning());
        runner.resume();
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(backend.imports, 3);
        QCOMPARE(finished.first().at(0).toBool(), false); // not cancelled
    }
};

QTEST_GUILESS_MAIN(TestImportBatch)
#include "tst_importbatch.moc"
