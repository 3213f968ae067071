// The PDF report of a balances filter (docs/export.md, "PDF report"), read
// back with poppler: its title, workspace, filter in words and totals; every
// page headed, its rows under the table's column titles and numbered "Page n
// of N"; at most MaxRows rows, saying how many were left out; nothing left
// behind when it cannot be written.
#include "models/balances/BalanceExport.h"
#include "models/balances/BalanceReport.h"
#include "tests/models/PdfText.h"
#include "tests/models/SmallBackend.h"
#include "tests/support/StubBackend.h"

#include <QDir>
#include <QPdfWriter>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

using namespace md;
using namespace Qt::StringLiterals;

namespace {

api::BalanceRow row(int n)
{
    api::BalanceRow row;
    row.id = u"b%1"_s.arg(n);
    row.customerId = u"cust-%1"_s.arg(n, 5, 10, QLatin1Char('0'));
    row.featureId = u"tokens"_s;
    row.remaining = api::Decimal::parse(u"%1.25"_s.arg(n)).value();
    row.createdAt = 0;
    return row;
}

// Pages of 200 rows, numbered on, forever: totals are not available.
class EndlessBackend final : public test::StubBackend
{
public:
    int served = 0;
    backend::Reply<api::ListBalancesResponse>
    listBalances(const api::ListBalancesRequest &) override
    {
        QList<api::BalanceRow> rows;
        for (int i = 0; i < 200; ++i)
            rows.append(row(++served));
        return QtFuture::makeReadyFuture(api::Result<api::ListBalancesResponse>(
            api::ListBalancesResponse{rows, true, u"next"_s}));
    }
};

// No balance matches.
class EmptyBackend final : public test::StubBackend
{
public:
    backend::Reply<api::ListBalancesResponse>
    listBalances(const api::ListBalancesRequest &) override
    {
        return QtFuture::makeReadyFuture(
            api::Result<api::ListBalancesResponse>(api::ListBalancesResponse{}));
    }
};

} // namespace

