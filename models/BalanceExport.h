// Writes the whole filtered result of balances.list (every page, not only the
// rows a view has loaded) in the background, page by page, with the filter's
// totals grouped as the console shows them: to CSV, the totals beside it
// ("balances.csv" and "balances-totals.csv"), or to an Excel workbook with
// the totals on its second sheet (a path ending in ".xlsx", Workbook).
// The totals come first, so the progress knows how many rows to expect. The
// files appear only when complete; Cancel leaves nothing.
#pragma once

#include "models/ExportRow.h"
#include "services/api/BalanceTotals.h"
#include "services/api/ListBalances.h"
#include "services/backend/BillingBackend.h"

#include <QObject>
#include <QSaveFile>

#include <memory>

namespace md::models {

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
    void cancel();
    bool isRunning() const { return m_file || m_book; }

    static QStringList columns();
    static ExportRow cells(const api::BalanceRow &row);
    static QString csvHeader() { return csvHeaderOf(columns()); }
    static QString csvLine(const api::BalanceRow &row) { return csvLineOf(cells(row)); }
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

private:
    api::Result<api::Done> openCsv(const QString &path);
    void requestTotals(api::TotalsGroupBy groupBy);
    void requestPage();
    void stop();
    void complete();

    backend::BillingBackend *m_backend;
    api::ListBalancesRequest m_request;
    std::unique_ptr<QSaveFile> m_file;
    std::unique_ptr<QSaveFile> m_totalsFile;
    std::shared_ptr<Workbook> m_book; // shared with the thread that saves it
    QString m_totalsProblem;
    qint64 m_rows = 0;
    qint64 m_expected = -1;
    bool m_cancelRequested = false;
};

} // namespace md::models
