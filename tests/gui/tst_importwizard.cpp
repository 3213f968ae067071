// The import wizard as a migration engineer drives it (offscreen), on
// EngineBackend or on RemoteBackend against a local meterdesk-server
// (MD_GUI_BACKEND): a CSV with errors, a row fixed from the keyboard and one
// left out, the dry run (which writes nothing), a commit cancelled midway,
// and the same file opened again to resume without importing anyone twice;
// the preview's pane after Back and a second dry run, and a path read as it
// is typed.
#include "models/import/ImportBatch.h"
#include "models/import/ImportJournal.h"
#include "models/import/ImportPreviewModel.h"
#include "models/import/ImportRunner.h"
#include "models/import/ImportSession.h"
#include "services/engine/Engine.h"
#include "services/engine/workspace/DemoWorkspace.h"
#include "tests/gui/GuiBackend.h"
#include "tests/support/JsonEdit.h"
#include "tests/support/TestDatabase.h"
#include "views/import/ImportCommitPage.h"
#include "views/import/ImportMappingPage.h"
#include "views/import/ImportPreviewPage.h"
#include "views/import/ImportReportPage.h"
#include "views/import/ImportSourcePage.h"
#include "views/import/ImportValidationPage.h"
#include "views/import/ImportWizard.h"
#include "views/import/PlanValuesDialog.h"
#include <QJsonObject>

#include <QAbstractButton>
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace md;
using namespace Qt::StringLiterals;
using models::CommitState;
using models::ImportOutcome;
using views::ImportWizard;

namespace {

const QString Key = u"sk_test_wizard00000000000000000000000000"_s;

} // namespace

