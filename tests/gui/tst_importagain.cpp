// Issue 51 in the import wizard, on EngineBackend or on RemoteBackend against
// a local meterdesk-server (MD_GUI_BACKEND): a file imported before is named
// as such when it is opened again, and its repeat previewed as unchanged; an
// edited customer's fields are shown before and after, and the new run says
// where the earlier journal goes before it goes there; a customer on two
// lines is refused on both, and nothing is counted that was not imported.
#include "models/import/ImportBatch.h"
#include "models/import/ImportPreviewModel.h"
#include "models/import/ImportRunner.h"
#include "models/import/ImportSession.h"
#include "tests/gui/GuiBackend.h"
#include "tests/support/TestDatabase.h"
#include "views/import/ImportCommitPage.h"
#include "views/import/ImportPreviewPage.h"
#include "views/import/ImportReportPage.h"
#include "views/import/ImportSourcePage.h"
#include "views/import/ImportValidationPage.h"
#include "views/import/ImportWizard.h"

#include <QAbstractButton>
#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QRadioButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <tuple>

using namespace md;
using namespace Qt::StringLiterals;
using models::CommitState;
using models::ImportOutcome;
using models::ImportPreviewModel;
using views::ImportWizard;

namespace {

const QString Key = u"sk_test_again000000000000000000000000000"_s;

bool write(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

} // namespace

class TestImportAgain final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;
    test::ServerProcess m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<backend::BillingBackend> m_backend;

    template <typename Page> static Page *page(ImportWizard &wizard, int id)
    {
        return qobject_cast<Page *>(wizard.page(id));
    }

    static const QTreeWidgetItem *group(const QTreeWidget *changes, const QString &title)
    {
        for (int i = 0; i < changes->topLevelItemCount(); ++i)
            if (changes->topLevelItem(i)->text(0) == title)
                return changes->topLevelItem(i);
        return nullptr;
    }

    static bool runToEnd(ImportWizard &wizard)
    {
        QSignalSpy finished(wizard.session()->runner(), &models::ImportRunner::finished);
        return !wizard.session()->runner()->isRunning() || finished.wait(30000);
    }

    // The file read on the source page, the connection known.
    static void openSource(ImportWizard &wizard, const QString &file)
    {
        wizard.show();
        QVERIFY(QTest::qWaitForWindowExposed(&wizard));
        QTRY_VERIFY(!wizard.session()->target().isEmpty());
        QVERIFY(page<views::ImportSourcePage>(wizard, ImportWizard::SourcePage)->openFile(file));
        QTRY_VERIFY(wizard.button(QWizard::NextButton)->isEnabled()); // read in the background
    }

    // From the source to the finished dry run.
    static void toPreview(ImportWizard &wizard)
    {
        wizard.next();
        wizard.next();
        QCOMPARE(wizard.currentId(), int(ImportWizard::ValidationPage));
        QVERIFY(wizard.button(QWizard::NextButton)->isEnabled());
        wizard.next();
        QCOMPARE(wizard.currentId(), int(ImportWizard::PreviewPage));
        QVERIFY(runToEnd(wizard));
    }

    // From the preview through the commit to the report.
    static void commit(ImportWizard &wizard)
    {
        wizard.next();
        QCOMPARE(wizard.currentId(), int(ImportWizard::CommitPage));
        QVERIFY(runToEnd(wizard));
        wizard.next();
        QCOMPARE(wizard.currentId(), int(ImportWizard::ReportPage));
    }

