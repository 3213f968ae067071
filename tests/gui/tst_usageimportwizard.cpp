// The usage backfill wizard (issue 40) on EngineBackend or on RemoteBackend
// to a local server (MD_GUI_BACKEND), on the usage conformance workspace: a CSV's bad
// cells listed at their line and column, a column mapped differently
// checked again, the dry run's balances before and after (what rollovers
// gave apart from remaining), the events that draw on no balance listed apart,
// and its refused events, the commit with its journal beside the file, and a later run of
// the same file offered to resume after what the journal says was committed.
#include "models/usage/UsageBackfill.h"
#include "models/usage/UsageChangeModel.h"
#include "models/usage/UsageImportSession.h"
#include "models/usage/UsageJournal.h"
#include "models/usage/UsageRefusalModel.h"
#include "services/backend/BillingBackend.h"
#include "tests/gui/GuiBackend.h"
#include "tests/support/TestDatabase.h"
#include "views/usage/UsageImportWizard.h"
#include "views/usage/UsageRunPage.h"
#include "views/usage/UsageSourcePage.h"

#include <QAbstractButton>
#include <QAbstractItemModelTester>
#include <QAbstractItemView>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;

namespace {

const QString Key = u"sk_test_usage00000000000000000000000000"_s; // usage-workspace.json

api::Decimal p0Calls(backend::BillingBackend &backend)
{
    api::ListBalancesRequest request;
    request.customerId = u"p0"_s;
    request.featureId = u"calls"_s;
    auto future = backend.listBalances(request);
    future.waitForFinished();
    const auto page = future.result();
    if (!page || page.value().list.isEmpty())
        qFatal("p0's calls: %s", page ? "none" : qPrintable(page.error().message));
    return page.value().list.first().remaining;
}

api::Decimal dec(const char *text)
{
    return *api::Decimal::parse(QByteArrayView(text));
}

bool writeFile(const QString &path, const QByteArray &data)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(data) == data.size();
}

} // namespace