class TestImportWizard final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;
    test::ServerProcess m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<backend::BillingBackend> m_backend;
    QString m_existing; // a demo customer the file imports again
    QString m_csv;

    template <typename Page> Page *page(ImportWizard &wizard, int id)
    {
        return qobject_cast<Page *>(wizard.page(id));
    }

    // The pane's group of that title ("Customer", "Plans", …), or null.
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

    // Source → Mapping → Validation, the file's problems fixed or left out.
    void throughValidation(ImportWizard &wizard, const QString &file)
    {
        QVERIFY(page<views::ImportSourcePage>(wizard, ImportWizard::SourcePage)->openFile(file));
        QTRY_VERIFY(wizard.button(QWizard::NextButton)->isEnabled()); // read in the background
        wizard.next();
        QCOMPARE(wizard.currentId(), int(ImportWizard::MappingPage));
        wizard.next();
        QCOMPARE(wizard.currentId(), int(ImportWizard::ValidationPage));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(u"MeterdeskTest"_s);
        QCoreApplication::setApplicationName(u"importwizard"_s);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_dir.path());
        QVERIFY2(m_database.error().isEmpty(), qPrintable(m_database.error()));
        {
            engine::Engine setup(m_database.location());
            QVERIFY(setup.open().ok());
            engine::DemoOptions options;
            options.customers = 20;
            options.testSecret = Key;
            options.nowMs = QDateTime::currentMSecsSinceEpoch();
            const QJsonObject demo = test::toQt(engine::DemoWorkspace::build(options));
            const auto loaded = setup.loadWorkspace(test::fromQt(demo));
            QVERIFY(loaded.ok());
            m_existing =
                demo.value(u"organizations"_s)[0][u"test"_s][u"customers"_s][0][u"id"_s].toString();
        }
        QString problem;
        m_backend = test::openGuiBackend(m_database.location(), Key, m_server, &problem);
        QVERIFY2(m_backend, qPrintable(problem));
        QStringList lines{
            u"customer_id,name,email,stripe_id,plan_id,status,usage:api_calls,usage:ai_credits"_s,
            u"wiz-001,Wiz One,one@wiz.example,cus_W1,starter,active,1200,2.5"_s,
            u"wiz-002,Wiz Two,not-an-email,cus_W2,pro,trialing,,"_s,
            u"wiz-003,Wiz Three,three@wiz.example,,free,,,"_s,
            u"wiz-004,Wiz Four,four@wiz.example,cus_W4,pro,paused,10,"_s,
            u"wiz-005,Wiz Five,five@wiz.example,cus_W5,platinum,active,,"_s,
            u"wiz-006,Wiz Six,six@wiz.example,cus_W6,starter,active,-5,"_s,
            m_existing + u",,,,,,,"_s};
        for (int i = 7; i <= 12; ++i)
            lines.append(u"wiz-%1,Wiz %1,w%1@wiz.example,cus_W%1,starter,active,%2,"_s
                             .arg(i, 3, 10, QChar(u'0'))
                             .arg(i * 100));
        m_csv = m_dir.filePath(u"customers.csv"_s);
        QFile file(m_csv);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(lines.join(u'\n').toUtf8() + '\n');
    }

    void fixPreviewCommitCancelAndResume()
    {
        auto wizard = std::make_unique<ImportWizard>(m_backend.get());
        QAbstractItemModelTester batchTester(wizard->session()->batch());
        QAbstractItemModelTester previewTester(wizard->session()->preview());
        wizard->show();
        QVERIFY(QTest::qWaitForWindowExposed(wizard.get()));
        QTRY_VERIFY(!wizard->session()->target().isEmpty());
        throughValidation(*wizard, m_csv);
        models::ImportBatch *batch = wizard->session()->batch();
        QCOMPARE(batch->rowCount(), 13);
        QCOMPARE(batch->problemCount(), 3); // the email, the status, the negative usage
        QVERIFY(!wizard->button(QWizard::NextButton)->isEnabled());
        // Platinum is no plan of the workspace: said here already, on its cell,
        // though only the dry run can refuse it (the plans may change meanwhile).
        QTRY_VERIFY(batch->knowsPlans());
        QCOMPARE(batch->unknownPlanCount(), 1);
        const QModelIndex platinum = batch->index(4, 2 + 4);
        QVERIFY(platinum.data(Qt::BackgroundRole).isValid());
        QVERIFY2(
            platinum.data(Qt::ToolTipRole).toString().contains(u"\"platinum\" is not a plan"_s),
            qPrintable(platinum.data(Qt::ToolTipRole).toString()));
        QVERIFY(page<views::ImportValidationPage>(*wizard, ImportWizard::ValidationPage)
                    ->countsLabel()
                    ->text()
                    .contains(u"1 naming a plan"_s));

        // The bad email cell is highlighted with its message.
        const int emailColumn = 2 + 2;
        const QModelIndex email = batch->index(1, emailColumn);
        QVERIFY(email.data(Qt::BackgroundRole).isValid());
        QVERIFY(email.data(Qt::ToolTipRole).toString().contains(u"email"_s));
        QVERIFY(batch->index(1, batch->columnCount() - 1).data().toString().contains(u"email"_s));

        // Fixed from the keyboard: F2, type, Enter.
        auto *validation = page<views::ImportValidationPage>(*wizard, ImportWizard::ValidationPage);
        QTableView *table = validation->table();
        table->setCurrentIndex(table->model()->index(1, emailColumn));
        table->setFocus();
        QTest::keyClick(table, Qt::Key_F2);
        auto *editor = table->viewport()->findChild<QLineEdit *>();
        QVERIFY(editor);
        QCOMPARE(editor->text(), u"not-an-email"_s);
        editor->selectAll();
        QTest::keyClicks(editor, u"two@wiz.example"_s);
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_VERIFY(batch->row(1).isValid()); // the delegate commits queued
        QCOMPARE(batch->problemCount(), 2);
        // The status fixed in place, the negative usage left out.
        QVERIFY(batch->setData(batch->index(3, 2 + 5), u"active"_s));
        QVERIFY(batch->setData(batch->index(5, models::ImportBatch::IncludeColumn), Qt::Unchecked,
                               Qt::CheckStateRole));
        QCOMPARE(batch->problemCount(), 0);
        QVERIFY(wizard->button(QWizard::NextButton)->isEnabled());

        // The dry run: outcomes per customer, and nothing written.
        wizard->next();
        QCOMPARE(wizard->currentId(), int(ImportWizard::PreviewPage));
        QVERIFY(runToEnd(*wizard));
        const QList<int> counts = wizard->session()->preview()->outcomeCounts();
        QCOMPARE(wizard->session()->preview()->rowCount(), 12);
        QCOMPARE(counts.at(int(ImportOutcome::New)), 10);
        QCOMPARE(counts.at(int(ImportOutcome::Error)), 1);     // platinum is no plan
        QCOMPARE(counts.at(int(ImportOutcome::Unchanged)), 1); // the demo customer, as it is
        QVERIFY(wizard->session()->preview()->entry(4).message.contains(u"platinum"_s));
        auto never = m_backend->customer(u"wiz-001"_s);
        QTRY_VERIFY(never.isFinished());
        QCOMPARE(never.result().error().code, u"customer_not_found"_s);

        // Filtered by outcome; the selected customer's plans and balances after.
        auto *preview = page<views::ImportPreviewPage>(*wizard, ImportWizard::PreviewPage);
        preview->filterOutcome(int(ImportOutcome::Error));
        QCOMPARE(preview->table()->model()->rowCount(), 1);
        preview->filterOutcome(int(ImportOutcome::New));
        QCOMPARE(preview->table()->model()->rowCount(), 10);
        preview->table()->setCurrentIndex(preview->table()->model()->index(0, 0));
        QTreeWidget *changes = preview->changes();
        QTRY_VERIFY(group(changes, u"Balances (remaining of granted)"_s));
        const QTreeWidgetItem *plans = group(changes, u"Plans"_s);
        QCOMPARE(plans->child(0)->text(0), u"starter"_s);
        QCOMPARE(plans->child(0)->text(2), u"active"_s);
        const QTreeWidgetItem *fields = group(changes, u"Customer"_s); // new: every field given
        QVERIFY(fields);
        QCOMPARE(fields->child(0)->text(0), u"name"_s);
        QCOMPARE(fields->child(0)->text(1), QString());
        QCOMPARE(fields->child(0)->text(2), u"Wiz One"_s);
        const QTreeWidgetItem *balances = group(changes, u"Balances (remaining of granted)"_s);
        QStringList features;
        for (int i = 0; i < balances->childCount(); ++i)
            features.append(balances->child(i)->text(0));
        QVERIFY2(features.contains(u"api_calls"_s), qPrintable(features.join(u' ')));

        // Commit, cancelled after the second customer: the third, in flight, finishes.
        QVERIFY(wizard->button(QWizard::CommitButton)->isEnabled());
        auto *commit = page<views::ImportCommitPage>(*wizard, ImportWizard::CommitPage);
        bool cancelled = false;
        connect(wizard->session()->runner(), &models::ImportRunner::progress, commit,
                [&](int done) {
                    if (done >= 2 && !cancelled && wizard->session()->runner()->isCommitting()) {
                        cancelled = true;
                        commit->cancelButton()->click();
                    }
                });
        wizard->next();
        QCOMPARE(wizard->currentId(), int(ImportWizard::CommitPage));
        QVERIFY(runToEnd(*wizard));
        QVERIFY(cancelled);
        auto states = wizard->session()->preview()->commitCounts();
        QCOMPARE(states.value(CommitState::Committed), 3);
        QCOMPARE(states.value(CommitState::Waiting), 9);
        const QString journalPath = wizard->session()->journal()->path();
        QCOMPARE(journalPath, m_csv + u".meterdesk-journal"_s);
        wizard->reject();
        wizard.reset();

        // The same file again: it offers to resume, and skips the three.
        wizard = std::make_unique<ImportWizard>(m_backend.get());
        wizard->show();
        QTRY_VERIFY(!wizard->session()->target().isEmpty());
        throughValidation(*wizard, m_csv);
        const QRadioButton *resume =
            page<views::ImportSourcePage>(*wizard, ImportWizard::SourcePage)->resumeButton();
        QVERIFY(!resume->isHidden() && resume->isChecked()); // the page is behind by now
        QVERIFY(wizard->session()->resume());
        batch = wizard->session()->batch();
        batch->setData(batch->index(1, emailColumn), u"two@wiz.example"_s);
        batch->setData(batch->index(3, 2 + 5), u"active"_s);
        batch->excludeProblems();
        wizard->next();
        QVERIFY(runToEnd(*wizard));
        // The three committed earlier are already there now.
        QCOMPARE(wizard->session()->preview()->outcomeCounts().at(int(ImportOutcome::New)), 7);
        wizard->next();
        QVERIFY(runToEnd(*wizard));
        states = wizard->session()->preview()->commitCounts();
        QCOMPARE(states.value(CommitState::Earlier), 3);
        QCOMPARE(states.value(CommitState::Committed), 8);
        QCOMPARE(states.value(CommitState::NotImported), 1);
        wizard->next();
        QCOMPARE(wizard->currentId(), int(ImportWizard::ReportPage));
        auto *report = page<views::ImportReportPage>(*wizard, ImportWizard::ReportPage);
        QCOMPARE(report->failures()->topLevelItemCount(), 1);
        QCOMPARE(report->failures()->topLevelItem(0)->text(1), u"wiz-005"_s);
        const QString reportPath = m_dir.filePath(u"report.csv"_s);
        QVERIFY(report->exportTo(reportPath));
        QFile reportFile(reportPath);
        QVERIFY(reportFile.open(QIODevice::ReadOnly));
        QCOMPARE(reportFile.readAll().count('\n'), 13); // header and twelve customers

        // The journal holds each customer once, and says the commit ran through.
        QFile journal(journalPath);
        QVERIFY(journal.open(QIODevice::ReadOnly));
        QHash<QString, int> seen;
        bool finished = false;
        while (!journal.atEnd()) {
            const QJsonObject line = QJsonDocument::fromJson(journal.readLine()).object();
            if (line.contains(u"customer_id"_s))
                ++seen[line.value(u"customer_id"_s).toString()];
            finished = finished || line.value(u"finished"_s).toBool();
        }
        QVERIFY(finished);
        QCOMPARE(seen.size(), 11);
        for (auto it = seen.cbegin(); it != seen.cend(); ++it)
            QVERIFY2(it.value() == 1, qPrintable(it.key()));
        auto imported = m_backend->customer(u"wiz-012"_s);
        QTRY_VERIFY(imported.isFinished());
        QVERIFY(imported.result().ok());
        QCOMPARE(imported.result().value().subscriptions.first().planId, u"starter"_s);
    }

    // One column feeding two fields, and an old system's plan names mapped to
    // the workspace's plans through Plan values…, kept in the profile.
    void planValuesAndAColumnForTwoFields()
    {
        const QString file = m_dir.filePath(u"old-system.csv"_s);
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write("mail,plan\nold-1@x.example,Starter Monthly (USD)\n"
                  "old-2@x.example,Starter Monthly (USD)\nold-3@x.example,pro\n");
        out.close();
        ImportWizard wizard(m_backend.get());
        wizard.show();
        QTRY_VERIFY(!wizard.session()->plans().isEmpty());
        QVERIFY(page<views::ImportSourcePage>(wizard, ImportWizard::SourcePage)->openFile(file));
        QTRY_VERIFY(wizard.button(QWizard::NextButton)->isEnabled());
        wizard.next();
        auto *mapping = page<views::ImportMappingPage>(wizard, ImportWizard::MappingPage);
        QVERIFY(!wizard.button(QWizard::NextButton)->isEnabled()); // no customer id yet
        // The mail column is the email and, also, the customer id.
        auto *columns = mapping->findChild<QTableWidget *>();
        const auto combo = [&](int row, int column) {
            return static_cast<QComboBox *>(columns->cellWidget(row, column));
        };
        combo(0, 2)->setCurrentIndex(3); // Is: Email
        combo(0, 3)->setCurrentIndex(1); // Also: Customer id
        combo(1, 2)->setCurrentIndex(6); // Is: Plan
        models::ImportBatch *batch = wizard.session()->batch();
        QTRY_VERIFY(!batch->isReading() && batch->mapping().customerId == 0);
        QCOMPARE(batch->mapping().email, 0);
        QTRY_COMPARE(batch->unknownPlanCount(), 2); // "Starter Monthly (USD)" twice

        // A value another file had (from a profile) is kept by the dialog.
        models::CsvMapping earlier = batch->mapping();
        earlier.planValues.insert(u"Legacy Gold"_s, u"pro"_s);
        mapping->setMapping(earlier);
        QTRY_VERIFY(!batch->isReading());
        // Plan values…: each value of the plan column once, with its rows.
        views::PlanValuesDialog *values = mapping->editPlanValues();
        QTableWidget *table = values->table();
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->item(0, views::PlanValuesDialog::TextColumn)->text(),
                 u"Starter Monthly (USD)"_s);
        QCOMPARE(table->item(0, views::PlanValuesDialog::RowsColumn)->text(), u"2"_s);
        auto *plan =
            static_cast<QComboBox *>(table->cellWidget(0, views::PlanValuesDialog::PlanColumn));
        QVERIFY(plan->findText(u"starter"_s) >= 0); // the workspace's plans to choose from
        plan->setCurrentText(u"starter"_s);
        values->accept();
        QTRY_VERIFY(!batch->isReading() && batch->unknownPlanCount() == 0);
        QCOMPARE(batch->mapping().planValues.value(u"Starter Monthly (USD)"_s), u"starter"_s);
        QCOMPARE(batch->mapping().planValues.value(u"Legacy Gold"_s), u"pro"_s);
        QCOMPARE(batch->mapping().customerId, 0); // the two fields kept
        QCOMPARE(batch->mapping().email, 0);

        // Kept in the profile, and read back with it.
        mapping->saveProfile(u"Old system"_s);
        mapping->setMapping(models::CsvMapping::guess(batch->header()));
        QTRY_VERIFY(!batch->isReading());
        QVERIFY(mapping->applyProfile(u"Old system"_s));
        QTRY_VERIFY(!batch->isReading());
        QCOMPARE(batch->mapping().planValues.value(u"Starter Monthly (USD)"_s), u"starter"_s);
        // Both fields shown again on the column (the mapping keeps no order between them).
        QCOMPARE(QSet<int>({combo(0, 2)->currentIndex(), combo(0, 3)->currentIndex()}),
                 QSet<int>({1, 3}));
        wizard.next();
        QTRY_VERIFY(wizard.button(QWizard::NextButton)->isEnabled());
        const auto items = batch->items();
        QCOMPARE(items.size(), 3);
        QCOMPARE(items.first().request.customerId, u"old-1@x.example"_s);
        QCOMPARE(items.first().request.customerData->email, std::optional(u"old-1@x.example"_s));
        QCOMPARE(items.first().request.billables.first().plan.planId, u"starter"_s);
    }

    void mappingProfilesFollowColumnsByName()
    {
        ImportWizard wizard(m_backend.get());
        wizard.show();
        throughValidation(wizard, m_csv);
        wizard.back();
        auto *mapping = page<views::ImportMappingPage>(wizard, ImportWizard::MappingPage);
        mapping->saveProfile(u"Old billing"_s);
        // A file whose columns come in another order, read with the profile.
        const QString moved = m_dir.filePath(u"moved.csv"_s);
        QFile file(moved);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("plan,who,mail\nstarter,moved-1,m@x.example\n");
        file.close();
        wizard.restart();
        QVERIFY(page<views::ImportSourcePage>(wizard, ImportWizard::SourcePage)->openFile(moved));
        QTRY_VERIFY(wizard.button(QWizard::NextButton)->isEnabled());
        wizard.next();
        QVERIFY(!wizard.button(QWizard::NextButton)->isEnabled()); // no customer id column
        QVERIFY(!mapping->applyProfile(u"missing"_s));
        models::CsvMapping renamed;
        renamed.customerId = 1;
        renamed.email = 2;
        renamed.plan = 0;
        mapping->setMapping(renamed);
        mapping->saveProfile(u"Moved"_s);
        QVERIFY(mapping->applyProfile(u"Old billing"_s)); // names not in this file: unmapped
        QCOMPARE(wizard.session()->batch()->mapping().customerId, -1);
        QVERIFY(mapping->applyProfile(u"Moved"_s));
        QCOMPARE(wizard.session()->batch()->mapping(), renamed);
        QVERIFY(wizard.button(QWizard::NextButton)->isEnabled());
        wizard.next();
        QTRY_VERIFY(wizard.button(QWizard::NextButton)->isEnabled()); // moved-1 is valid
        QCOMPARE(wizard.session()->batch()->items().first().request.customerId, u"moved-1"_s);
    }

    // Issue 33: after Back and other rows, the pane shows a customer of the
    // new dry run, never one of the last.
    void previewPaneFollowsANewDryRun()
    {
        const QString path = m_dir.filePath(u"pane.csv"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("customer_id,name,plan_id,status\n"
                   "pane-1,Pane One,starter,active\n"
                   "pane-2,Pane Two,pro,trialing\n"
                   "pane-3,Pane Three,free,\n");
        file.close();
        ImportWizard wizard(m_backend.get());
        QAbstractItemModelTester batchTester(wizard.session()->batch());
        QAbstractItemModelTester previewTester(wizard.session()->preview());
        wizard.show();
        QVERIFY(QTest::qWaitForWindowExposed(&wizard));
        throughValidation(wizard, path);
        models::ImportBatch *batch = wizard.session()->batch();
        QTRY_VERIFY(!batch->isReading());
        QCOMPARE(batch->rowCount(), 3);
        const auto include = [batch](int row, bool included) {
            return batch->setData(batch->index(row, models::ImportBatch::IncludeColumn),
                                  included ? Qt::Checked : Qt::Unchecked, Qt::CheckStateRole);
        };
        QVERIFY(include(2, false));
        wizard.next();
        QVERIFY(runToEnd(wizard));
        auto *preview = page<views::ImportPreviewPage>(wizard, ImportWizard::PreviewPage);
        QTableView *table = preview->table();
        const QLabel *heading = preview->customerHeading();
        QCOMPARE(heading->text(), u"pane-1 — Pane One"_s); // the first row, selected
        table->setCurrentIndex(table->model()->index(1, 0));
        QCOMPARE(heading->text(), u"pane-2 — Pane Two"_s);

        // Back and the same rows again: the same customer stays shown.
        wizard.back();
        QCOMPARE(wizard.currentId(), int(ImportWizard::ValidationPage));
        wizard.next();
        QVERIFY(runToEnd(wizard));
        QCOMPARE(table->currentIndex().row(), 1);
        QCOMPARE(heading->text(), u"pane-2 — Pane Two"_s);

        // Back, and a single other customer: the pane names and describes it.
        wizard.back();
        QVERIFY(include(0, false));
        QVERIFY(include(1, false));
        QVERIFY(include(2, true));
        wizard.next();
        QVERIFY(runToEnd(wizard));
        QCOMPARE(wizard.session()->preview()->rowCount(), 1);
        QCOMPARE(heading->text(), u"pane-3 — Pane Three"_s);
        const QTreeWidgetItem *plans = group(preview->changes(), u"Plans"_s);
        QVERIFY(plans);
        QStringList planIds;
        for (int i = 0; i < plans->childCount(); ++i)
            planIds.append(plans->child(i)->text(0));
        QCOMPARE(planIds, QStringList{u"free"_s});
    }

    // Issue 33: the path is read once typing pauses, without leaving the field.
    void sourcePreviewFollowsTheTypedPath()
    {
        ImportWizard wizard(m_backend.get());
        QAbstractItemModelTester batchTester(wizard.session()->batch());
        wizard.show();
        QVERIFY(QTest::qWaitForWindowExposed(&wizard));
        auto *source = page<views::ImportSourcePage>(wizard, ImportWizard::SourcePage);
        QAbstractItemModelTester recordsTester(source->records());
        QLineEdit *path = source->pathEdit();
        QTest::keyClicks(path, m_csv);
        QTRY_COMPARE(source->records()->rowCount(), 13);
        QCOMPARE(source->records()->horizontalHeaderItem(0)->text(), u"customer_id"_s);
        QTRY_VERIFY(wizard.button(QWizard::NextButton)->isEnabled());

        // One letter more: no such file, and the page says so.
        QTest::keyClicks(path, u"x"_s);
        QTRY_VERIFY2(source->statusLabel()->text().contains(u"no file"_s),
                     qPrintable(source->statusLabel()->text()));
        QCOMPARE(source->records()->rowCount(), 0);
        QVERIFY(!wizard.button(QWizard::NextButton)->isEnabled());
        QTest::keyClick(path, Qt::Key_Backspace);
        QTRY_COMPARE(source->records()->rowCount(), 13);
    }
};

QTEST_MAIN(TestImportWizard)
#include "tst_importwizard.moc"
