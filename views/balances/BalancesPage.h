// Balances across customers (finance staff): a filter bar for every
// balances.list filter with saved views, the paged table, the filter's
// totals under it (grouped on demand), a detail pane for the selected
// balance (the one row selected: what is highlighted is what it shows and
// what its actions act on), export of the whole result and its totals (CSV, Excel, a PDF
// report or printed) with progress and Cancel, and empty and error states
// that say what to do.
#pragma once

#include "models/balances/BalanceFilter.h"
#include "models/balances/SavedViews.h"

#include <QWidget>

#include <memory>

class QLabel;
class QPrinter;
class QPushButton;
class QSplitter;
class QStackedLayout;
class QTableView;

namespace md::backend {
class BillingBackend;
}
namespace md::models {
class BalanceExport;
class BalanceListModel;
class BalanceTotalsModel;
} // namespace md::models

namespace md::views {

class BalanceDetailPane;
class BalanceExportBar;
class BalanceFilterBar;
class BalanceTotalsBar;
class RowTableView;

class BalancesPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BalancesPage)

public:
    explicit BalancesPage(backend::BillingBackend *backend, QWidget *parent = nullptr);
    ~BalancesPage() override;

    models::BalanceListModel *model() const { return m_model; }
    models::BalanceTotalsModel *totals() const { return m_totals; }
    BalanceDetailPane *detail() const { return m_detail; }
    QTableView *table() const;
    // Shows or hides the detail pane (Ctrl+Shift+D); the window remembers it.
    QAction *detailAction() const { return m_showDetail; }
    // The panes' sizes and whether the detail is shown, for the next start.
    QByteArray layoutState() const;
    void restoreLayout(const QByteArray &state);
    models::BalanceExport *exporter() const { return m_export; }

    models::BalanceFilter filter() const;
    // Shows `filter` in the bar and asks for its rows (unless `apply` is false).
    void setFilter(const models::BalanceFilter &filter, bool apply = true);
    models::SavedViews &savedViews();
    // Reloads the filter choices (features, plans) and the rows.
    void refresh();
    void focusFilter();
    // Writes every row of the current filter to `path` in the background.
    api::Result<api::Done> exportTo(const QString &path);
    // Asks for a printer, then prints the report of the current filter.
    void print();
    api::Result<api::Done> printTo(std::shared_ptr<QPrinter> printer);
    void copySelection() const;

Q_SIGNALS:
    void statusMessage(const QString &message);
    void openCustomer(const QString &customerId);

private:
    void applyFilter();
    // A header click: the server's order for that column, turned around on
    // a second click; other columns say which sort.
    void sortBy(int column);
    void showOrder();
    void updateState();
    void updateDetail();
    void chooseExport();
    void showRowMenu(const QPoint &at);

    models::BalanceListModel *m_model;
    models::BalanceTotalsModel *m_totals;
    models::BalanceExport *m_export;
    BalanceFilterBar *m_filterBar;
    BalanceTotalsBar *m_totalsBar;
    RowTableView *m_table;
    BalanceDetailPane *m_detail;
    QSplitter *m_splitter;
    QAction *m_showDetail;
    QStackedLayout *m_states;
    QLabel *m_message;
    QPushButton *m_retry;
    BalanceExportBar *m_exportBar;
    bool m_columnsSized = false;
};

} // namespace md::views