class TestUsageImportWizard final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    test::TestDatabase m_database;
    test::ServerProcess m_server;
    std::unique_ptr<backend::BillingBackend> m_backend;

    // Reads `path` on the wizard's first page and waits for it.
    static bool read(views::UsageImportWizard &wizard, const QString &path)
    {
        auto *source = qobject_cast<views::UsageSourcePage *>(wizard.currentPage());
        QSignalSpy done(source, &views::UsageSourcePage::read);
        source->pathEdit()->setText(path);
        source->readFile(path);
        // A small file may be read before the continuation is even attached,
        // and then it is answered at once.
        return !done.isEmpty() || done.wait(20000);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QString problem;
        m_backend = test::openLoadedBackend(
            m_database.location(), QStringLiteral(MD_TEST_CONFORMANCE_DIR "/usage-workspace.json"),
            Key, m_server, &problem);
        QVERIFY2(m_backend, qPrintable(problem));
    }

    void badCellsThenDryRunThenCommit()
    {
        const QString path = m_dir.filePath(u"past.csv"_s);
        QVERIFY(writeFile(path, "customer,feature,quantity,time\n"
                                "p0,calls,10,2025-01-01T00:00:00Z\n"
                                "p0,calls,abc,2025-01-01T00:00:00Z\n"
                                "zed,api_calls,1,2025-01-01T00:00:00Z\n"
                                "p0,calls,2.5,2025-01-02T00:00:00Z\n"));
        const api::Decimal before = p0Calls(*m_backend);
        views::UsageImportWizard wizard(m_backend.get());
        wizard.show();
        QVERIFY(read(wizard, path));
        auto *source = qobject_cast<views::UsageSourcePage *>(wizard.currentPage());
        QStandardItemModel *problems = source->problems();
        QCOMPARE(problems->rowCount(), 1);
        QCOMPARE(problems->item(0, 0)->text(), u"3"_s);        // the line
        QCOMPARE(problems->item(0, 1)->text(), u"quantity"_s); // the column
        QCOMPARE(problems->item(0, 2)->text(), u"abc"_s);
        QVERIFY(wizard.button(QWizard::NextButton)->isEnabled());

        // Mapped differently, checked again: without the time column every row reads.
        QComboBox *time = source->fieldCombo(models::UsageField::Timestamp);
        QSignalSpy remapped(source, &views::UsageSourcePage::read);
        time->setCurrentIndex(time->findData(-1));
        QTRY_COMPARE_WITH_TIMEOUT(remapped.size(), 1, 20000);
        QCOMPARE(wizard.session()->content().rows.at(0).event->call.timestamp, std::nullopt);
        time->setCurrentIndex(time->findData(3));
        QTRY_COMPARE_WITH_TIMEOUT(remapped.size(), 2, 20000);
        QVERIFY(wizard.session()->content().rows.at(0).event->call.timestamp);

        wizard.next(); // the dry run starts as its page opens
        auto *dryRun = qobject_cast<views::UsageRunPage *>(wizard.currentPage());
        QVERIFY(dryRun);
        QAbstractItemModelTester changesTester(dryRun->changes());
        QAbstractItemModelTester refusalsTester(dryRun->refusals());
        QTRY_VERIFY_WITH_TIMEOUT(dryRun->isComplete(), 20000);
        QCOMPARE(dryRun->changes()->rowCount(), 1);
        QCOMPARE(wizard.session()->backfill()->changes().first().before, before);
        QCOMPARE(wizard.session()->backfill()->changes().first().after,
                 before.minus(dec("12.5")).value());
        QCOMPARE(dryRun->refusals()->rowCount(), 1); // zed: no such customer
        QCOMPARE(p0Calls(*m_backend), before);       // nothing written yet

        wizard.next(); // commit
        auto *commit = qobject_cast<views::UsageRunPage *>(wizard.currentPage());
        QTRY_VERIFY_WITH_TIMEOUT(commit->isComplete(), 20000);
        QCOMPARE(wizard.session()->backfill()->applied(), 2);
        QVERIFY2(commit->summary()->text().contains(u"2 event"_s),
                 qPrintable(commit->summary()->text()));
        QCOMPARE(p0Calls(*m_backend), before.minus(dec("12.5")).value());
        QVERIFY(wizard.committedAny());
        const auto journal = models::UsageJournal::load(models::UsageJournal::pathFor(path));
        QVERIFY(journal);
        QCOMPARE(journal->committed, 3);
        QCOMPARE(journal->total, 3);
        QCOMPARE(journal->target, wizard.session()->target());
        QCOMPARE(journal->keyFormat, models::UsageKeyFormat::ByCustomer);
    }

    void theDryRunSplitsRolloversAndListsWhatDrawsOnNothing()
    {
        // roll's calls: 60 remaining and 30 rolled over; its seats are its
        // entity r1's alone; tok holds no calls.
        const QString path = m_dir.filePath(u"rolled.csv"_s);
        QVERIFY(writeFile(path, "customer,feature,quantity,entity\n"
                                "roll,calls,50,\n"
                                "roll,calls,20,\n"
                                "tok,calls,1,\n"
                                "roll,seats,2,\n"
                                "roll,seats,1,r1\n"));
        views::UsageImportWizard wizard(m_backend.get());
        wizard.show();
        QVERIFY(read(wizard, path));
        wizard.next();
        auto *dryRun = qobject_cast<views::UsageRunPage *>(wizard.currentPage());
        QVERIFY(dryRun);
        QAbstractItemModelTester changesTester(dryRun->changes());
        QAbstractItemModelTester noBalanceTester(dryRun->noBalance());
        QTRY_VERIFY_WITH_TIMEOUT(dryRun->isComplete(), 20000);
        const auto &changes = wizard.session()->backfill()->changes();
        QCOMPARE(changes.size(), 2); // roll's calls, and r1's seats
        QCOMPARE(changes.at(0).featureId, u"calls"_s);
        QCOMPARE(changes.at(0).before, dec("60"));
        QCOMPARE(changes.at(0).used, dec("40"));
        QCOMPARE(changes.at(0).after, dec("20"));
        QCOMPARE(changes.at(0).fromRollovers, dec("30"));
        QCOMPARE(changes.at(1).entityId, std::optional(u"r1"_s));
        QCOMPARE(changes.at(1).before, dec("5"));
        QCOMPARE(changes.at(1).after, dec("4"));
        // Apart: recorded, drawing on no balance, by customer and feature.
        QCOMPARE(dryRun->noBalance()->rowCount(), 2);
        const auto &noBalance = wizard.session()->backfill()->noBalance();
        QCOMPARE(noBalance.at(0).customerId, u"roll"_s);
        QCOMPARE(noBalance.at(0).entityId, std::nullopt);
        QCOMPARE(noBalance.at(0).featureId, u"seats"_s);
        QCOMPARE(noBalance.at(0).value, dec("2"));
        QCOMPARE(noBalance.at(1).customerId, u"tok"_s);
        QCOMPARE(noBalance.at(1).events, 1);
        QAbstractItemView *shown = nullptr;
        for (QAbstractItemView *view : dryRun->findChildren<QAbstractItemView *>())
            if (view->model() == dryRun->noBalance())
                shown = view;
        QVERIFY(shown && shown->isVisible());
        QVERIFY2(dryRun->summary()->text().contains(u"drawing on no balance"_s),
                 qPrintable(dryRun->summary()->text()));
        QCOMPARE(dryRun->refusals()->rowCount(), 0);
    }

    void aFileCommittedByTheFirstBuildKeepsItsKeys()
    {
        const QString path = m_dir.filePath(u"first.csv"_s);
        QVERIFY(writeFile(path, "customer_id,feature_id,value,timestamp\np0,calls,1,5000\n"));
        // The first build's journal says nothing of its keys' format.
        QFile legacy(models::UsageJournal::pathFor(path));
        QVERIFY(legacy.open(QIODevice::WriteOnly));
        legacy.write(R"({"target":"elsewhere","source_sha256":"00","order_sha256":"00",)"
                     R"("committed":1,"total":1,"saved_at":1})");
        legacy.close();
        views::UsageImportWizard wizard(m_backend.get());
        wizard.show();
        QTRY_VERIFY_WITH_TIMEOUT(!wizard.session()->target().isEmpty(), 10000);
        QVERIFY(read(wizard, path));
        QCOMPARE(wizard.session()->content().keyFormat, models::UsageKeyFormat::EventOnly);
        const QString key = *wizard.session()->content().rows.first().event->idempotencyKey;
        QVERIFY2(key.startsWith(u"usage-"_s) && key.count(u'-') == 2, qPrintable(key));
        // Without a journal: the customer first.
        QVERIFY(QFile::remove(models::UsageJournal::pathFor(path)));
        QVERIFY(read(wizard, path));
        QCOMPARE(wizard.session()->content().keyFormat, models::UsageKeyFormat::ByCustomer);
        QCOMPARE(wizard.session()->content().rows.first().event->idempotencyKey->count(u'-'), 3);
    }

    void anInterruptedCommitIsOfferedToResume()
    {
        const QString path = m_dir.filePath(u"again.csv"_s);
        QVERIFY(writeFile(path, "customer_id,feature_id,value\np0,calls,1\n"
                                "p0,calls,2\np0,calls,4\n"));
        const api::Decimal before = p0Calls(*m_backend);
        // An earlier run stopped after the first event, as its journal says.
        {
            views::UsageImportWizard first(m_backend.get());
            first.show();
            QTRY_VERIFY_WITH_TIMEOUT(!first.session()->target().isEmpty(), 10000);
            QVERIFY(read(first, path));
            models::UsageJournal journal{first.session()->target(),
                                         first.session()->sourceHash(),
                                         first.session()->orderHash(),
                                         1,
                                         3,
                                         1000};
            QVERIFY(journal.save(models::UsageJournal::pathFor(path)).ok());
        }
        views::UsageImportWizard wizard(m_backend.get());
        wizard.show();
        QTRY_VERIFY_WITH_TIMEOUT(!wizard.session()->target().isEmpty(), 10000);
        QVERIFY(read(wizard, path));
        auto *resume = wizard.currentPage()->findChild<QCheckBox *>();
        QVERIFY(resume && resume->isVisible() && resume->isChecked());
        QVERIFY(resume->text().contains(u"1 of 3"_s));
        QCOMPARE(wizard.session()->resumeFrom(), 1);
        wizard.next();
        QTRY_VERIFY_WITH_TIMEOUT(wizard.currentPage()->isComplete(), 20000);
        wizard.next();
        QTRY_VERIFY_WITH_TIMEOUT(wizard.currentPage()->isComplete(), 20000);
        // The first event was never sent: the journal said it was committed.
        QCOMPARE(wizard.session()->backfill()->applied(), 2);
        QCOMPARE(p0Calls(*m_backend), before.minus(dec("6")).value());
    }
};

QTEST_MAIN(TestUsageImportWizard)
#include "tst_usageimportwizard.moc"
