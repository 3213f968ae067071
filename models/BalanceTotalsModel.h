// The totals of the Balances page's filter (balances.totals), grouped by
// feature, plan or customer: one row per group for the grouped view, the
// total for the bar under the table, and the same as CSV for export. Follows
// the filter with at most one scan running: changes made meanwhile are asked
// for once it ends, the newest only, and its answer is dropped.
#pragma once

#include "models/ExportRow.h"
#include "models/ListTableModel.h"
#include "services/api/BalanceTotals.h"
#include "services/backend/BillingBackend.h"

#include <optional>

namespace md::models {

class BalanceTotalsModel final : public ListTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BalanceTotalsModel)

public:
    enum Column { Key, Balances, Customers, Granted, Remaining, Usage, ColumnCount };

    explicit BalanceTotalsModel(backend::BillingBackend *backend, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // Asks for the totals of `filter` (its limit and cursor are ignored)
    // when it differs from the current one, or always when `force`.
    void setFilter(const api::ListBalancesRequest &filter, bool force = false);
    void setGroupBy(api::TotalsGroupBy groupBy);
    api::TotalsGroupBy groupBy() const { return m_request.groupBy; }
    void reload();

    // The newest answer, for the current filter and grouping, once it came.
    const std::optional<api::BalanceTotals> &totals() const { return m_totals; }
    bool isLoading() const { return m_loading; }
    const std::optional<api::ApiError> &lastError() const { return m_error; }
    // The total in words for the bar: "1,204 balances of 310 customers ·
    // granted 5,000.00 · remaining 1,250.50 · used 3,749.50".
    QString summary() const;
    // The groups and the total as CSV (header line first), amounts in full.
    // The groups and the total as export rows (ExportRow), then as CSV.
    static QStringList columns();
    static QList<ExportRow> rows(const api::BalanceTotals &totals, api::TotalsGroupBy groupBy);
    static QString csv(const api::BalanceTotals &totals, api::TotalsGroupBy groupBy);
    static QString groupName(api::TotalsGroupBy groupBy);
    // A column's title and a group's figure in it, as the view shows them.
    static QString columnTitle(int column, api::TotalsGroupBy groupBy);
    static QString text(const api::TotalsGroup &group, int column);

Q_SIGNALS:
    void loadingChanged(bool loading);

private:
    void ask();

    backend::BillingBackend *m_backend;
    api::BalanceTotalsRequest m_request;
    std::optional<api::BalanceTotals> m_totals;
    std::optional<api::ApiError> m_error;
    bool m_loading = false;
    bool m_inFlight = false;
    bool m_askAgain = false;
    backend::Reply<api::BalanceTotals> m_reply; // the scan in flight
};

} // namespace md::models
