// Export of a whole filtered result, to CSV or to an Excel workbook: every
// page, exact amounts, the filter's totals beside it (or on the workbook's
// second sheet), in the console's words in a workbook, files made as any
// program makes them, nothing left behind on Cancel or on failure.
#include "models/balances/BalanceExport.h"
#include "models/common/Workbook.h"
#include "tests/models/SmallBackend.h"
#include "tests/models/XlsxSheets.h"
#include "tests/support/StubBackend.h"

#include <QDir>
#include <QScopeGuard>
#include <QSignalSpy>

#include <sys/stat.h>

using namespace md;
using namespace Qt::StringLiterals;

namespace {

// Pages of one row each, served a page per call, forever unless capped.
class EndlessBackend final : public test::StubBackend
{
public:
    int served = 0;
    backend::Reply<api::ListBalancesResponse>
    listBalances(const api::ListBalancesRequest &) override
    {
        api::BalanceRow row;
        row.id = u"b%1"_s.arg(++served);
        row.customerId = u"c"_s;
        row.featureId = u"f"_s;
        return QtFuture::makeReadyFuture(api::Result<api::ListBalancesResponse>(
            api::ListBalancesResponse{{row}, true, u"next"_s}));
    }
};

// The permission bits of the file at `path`, -1 when there is none.
int modeOf(const QString &path)
{
    struct stat info;
    if (::stat(QFile::encodeName(path).constData(), &info) != 0)
        return -1;
    return int(info.st_mode & 07777);
}

} // namespace

class TestBalanceExport final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<embedded::EngineBackend> m_backend;

