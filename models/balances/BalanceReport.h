// The PDF report of the Balances page's filter (docs/export.md, "PDF
// report"): a title, the workspace, the filter in words and when it was
// made, the filter's totals by group, then its rows as the table shows them;
// each page with a running header, the table's column titles again and
// "Page n of N". The report is laid out whole before it is drawn, so every
// page knows how many there are; it lists at most MaxRows rows and says how
// many it left out (a spreadsheet takes every row). Drawn on any paged
// device: a PDF file (QPdfWriter) or a printer.
#pragma once

#include "services/api/BalanceTotals.h"
#include "services/api/ListBalances.h"
#include "services/api/Result.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QStringList>

#include <functional>
#include <optional>

class QPagedPaintDevice;
class QPainter;

namespace md::models {

class BalanceReport final
{
    Q_DECLARE_TR_FUNCTIONS(BalanceReport)

public:
    // About 230 landscape A4 pages: a report to read or print. More rows
    // belong in a spreadsheet.
    static constexpr qsizetype MaxRows = 10'000;

    BalanceReport(const api::ListBalancesRequest &filter, QDateTime generatedAt);

    void setWorkspace(const QString &workspace) { m_workspace = workspace; }
    void setTotals(const api::BalanceTotals &totals, api::TotalsGroupBy groupBy);
    // Rows past MaxRows are counted, not kept.
    void addRows(const QList<api::BalanceRow> &rows);
    bool isFull() const { return m_rows.size() >= MaxRows; }
    qsizetype rowCount() const { return m_rows.size(); }

    // Lays the report out on `device` and draws it page by page; `drawn`
    // hears of each page (from the thread that draws). Before each page
    // `stopped` may end it with an error of code "stopped".
    api::Result<int> draw(QPagedPaintDevice *device,
                          const std::function<void(int page, int pages)> &drawn = {},
                          const std::function<bool()> &stopped = {}) const;

    // "Customer acme · every feature · any plan · active balances".
    static QString filterInWords(const api::ListBalancesRequest &filter);
    // "Totals by plan" and the like, for the grouping.
    static QString heading(api::TotalsGroupBy groupBy);
    // The balance table's columns the report shows (BalanceListModel's).
    static QList<int> columns();

private:
    struct Table;
    struct Block;
    struct Layout;

    QList<Block> blocks() const;
    Layout layOut(QPainter &painter) const;

    api::ListBalancesRequest m_filter;
    QDateTime m_generatedAt;
    QString m_workspace;
    std::optional<api::BalanceTotals> m_totals;
    api::TotalsGroupBy m_groupBy = api::TotalsGroupBy::Feature;
    QList<QStringList> m_rows; // each row's cells as the table shows them
    qint64 m_rowsSeen = 0;
};

} // namespace md::models