    QString changesOf(const ImportWizard &wizard, int row) const
    {
        return wizard.session()
            ->preview()
            ->index(row, ImportPreviewModel::ChangesColumn)
            .data()
            .toString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(u"MeterdeskTest"_s);
        QCoreApplication::setApplicationName(u"importagain"_s);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_dir.path());
        QVERIFY2(m_database.error().isEmpty(), qPrintable(m_database.error()));
        QString problem;
        QVERIFY2(!test::loadDemo(m_database.location(), Key, 5, &problem).isEmpty(),
                 qPrintable(problem));
        m_backend = test::openGuiBackend(m_database.location(), Key, m_server, &problem);
        QVERIFY2(m_backend, qPrintable(problem));
    }

    // The same file again: the wizard says it was imported, offers to resume
    // or to run it anew, and the new run's dry run shows every customer as
    // unchanged (a canceled plan's too), not updated.
    void aFileImportedBeforeIsNamedAndItsRepeatChangesNothing()
    {
        const QString path = m_dir.filePath(u"again.csv"_s);
        const QByteArray header = "customer_id,name,email,plan_id,status\n";
        QVERIFY(write(path, header + "again-1,Again One,one@again.example,starter,active\n"
                                     "again-2,Again Two,two@again.example,pro,canceled\n"
                                     "again-3,Again Three,three@again.example,,\n"));
        {
            ImportWizard wizard(m_backend.get());
            openSource(wizard, path);
            toPreview(wizard);
            QCOMPARE(wizard.session()->preview()->outcomeCounts().at(int(ImportOutcome::New)), 3);
            commit(wizard);
            QCOMPARE(wizard.session()->preview()->commitCounts().value(CommitState::Committed), 3);
        }

        ImportWizard wizard(m_backend.get());
        QAbstractItemModelTester previewTester(wizard.session()->preview());
        openSource(wizard, path);
        const auto *source = page<views::ImportSourcePage>(wizard, ImportWizard::SourcePage);
        const QString note = source->journalNote()->text();
        QVERIFY2(source->journalNote()->isVisible() && note.contains(u"was imported into"_s) &&
                     note.contains(u"3 customer"_s) && !note.contains(u"changed"_s),
                 qPrintable(note));
        QVERIFY(source->resumeButton()->isVisible());
        QVERIFY(source->newRunButton()->isChecked()); // finished: only a new run has work
        QVERIFY(source->newRunButton()->text().contains(u"again.csv.meterdesk-journal.previous"_s));
        QVERIFY(!wizard.session()->resume());
        toPreview(wizard);
        const QList<int> counts = wizard.session()->preview()->outcomeCounts();
        QCOMPARE(counts.at(int(ImportOutcome::Unchanged)), 3);
        QCOMPARE(counts.at(int(ImportOutcome::Updated)), 0);
        QCOMPARE(counts.at(int(ImportOutcome::Mismatch)), 0);
        QCOMPARE(changesOf(wizard, 0), u"already imported: nothing changes"_s);
        QCOMPARE(changesOf(wizard, 1), u"already imported: nothing changes"_s); // already_ended
        QCOMPARE(changesOf(wizard, 2), u"nothing changes"_s);                   // no plan
    }

    // The file edited since: the preview shows the fields a customer's import
    // writes over, before and after; the commit says where the earlier journal
    // goes, and the report counts what it did.
    void anEditedCustomerShowsItsFieldsBeforeAndAfter()
    {
        const QString path = m_dir.filePath(u"again.csv"_s);
        QVERIFY(QFile::exists(path + u".meterdesk-journal"_s)); // the last test's
        QVERIFY(write(path, "customer_id,name,email,plan_id,status\n"
                            "again-1,Again Uno,uno@again.example,starter,active\n"
                            "again-2,Again Two,two@again.example,pro,canceled\n"
                            "again-3,Again Three,three@again.example,,\n"));
        ImportWizard wizard(m_backend.get());
        openSource(wizard, path);
        const auto *source = page<views::ImportSourcePage>(wizard, ImportWizard::SourcePage);
        QVERIFY2(source->journalNote()->text().contains(u"changed since"_s),
                 qPrintable(source->journalNote()->text()));
        toPreview(wizard);
        QCOMPARE(wizard.session()->preview()->outcomeCounts().at(int(ImportOutcome::Updated)), 1);
        QCOMPARE(wizard.session()->preview()->outcomeCounts().at(int(ImportOutcome::Unchanged)), 2);
        QCOMPARE(changesOf(wizard, 0), u"name changes, email changes"_s);

        auto *preview = page<views::ImportPreviewPage>(wizard, ImportWizard::PreviewPage);
        preview->table()->setCurrentIndex(preview->table()->model()->index(0, 0));
        const QTreeWidgetItem *fields = group(preview->changes(), u"Customer"_s);
        QVERIFY(fields);
        QCOMPARE(fields->childCount(), 2);
        QCOMPARE(fields->child(0)->text(0), u"name"_s);
        QCOMPARE(fields->child(0)->text(1), u"Again One"_s);
        QCOMPARE(fields->child(0)->text(2), u"Again Uno"_s);
        QCOMPARE(fields->child(1)->text(0), u"email"_s);
        QCOMPARE(fields->child(1)->text(1), u"one@again.example"_s);
        QCOMPARE(fields->child(1)->text(2), u"uno@again.example"_s);
        const QTreeWidgetItem *plans = group(preview->changes(), u"Plans"_s);
        QVERIFY(plans && plans->childCount() > 0);
        QCOMPARE(plans->child(0)->text(0), u"starter"_s);
        QCOMPARE(plans->child(0)->text(2), u"unchanged: already in force"_s);

        commit(wizard);
        const QString previous = path + u".meterdesk-journal.previous"_s;
        const auto *commitPage = page<views::ImportCommitPage>(wizard, ImportWizard::CommitPage);
        QVERIFY2(commitPage->summary()->text().contains(QDir::toNativeSeparators(previous)),
                 qPrintable(commitPage->summary()->text()));
        QVERIFY(QFile::exists(previous));
        QCOMPARE(wizard.session()->preview()->commitCounts().value(CommitState::Committed), 3);
        const QString report =
            page<views::ImportReportPage>(wizard, ImportWizard::ReportPage)->counts()->text();
        QVERIFY2(report.contains(u"updated: 1"_s) && report.contains(u"unchanged: 2"_s),
                 qPrintable(report));
        auto stored = m_backend->customer(u"again-1"_s);
        QTRY_VERIFY(stored.isFinished());
        QVERIFY(stored.result().ok());
        QCOMPARE(stored.result().value().name, u"Again Uno"_s);
        QCOMPARE(stored.result().value().email, u"uno@again.example"_s);
    }

    // Two lines of one customer: validation names both, the wizard goes on
    // only once one is left out, and the report counts only what was sent.
    void aCustomerOnTwoLinesIsRefusedOnBoth()
    {
        const QString path = m_dir.filePath(u"walk.csv"_s);
        QVERIFY(write(path, "customer_id,name,email,plan_id\n"
                            "walk-001,Walk One,one@walk.example,starter\n"
                            "walk-002,Walk Two,two@walk.example,starter\n"
                            "walk-003,Walk Three,three@walk.example,free\n"
                            "walk-001,Walk One Again,again@walk.example,pro\n"));
        ImportWizard wizard(m_backend.get());
        QAbstractItemModelTester batchTester(wizard.session()->batch());
        openSource(wizard, path);
        wizard.next();
        wizard.next();
        QCOMPARE(wizard.currentId(), int(ImportWizard::ValidationPage));
        models::ImportBatch *batch = wizard.session()->batch();
        QCOMPARE(batch->problemCount(), 2);
        QVERIFY(!wizard.button(QWizard::NextButton)->isEnabled());
        auto *validation = page<views::ImportValidationPage>(wizard, ImportWizard::ValidationPage);
        for (const auto &[row, line, other] :
             {std::tuple{0, u"Line 2: "_s, u"5"_s}, std::tuple{3, u"Line 5: "_s, u"2"_s}}) {
            validation->table()->setCurrentIndex(validation->table()->model()->index(row, 2));
            const QString problem = validation->problemLabel()->text();
            QVERIFY2(problem.startsWith(line + u"customer walk-001 is also on line"_s) &&
                         problem.contains(other),
                     qPrintable(problem));
        }
        QVERIFY(batch->setData(batch->index(3, models::ImportBatch::IncludeColumn), Qt::Unchecked,
                               Qt::CheckStateRole));
        QCOMPARE(batch->problemCount(), 0);
        QVERIFY(wizard.button(QWizard::NextButton)->isEnabled());
        wizard.next();
        QVERIFY(runToEnd(wizard));
        QCOMPARE(wizard.session()->preview()->outcomeCounts().at(int(ImportOutcome::New)), 3);
        commit(wizard);
        const auto states = wizard.session()->preview()->commitCounts();
        QCOMPARE(states.value(CommitState::Committed), 3);
        QCOMPARE(states.value(CommitState::Earlier), 0);
        const QString report =
            page<views::ImportReportPage>(wizard, ImportWizard::ReportPage)->counts()->text();
        QVERIFY2(!report.contains(u"earlier run"_s), qPrintable(report));
        auto stored = m_backend->customer(u"walk-001"_s);
        QTRY_VERIFY(stored.isFinished());
        QCOMPARE(stored.result().value().email, u"one@walk.example"_s);
    }
};

QTEST_MAIN(TestImportAgain)
#include "tst_importagain.moc"
