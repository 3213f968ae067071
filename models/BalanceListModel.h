// Balances from balances.list as a table: pages are fetched on demand with
// the cursor the model holds (canFetchMore/fetchMore); pages that come back
// empty while has_more is true are followed at once.
#pragma once

#include "models/BalanceRowStore.h"
#include "services/api/ListBalances.h"
#include "services/backend/BillingBackend.h"

#include "models/PagedTableModel.h"

namespace md::models {

class BalanceListModel final : public PagedTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BalanceListModel)

public:
    enum Column {
        CustomerColumn,
        EntityColumn,
        FeatureColumn,
        PlanColumn,
        IncludedColumn,
        PrepaidColumn,
        RemainingColumn,
        UsageColumn,
        UnlimitedColumn,
        IntervalColumn,
        ResetColumn,
        ExpiresColumn,
        StatusColumn,
        RolloversColumn,
        CreatedColumn,
        ColumnCount
    };
    // The raw value of a cell, for sorting and copying: amounts as exact
    // decimal text, times as milliseconds.
    static constexpr int RawValueRole = Qt::UserRole;

    explicit BalanceListModel(backend::BillingBackend *backend, QObject *parent = nullptr);
    ~BalanceListModel() override;

    // Replaces the filter and starts again from the first page.
    void setRequest(const api::ListBalancesRequest &request);
    const api::ListBalancesRequest &request() const { return m_request; }
    void refresh();

    api::BalanceRow balance(int row) const { return m_rows.at(row); }

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    static QString intervalName(api::ResetInterval interval);
    // The row as the API sends it, indented: for engineers, one click away.
    static QString rawText(const api::BalanceRow &row);

protected:
    qsizetype storedRows() const override { return m_rows.size(); }
    void clearRows() override { m_rows.clear(); }
    void sendRequest(const QString &cursor, quint64 generation) override;

private:
    backend::BillingBackend *m_backend;
    api::ListBalancesRequest m_request;
    BalanceRowStore m_rows;
};

} // namespace md::models