private Q_SLOTS:
    void initTestCase()
    {
        m_backend = test::smallBackend(m_dir.filePath(u"export.db"_s));
        QVERIFY(m_backend);
    }

    void writesEveryPage()
    {
        models::BalanceExport exporter(m_backend.get());
        QSignalSpy finished(&exporter, &models::BalanceExport::finished);
        QSignalSpy progress(&exporter, &models::BalanceExport::progress);
        api::ListBalancesRequest request;
        request.statuses = {api::BalanceStatus::Active, api::BalanceStatus::Expired};
        request.limit = 2; // the exporter pages by 200 whatever the view used
        const QString path = m_dir.filePath(u"all.csv"_s);
        const auto started = exporter.start(request, path);
        QVERIFY2(started, qPrintable(started ? QString() : started.error().message));
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().first().toLongLong(), 7);
        QVERIFY(!progress.isEmpty());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines =
            QString::fromUtf8(file.readAll()).split(u"\r\n"_s, Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 8);
        QCOMPARE(lines.first(), models::BalanceExport::csvHeader().trimmed());
        const QString pro = *std::find_if(lines.begin(), lines.end(), [](const QString &l) {
            return l.startsWith(u"b_ann_pro,"_s);
        });
        QVERIFY2(pro.contains(u",750.5,249.5,false,month,"_s), qPrintable(pro));
        QVERIFY(pro.contains(u",active,2,"_s));

        // The totals came first: the progress knew to expect 7 rows.
        QCOMPARE(progress.first().at(1).toLongLong(), 7);
        QFile totals(m_dir.filePath(u"all-totals.csv"_s));
        QVERIFY(totals.open(QIODevice::ReadOnly));
        const QStringList sums =
            QString::fromUtf8(totals.readAll()).split(u"\r\n"_s, Qt::SkipEmptyParts);
        QCOMPARE(sums.first(), u"group_by,key,balances,customers,granted,remaining,usage"_s);
        QVERIFY2(sums.contains(u"feature,api_calls,3,2,2010,1750.5,259.5"_s),
                 qPrintable(sums.join(u'|')));
        // Three features: their amounts are not added into one total.
        QCOMPARE(sums.last(), u"total,,7,2,,,"_s);
        QVERIFY(finished.first().at(1).toString().isEmpty());
    }

    void writesAWorkbook()
    {
        models::BalanceExport exporter(m_backend.get());
        QSignalSpy finished(&exporter, &models::BalanceExport::finished);
        api::ListBalancesRequest request;
        request.statuses = {api::BalanceStatus::Active, api::BalanceStatus::Expired};
        const QString path = m_dir.filePath(u"all.xlsx"_s);
        QVERIFY(models::Workbook::isWorkbookPath(path));
        QVERIFY(exporter.start(request, path));
        QVERIFY(exporter.isRunning());
        QVERIFY(finished.wait(10000));
        QVERIFY(!exporter.isRunning());
        QCOMPARE(finished.first().first().toLongLong(), 7);
        QVERIFY(
            !QFile::exists(models::BalanceExport::totalsPath(path))); // the second sheet instead
        const QString rows = test::xlsxPart(path, u"xl/worksheets/sheet1.xml"_s);
        QCOMPARE(rows.count(u"<row "_s), 8);
        QVERIFY(rows.contains(u"b_ann_pro"_s));
        int pro = 2;
        while (pro <= 8 && test::xlsxCell(rows, u"A%1"_s.arg(pro))->value != u"b_ann_pro"_s)
            ++pro;
        QVERIFY(pro <= 8);
        // Issue 33: "month" where the console says "monthly".
        QCOMPARE(test::xlsxCell(rows, u"K%1"_s.arg(pro))->value, u"monthly"_s);
        QCOMPARE(test::xlsxCell(rows, u"N%1"_s.arg(pro))->value, u"active"_s);

        // The totals as the console's table: by feature, then the total,
        // whose amounts would add three features together.
        const QString totals = test::xlsxPart(path, u"xl/worksheets/sheet2.xml"_s);
        QCOMPARE(test::xlsxCell(totals, u"A1"_s)->value, u"Feature"_s);
        QCOMPARE(test::xlsxCell(totals, u"D1"_s)->value, u"Granted"_s);
        QCOMPARE(test::xlsxCell(totals, u"A3"_s)->value, u"api_calls"_s);
        QCOMPARE(test::xlsxCell(totals, u"D3"_s)->value, u"2010"_s);
        QCOMPARE(test::xlsxCell(totals, u"A5"_s)->value, u"Total"_s);
        QCOMPARE(test::xlsxCell(totals, u"B5"_s)->value, u"7"_s);
        QCOMPARE(test::xlsxCell(totals, u"D5"_s)->value, u"—"_s);
    }

    // Issue 33: the "(no plan)" group's key was blank on the totals sheet.
    // It reads as on the console; CSV, for programs, leaves it empty (no
    // plan id is empty, while one could be "(no plan)").
    void theNoPlanGroupIsNamed()
    {
        models::BalanceExport exporter(m_backend.get());
        QSignalSpy finished(&exporter, &models::BalanceExport::finished);
        const QString path = m_dir.filePath(u"by-plan.xlsx"_s);
        QVERIFY(exporter.start({}, path, api::TotalsGroupBy::Plan));
        QVERIFY(finished.wait(10000));
        const QString totals = test::xlsxPart(path, u"xl/worksheets/sheet2.xml"_s);
        QCOMPARE(test::xlsxCell(totals, u"A1"_s)->value, u"Plan"_s);
        QCOMPARE(test::xlsxCell(totals, u"A2"_s)->value, u"(no plan)"_s); // the null key first
        QCOMPARE(test::xlsxCell(totals, u"B2"_s)->value, u"4"_s);
        // Top-ups of credits beside messages: a plan's amounts are left out.
        QCOMPARE(test::xlsxCell(totals, u"D2"_s)->value, u"—"_s);
        QCOMPARE(test::xlsxCell(totals, u"A3"_s)->value, u"pro"_s);
        QCOMPARE(test::xlsxCell(totals, u"A4"_s)->value, u"Total"_s);

        const QString csv = m_dir.filePath(u"by-plan.csv"_s);
        QVERIFY(exporter.start({}, csv, api::TotalsGroupBy::Plan));
        QVERIFY(finished.wait(10000));
        QFile sums(models::BalanceExport::totalsPath(csv));
        QVERIFY(sums.open(QIODevice::ReadOnly));
        const QStringList lines =
            QString::fromUtf8(sums.readAll()).split(u"\r\n"_s, Qt::SkipEmptyParts);
        QCOMPARE(lines.at(1), u"plan,,4,2,,,"_s);
    }

    // Within one feature, a plan's amounts and the total add up.
    void oneFeatureIsAddedUp()
    {
        models::BalanceExport exporter(m_backend.get());
        QSignalSpy finished(&exporter, &models::BalanceExport::finished);
        api::ListBalancesRequest request;
        request.featureId = u"api_calls"_s;
        const QString path = m_dir.filePath(u"calls.xlsx"_s);
        QVERIFY(exporter.start(request, path, api::TotalsGroupBy::Plan));
        QVERIFY(finished.wait(10000));
        const QString totals = test::xlsxPart(path, u"xl/worksheets/sheet2.xml"_s);
        QCOMPARE(test::xlsxCell(totals, u"A2"_s)->value, u"pro"_s);
        QCOMPARE(test::xlsxCell(totals, u"D2"_s)->value, u"2000"_s);
        QCOMPARE(test::xlsxCell(totals, u"A3"_s)->value, u"Total"_s);
        QCOMPARE(test::xlsxCell(totals, u"E3"_s)->value, u"1750.5"_s);
    }

    // Issue 33: exports were 0600, their owner's alone, whatever the umask:
    // the workbook was written under a QTemporaryFile's name. A new file is
    // 0666 less the umask, as any program's; one written over keeps its mode.
    void filesFollowTheUmask_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("csv") << u"mode.csv"_s;
        QTest::newRow("workbook") << u"mode.xlsx"_s;
    }
    void filesFollowTheUmask()
    {
        QFETCH(QString, name);
        const mode_t was = ::umask(022);
        const auto restore = qScopeGuard([was] { ::umask(was); });
        models::BalanceExport exporter(m_backend.get());
        QSignalSpy finished(&exporter, &models::BalanceExport::finished);
        const QString path = m_dir.filePath(name);
        QVERIFY(exporter.start({}, path));
        QVERIFY(finished.wait(10000));
        QCOMPARE(modeOf(path), 0644);
        if (!models::Workbook::isWorkbookPath(path))
            QCOMPARE(modeOf(models::BalanceExport::totalsPath(path)), 0644);

        QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner));
        QVERIFY(exporter.start({}, path));
        QVERIFY(finished.wait(10000));
        QCOMPARE(modeOf(path), 0600);
    }

    void totalsGoBesideTheFile_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("totals");
        QTest::newRow("csv") << u"/x/balances.csv"_s << u"/x/balances-totals.csv"_s;
        QTest::newRow("no suffix") << u"/x/june"_s << u"/x/june-totals.csv"_s;
        QTest::newRow("dots") << u"/x/q2.2026.txt"_s << u"/x/q2.2026-totals.txt"_s;
    }
    void totalsGoBesideTheFile()
    {
        QFETCH(QString, path);
        QFETCH(QString, totals);
        QCOMPARE(models::BalanceExport::totalsPath(path), totals);
    }

    void quotesWhatNeedsQuoting()
    {
        api::BalanceRow row;
        row.id = u"a,b"_s;
        row.customerId = u"say \"hi\""_s;
        QVERIFY(models::BalanceExport::csvLine(row).startsWith(u"\"a,b\",\"say \"\"hi\"\"\","_s));
    }

    void cancelLeavesNoFile_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("csv") << u"canceled.csv"_s;
        QTest::newRow("workbook") << u"canceled.xlsx"_s;
        QTest::newRow("report") << u"canceled.pdf"_s;
    }
    void cancelLeavesNoFile()
    {
        QFETCH(QString, name);
        EndlessBackend endless;
        models::BalanceExport exporter(&endless);
        QSignalSpy canceled(&exporter, &models::BalanceExport::canceled);
        QSignalSpy progress(&exporter, &models::BalanceExport::progress);
        const QString path = m_dir.filePath(name);
        QVERIFY(exporter.start({}, path));
        QVERIFY(progress.wait(5000));
        exporter.cancel();
        QVERIFY(canceled.wait(5000));
        QVERIFY(!exporter.isRunning());
        QVERIFY(!QFile::exists(path));
        QVERIFY(!QFile::exists(models::BalanceExport::totalsPath(path)));
        QCOMPARE(QDir(m_dir.path()).entryList({u".meterdesk-*"_s}, QDir::Hidden | QDir::Files),
                 QStringList());
    }

    void failureLeavesNoFile()
    {
        test::StubBackend failing; // answers 501
        models::BalanceExport exporter(&failing);
        QSignalSpy failed(&exporter, &models::BalanceExport::failed);
        const QString path = m_dir.filePath(u"failed.csv"_s);
        QVERIFY(exporter.start({}, path));
        QVERIFY(failed.wait(5000));
        QVERIFY(failed.first().first().toString().contains(u"not implemented"_s));
        QVERIFY(!QFile::exists(path));
        QVERIFY(!QFile::exists(models::BalanceExport::totalsPath(path)));
    }

    void unwritablePathIsRefused()
    {
        models::BalanceExport exporter(m_backend.get());
        const auto started = exporter.start({}, u"/nonexistent-dir/x.csv"_s);
        QVERIFY(!started);
        QVERIFY(started.error().message.contains(u"/nonexistent-dir/x.csv"_s));
    }
};

QTEST_GUILESS_MAIN(TestBalanceExport)
#include "tst_balanceexport.moc"
