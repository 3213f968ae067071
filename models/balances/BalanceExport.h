// Writes the whole filtered result of balances.list (every page, not only the
// rows a view has loaded) in the background, page by page, with the filter's
// totals grouped as the console shows them: to CSV, the totals beside it
// ("balances.csv" and "balances-totals.csv"), or to an Excel workbook with
// the totals on its second sheet (a path ending in ".xlsx", Workbook), or
// as a PDF report (a path ending in ".pdf", or a printer: BalanceReport).
// The totals come first, so the progress knows how many rows to expect. The
// files appear only when complete; Cancel leaves nothing.
#pragma once

#include "models/common/ExportRow.h"
#include "services/api/BalanceTotals.h"
#include "services/api/ListBalances.h"
#include "services/backend/BillingBackend.h"

#include <QObject>
#include <QSaveFile>

#include <atomic>
#include <memory>

class QPagedPaintDevice;

namespace md::models {

class BalanceReport;
class Workbook;

class BalanceExport final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BalanceExport)

public:
    explicit BalanceExport(backend::BillingBackend *backend, QObject *parent = nullptr);
    ~BalanceExport() override;

    // Refused (with the reason) when the file cannot be opened or an export runs.
    api::Result<api::Done> start(const api::ListBalancesRequest &request, const QString &path,
                                 api::TotalsGroupBy groupBy = api::TotalsGroupBy::Feature);
    // The report of the filter drawn on `device` (a printer) instead of a file.
    api::Result<api::Done> startReport(const api::ListBalancesRequest &request,
                                       std::shared_ptr<QPagedPaintDevice> device,
                                       api::TotalsGroupBy groupBy = api::TotalsGroupBy::Feature);
    void cancel();
    bool isRunning() const { return m_file || m_book || m_report; }

    static ExportColumns columns();
    static ExportRow cells(const api::BalanceRow &row);
    static QString csvHeader() { return csvHeaderOf(columns()); }
    static QString csvLine(const api::BalanceRow &row) { return csvLineOf(cells(row)); }
    // Whether an export to `path` is the PDF report.
    static bool isReportPath(const QString &path);
    // Where the totals of an export to `path` go.
    static QString totalsPath(const QString &path);

Q_SIGNALS:
    // `expected` is the filter's row count from its totals, -1 when unknown.
    void progress(qint64 rows, qint64 expected);
    // `totalsProblem` says why no totals file was written, empty when it was.
    void finished(qint64 rows, const QString &totalsProblem);
    void failed(const QString &message);
    void canceled();
    // Every row is written; a workbook is being compressed (seconds for a
    // million rows), which cannot be canceled.
    void saving();
    // Every row of a report is in; its pages are being drawn (`pages` is 0
    // until they are laid out). Cancel stops a file between two pages; a
    // printer's pages, once begun, are all drawn.
    void drawing(int page, int pages);

private:
    api::Result<api::Done> openCsv(const QString &path);
    void begin(const api::ListBalancesRequest &request, api::TotalsGroupBy groupBy);
    void requestWorkspace(api::TotalsGroupBy groupBy);
    void requestTotals(api::TotalsGroupBy groupBy);
    void requestPage();
    void stop();
    void complete();
    void drawReport();

    backend::BillingBackend *m_backend;
    api::ListBalancesRequest m_request;
    std::unique_ptr<QSaveFile> m_file;
    std::unique_ptr<QSaveFile> m_totalsFile;
    std::shared_ptr<Workbook> m_book; // shared with the thread that saves it
    // A report, and where it is drawn: a PDF file or a printer; shared with
    // the thread that draws it.
    std::shared_ptr<BalanceReport> m_report;
    std::shared_ptr<QSaveFile> m_reportFile;
    std::shared_ptr<QPagedPaintDevice> m_reportDevice;
    bool m_drawing = false;
    std::shared_ptr<std::atomic_bool> m_stopDrawing; // read by the drawing thread
    QString m_totalsProblem;
    qint64 m_rows = 0;
    qint64 m_expected = -1;
    bool m_cancelRequested = false;
};

} // namespace md::models
