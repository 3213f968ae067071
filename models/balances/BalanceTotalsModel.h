// The totals of the Balances page's filter (balances.totals), grouped by
// feature, plan or customer: one row per group for the grouped view, the
// total for the bar under the table, and the same for export. Follows the
// filter with at most one scan running: changes made meanwhile are asked
// for once it ends, the newest only, and its answer is dropped.
//
// Features count different things (API calls, credits, gigabytes), so
// amounts are shown only where they add up one feature's: a group's when
// the groups are features or the filter names one, the total's when the
// filter names one or the groups are a single feature. Elsewhere the
// balances and customers are counted, and the amounts are left out.
#pragma once

#include "models/common/ExportRow.h"
#include "models/common/ListTableModel.h"
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
    const api::BalanceTotalsRequest &request() const { return m_request; }
    void reload();

    // The newest answer, for the current filter and grouping, once it came.
    const std::optional<api::BalanceTotals> &totals() const { return m_totals; }
    bool isLoading() const { return m_loading; }
    const std::optional<api::ApiError> &lastError() const { return m_error; }
    // The total in words for the bar: "1,204 balances · 310 customers ·
    // granted 5,000.00 · remaining 1,250.50 · used 3,749.50", or, when the
    // filter spans features, "… · 3 features: choose one to add up its amounts".
    QString summary() const;

    // Whether the amounts of each group, and of the total, add up one feature's.
    static bool groupsInOneUnit(const api::BalanceTotalsRequest &request);
    static bool totalInOneUnit(const api::BalanceTotalsRequest &request,
                               const api::BalanceTotals &totals);
    // Why amounts are left out, in a sentence; empty when none is.
    static QString unitNote(const api::BalanceTotalsRequest &request,
                            const api::BalanceTotals &totals);

    // The groups, then the total, as the table shows them, for export: the
    // key column titled by the grouping, "(no plan)" and "Total" in words,
    // amounts left out as "—". CSV, for programs, puts the grouping first
    // (group_by,key,…: "plan", then "total"), and leaves those keys and
    // amounts empty.
    static ExportColumns columns(api::TotalsGroupBy groupBy);
    static QList<ExportRow> rows(const api::BalanceTotalsRequest &request,
                                 const api::BalanceTotals &totals);
    static QString csv(const api::BalanceTotalsRequest &request, const api::BalanceTotals &totals);
    static QString groupName(api::TotalsGroupBy groupBy);
    // A column's title and a group's figure in it, as the view shows them;
    // without `amounts`, an amount is "—".
    static QString columnTitle(int column, api::TotalsGroupBy groupBy);
    static QString text(const api::TotalsGroup &group, int column, bool amounts,
                        api::TotalsGroupBy groupBy);
    // A group's key as a person reads it: an id, "(no plan)", or a month
    // of next reset ("December 2026", "(never resets)").
    static QString keyText(const std::optional<QString> &key, api::TotalsGroupBy groupBy);

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