class TestBalanceReport final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<embedded::EngineBackend> m_backend;

    // Runs an export to `path` until it ends; its rows, or -1 when it failed.
    qint64 exportTo(backend::BillingBackend *backend, const api::ListBalancesRequest &request,
                    const QString &path, api::TotalsGroupBy groupBy)
    {
        models::BalanceExport exporter(backend);
        QSignalSpy finished(&exporter, &models::BalanceExport::finished);
        QSignalSpy failed(&exporter, &models::BalanceExport::failed);
        if (!exporter.start(request, path, groupBy))
            return -1;
        while (finished.isEmpty() && failed.isEmpty())
            if (!QTest::qWaitFor([&] { return !finished.isEmpty() || !failed.isEmpty(); }, 60000))
                return -1;
        if (!failed.isEmpty())
            qWarning() << "the report failed:" << failed.first().first().toString();
        return finished.isEmpty() ? -1 : finished.first().first().toLongLong();
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_backend = test::smallBackend(m_dir.filePath(u"report.db"_s));
        QVERIFY(m_backend);
    }

    void reportsTheFilterWithItsTotals()
    {
        api::ListBalancesRequest request;
        request.statuses = {api::BalanceStatus::Active, api::BalanceStatus::Expired};
        const QString path = m_dir.filePath(u"balances.pdf"_s);
        QVERIFY(models::BalanceExport::isReportPath(path));
        QCOMPARE(exportTo(m_backend.get(), request, path, api::TotalsGroupBy::Feature), 7);
        QCOMPARE(test::pdfPages(path), 1);
        const QString text = test::pdfText(path, 1, 1);
        QVERIFY2(text.contains(u"Balances report"_s), qPrintable(text));
        QVERIFY(text.contains(u"Workspace report.db on this computer"_s));
        QVERIFY(text.contains(
            u"Filter: All customers · every feature · any plan · active and expired balances"_s));
        QVERIFY(text.contains(u"Generated "_s));
        QVERIFY(text.contains(u"Totals by feature"_s));
        // The api_calls group as the totals view shows it, then the total.
        QVERIFY2(text.contains(u"api_calls"_s) && text.contains(u"2,010.00"_s), qPrintable(text));
        QVERIFY(text.contains(u"Total"_s));
        // Issue 33: the total added API calls, credits and messages into
        // one granted 9,007,199,254,743,131.75; it counts them, and says why.
        QVERIFY2(!text.contains(u"9,007,199,254,743,131.75"_s), qPrintable(text));
        QVERIFY2(text.contains(u"the total counts balances and customers"_s), qPrintable(text));
        QVERIFY(text.contains(u"Remaining"_s));
        QVERIFY(text.contains(u"750.50"_s)); // b_ann_pro's remaining
        QVERIFY(text.contains(u"Page 1 of 1"_s));
    }

    void groupsAsAsked()
    {
        api::ListBalancesRequest request;
        request.customerId = u"bob"_s;
        const QString path = m_dir.filePath(u"by-plan.pdf"_s);
        QVERIFY(exportTo(m_backend.get(), request, path, api::TotalsGroupBy::Plan) > 0);
        const QString text = test::pdfText(path, 1, 1);
        QVERIFY2(text.contains(u"Totals by plan"_s), qPrintable(text));
        QVERIFY(text.contains(u"Filter: Customer bob · every feature · any plan · active "
                              "balances"_s));
        // Bob's plan and his credits: no amounts added across features
        // (his 1,000 API calls and 9,007,199,254,740,991 credits).
        QVERIFY2(!text.contains(u"9,007,199,254,741,991.00"_s), qPrintable(text));
        QVERIFY2(text.contains(u"choose a feature, or group by feature"_s), qPrintable(text));
    }

    void pagesAreHeadedAndNumbered()
    {
        models::BalanceReport report({}, QDateTime::currentDateTime());
        report.setWorkspace(u"Acme (acme) · live"_s);
        QList<api::BalanceRow> rows;
        for (int n = 1; n <= 500; ++n)
            rows.append(row(n));
        report.addRows(rows);
        const QString path = m_dir.filePath(u"paged.pdf"_s);
        int pages = 0;
        {
            QPdfWriter writer(path);
            writer.setPageSize(QPageSize(QPageSize::A4));
            writer.setPageOrientation(QPageLayout::Landscape);
            QList<int> seen;
            const auto drawn = report.draw(&writer, [&](int page, int total) {
                seen.append(page);
                pages = total;
            });
            QVERIFY(drawn);
            QCOMPARE(drawn.value(), pages);
            QCOMPARE(seen.size(), pages);
        }
        QVERIFY2(pages > 5, qPrintable(QString::number(pages)));
        QCOMPARE(test::pdfPages(path), pages);
        int next = 1; // every row once, in order, across the pages
        for (int page = 1; page <= pages; ++page) {
            const QString text = test::pdfText(path, page, page);
            QVERIFY2(text.contains(u"Page %1 of %2"_s.arg(page).arg(pages)), qPrintable(text));
            QVERIFY(text.contains(u"Meterdesk · Balances report · Acme (acme) · live"_s));
            QVERIFY2(text.contains(u"Customer"_s) && text.contains(u"Remaining"_s),
                     qPrintable(text));
            while (next <= 500 && text.contains(u"cust-%1"_s.arg(next, 5, 10, QLatin1Char('0'))))
                ++next;
        }
        QCOMPARE(next, 501);
        QVERIFY(!test::pdfText(path, pages, pages).contains(u"are listed"_s));
    }

    void aLongFilterIsCutAndSaysSo()
    {
        EndlessBackend endless;
        const QString path = m_dir.filePath(u"long.pdf"_s);
        QCOMPARE(exportTo(&endless, {}, path, api::TotalsGroupBy::Feature),
                 models::BalanceReport::MaxRows);
        // It stopped asking once the report was full.
        QCOMPARE(endless.served, int(models::BalanceReport::MaxRows));
        const int pages = test::pdfPages(path);
        QVERIFY(pages > 100);
        const QString first = test::pdfText(path, 1, 1);
        QVERIFY2(first.contains(u"The totals could not be computed"_s), qPrintable(first));
        const QString last = test::pdfText(path, pages, pages);
        QVERIFY2(last.contains(u"Only the first 10,000 balances are listed"_s), qPrintable(last));
        QVERIFY(last.contains(u"cust-10000"_s));
    }

    // The console closes while the pages are drawn: the drawing ends on its
    // own and no file is left, complete or not.
    void closedWhileDrawingLeavesNoFile()
    {
        EndlessBackend endless;
        const QString path = m_dir.filePath(u"closed.pdf"_s);
        {
            models::BalanceExport exporter(&endless);
            QSignalSpy drawing(&exporter, &models::BalanceExport::drawing);
            QVERIFY(exporter.start({}, path));
            QVERIFY(QTest::qWaitFor([&] { return !drawing.isEmpty(); }, 60000));
        }
        QThreadPool::globalInstance()->waitForDone();
        QVERIFY(!QFile::exists(path));
        QCOMPARE(QDir(m_dir.path()).entryList({u"closed*"_s}, QDir::Files | QDir::Hidden),
                 QStringList());
    }

    // Cancel while the pages of a file are drawn: it stops between two
    // pages, and no file is left.
    void cancelWhileDrawingLeavesNoFile()
    {
        EndlessBackend endless;
        const QString path = m_dir.filePath(u"stopped.pdf"_s);
        models::BalanceExport exporter(&endless);
        QSignalSpy canceled(&exporter, &models::BalanceExport::canceled);
        QSignalSpy finished(&exporter, &models::BalanceExport::finished);
        int pages = 0;
        // Progress may come coalesced: the first page reported, whichever it is.
        connect(&exporter, &models::BalanceExport::drawing, this, [&](int page, int total) {
            if (page > 0 && pages == 0)
                exporter.cancel();
            pages = total;
        });
        QVERIFY(exporter.start({}, path));
        QVERIFY(QTest::qWaitFor([&] { return !canceled.isEmpty() || !finished.isEmpty(); }, 60000));
        QCOMPARE(canceled.size(), 1);
        QVERIFY(pages > 100);
        QVERIFY(!exporter.isRunning());
        QVERIFY(!QFile::exists(path));
        QCOMPARE(QDir(m_dir.path()).entryList({u"stopped*"_s}, QDir::Files | QDir::Hidden),
                 QStringList());
    }

    void anEmptyFilterSaysSo()
    {
        EmptyBackend empty;
        const QString path = m_dir.filePath(u"empty.pdf"_s);
        QCOMPARE(exportTo(&empty, {}, path, api::TotalsGroupBy::Feature), 0);
        QVERIFY(test::pdfText(path, 1, 1).contains(u"No balances match this filter."_s));
    }

    void aFailedReportLeavesNoFile()
    {
        test::StubBackend failing; // answers 501
        const QString path = m_dir.filePath(u"failed.pdf"_s);
        QCOMPARE(exportTo(&failing, {}, path, api::TotalsGroupBy::Feature), -1);
        QVERIFY(!QFile::exists(path));
    }

    void filterInWords_data()
    {
        QTest::addColumn<QString>("customer");
        QTest::addColumn<QString>("entity");
        QTest::addColumn<int>("plan"); // 0 any, 1 none, 2 "pro"
        QTest::addColumn<bool>("expired");
        QTest::addColumn<QString>("words");
        QTest::newRow("all") << QString() << QString() << 0 << false
                             << u"All customers · every feature · any plan · active balances"_s;
        QTest::newRow("entity") << u"acme"_s << u"seat-1"_s << 1 << true
                                << u"Customer acme, entity seat-1 · every feature · no plan · "
                                   "active and expired balances"_s;
        QTest::newRow("plan") << u"acme"_s << QString() << 2 << false
                              << u"Customer acme · every feature · plan pro · active balances"_s;
    }
    void filterInWords()
    {
        QFETCH(QString, customer);
        QFETCH(QString, entity);
        QFETCH(int, plan);
        QFETCH(bool, expired);
        QFETCH(QString, words);
        api::ListBalancesRequest request;
        if (!customer.isEmpty())
            request.customerId = customer;
        if (!entity.isEmpty())
            request.entityId = entity;
        if (plan == 1)
            request.planId = std::optional<QString>();
        else if (plan == 2)
            request.planId = std::optional<QString>(u"pro"_s);
        if (expired)
            request.statuses.append(api::BalanceStatus::Expired);
        QCOMPARE(models::BalanceReport::filterInWords(request), words);
    }

    void filterInWordsSaysTheResetDay()
    {
        api::ListBalancesRequest request;
        request.resetsBefore = QDate(2026, 12, 1).startOfDay().toMSecsSinceEpoch();
        const QString words = models::BalanceReport::filterInWords(request);
        QVERIFY2(words.endsWith(u" · resetting before "_s +
                                QLocale().toString(QDate(2026, 12, 1), QLocale::ShortFormat)),
                 qPrintable(words));
    }
};

QTEST_MAIN(TestBalanceReport)
#include "tst_balancereport.moc"
