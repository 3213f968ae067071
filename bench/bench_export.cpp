// The Excel export of a million balance rows (docs/export.md): time and peak
// resident memory of the Workbook an export writes, beside the ceiling measured in the
// same run: the same rows written as CSV lines to a file. Then the PDF report
// of its longest (BalanceReport::MaxRows rows), beside those rows as CSV.
#include "models/balances/BalanceExport.h"
#include "models/balances/BalanceReport.h"
#include "models/common/Workbook.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QPdfWriter>
#include <QTemporaryDir>

#include <sys/resource.h>

#include <cstdio>

using namespace md;
using namespace Qt::StringLiterals;

namespace {

qint64 peakMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss / 1024;
}

// Page `page` of synthetic rows, as balances.list would send them.
QList<api::BalanceRow> page(int page, int size)
{
    QList<api::BalanceRow> rows;
    for (int i = 0; i < size; ++i) {
        const qint64 n = qint64(page) * size + i;
        api::BalanceRow row;
        row.id = u"bal_%1"_s.arg(n, 8, 10, QChar(u'0'));
        row.customerId = u"customer-%1"_s.arg(n / 100, 5, 10, QChar(u'0'));
        row.featureId = n % 2 ? u"ai_credits"_s : u"api_calls"_s;
        row.planId = n % 3 ? std::optional(u"pro"_s) : std::nullopt;
        row.includedGrant = api::Decimal::fromInteger(1000);
        row.prepaidGrant = *api::Decimal::parse("12.5");
        row.remaining = api::Decimal::fromRaw(api::Int128(n) * 1234567 % 1000000000000);
        row.usage = api::Decimal::fromRaw(api::Int128(n) * 7654321 % 1000000000000);
        row.expiresAt = n % 5 ? std::optional<qint64>() : std::optional<qint64>(1767225600000);
        row.createdAt = 1764547200000 + n;
        rows.append(row);
    }
    return rows;
}

// Milliseconds to write `rows` rows as CSV lines to `path`.
qint64 writeCsv(const QString &path, int pages, int pageSize)
{
    QElapsedTimer timer;
    timer.start();
    QFile csv(path);
    if (!csv.open(QIODevice::WriteOnly))
        return -1;
    csv.write(models::BalanceExport::csvHeader().toUtf8());
    for (int p = 0; p < pages; ++p) {
        QString text;
        for (const api::BalanceRow &row : page(p, pageSize))
            text += models::BalanceExport::csvLine(row);
        csv.write(text.toUtf8());
    }
    return timer.elapsed();
}

} // namespace

int main(int argc, char **argv)
{
    // Fonts for the report, without a display.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOption({u"rows"_s, u"Rows exported."_s, u"N"_s, u"1000000"_s});
    parser.process(app);
    const int pageSize = 200;
    const int pages = (parser.value(u"rows"_s).toInt() + pageSize - 1) / pageSize;
    QTemporaryDir dir;

    const qint64 csvMs = writeCsv(dir.filePath(u"balances.csv"_s), pages, pageSize);
    if (csvMs < 0)
        return 1;
    const qint64 csvPeak = peakMiB();
    const qint64 csvBytes = QFileInfo(dir.filePath(u"balances.csv"_s)).size();

    QElapsedTimer timer;
    timer.start();
    auto book = models::Workbook::create(dir.filePath(u"balances.xlsx"_s),
                                         {{u"Balances"_s, models::BalanceExport::columns()}});
    if (!book)
        return 1;
    for (int p = 0; p < pages; ++p)
        for (const api::BalanceRow &row : page(p, pageSize))
            book.value()->append(0, models::BalanceExport::cells(row));
    const qint64 rowsMs = timer.elapsed();
    if (!book.value()->save())
        return 1;
    const qint64 xlsxMs = timer.elapsed();
    const qint64 xlsxBytes = QFileInfo(dir.filePath(u"balances.xlsx"_s)).size();

    std::printf("rows: %d\n", pages * pageSize);
    std::printf("%-44s %10s %12s %10s\n", "figure", "ms", "peak MiB", "MiB file");
    std::printf("%-44s %10lld %12lld %10.1f\n", "ceiling: the rows as CSV lines to a file", csvMs,
                csvPeak, double(csvBytes) / 1048576);
    std::printf("%-44s %10lld %12s\n", "workbook: rows written (streamed to disk)", rowsMs, "");
    std::printf("%-44s %10lld %12lld %10.1f\n", "workbook: complete, compressed", xlsxMs, peakMiB(),
                double(xlsxBytes) / 1048576);
    std::printf("workbook time / CSV time: %.2f\n",
                double(xlsxMs) / double(qMax<qint64>(csvMs, 1)));

    // The longest report: its rows gathered as the export gathers them, then laid out and drawn.
    const int reportPages = int(models::BalanceReport::MaxRows / pageSize);
    const qint64 reportCsvMs = writeCsv(dir.filePath(u"report.csv"_s), reportPages, pageSize);
    timer.restart();
    models::BalanceReport report({}, QDateTime::currentDateTime());
    for (int p = 0; p < reportPages; ++p)
        report.addRows(page(p, pageSize));
    const qint64 gatheredMs = timer.elapsed();
    int drawnPages = 0;
    {
        QPdfWriter writer(dir.filePath(u"report.pdf"_s));
        writer.setPageOrientation(QPageLayout::Landscape);
        const auto drawn = report.draw(&writer);
        if (!drawn)
            return 1;
        drawnPages = drawn.value();
    }
    const qint64 reportMs = timer.elapsed();
    std::printf("\nreport rows: %lld\n", qint64(models::BalanceReport::MaxRows));
    std::printf("%-44s %10s %12s %10s\n", "figure", "ms", "pages", "MiB file");
    std::printf("%-44s %10lld\n", "ceiling: the rows as CSV lines to a file", reportCsvMs);
    std::printf("%-44s %10lld\n", "report: rows gathered (cells as shown)", gatheredMs);
    std::printf("%-44s %10lld %12d %10.1f\n", "report: laid out, drawn, written (PDF)", reportMs,
                drawnPages, double(QFileInfo(dir.filePath(u"report.pdf"_s)).size()) / 1048576);
    std::printf("report time / CSV time: %.2f\n",
                double(reportMs) / double(qMax<qint64>(reportCsvMs, 1)));
    std::printf("peak resident after both: %lld MiB\n", peakMiB());
    return 0;
}
