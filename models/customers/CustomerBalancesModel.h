// One customer's per-feature balance summaries as a tree: a row per feature
// (granted, remaining, usage, next reset) with its breakdown rows beneath.
#pragma once

#include "services/api/Customer.h"

#include <QAbstractItemModel>

namespace md::models {

class CustomerBalancesModel final : public QAbstractItemModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CustomerBalancesModel)

public:
    enum Column {
        FeatureColumn,
        PlanColumn,
        GrantedColumn,
        RemainingColumn,
        UsageColumn,
        ResetColumn,
        ColumnCount
    };

    explicit CustomerBalancesModel(QObject *parent = nullptr);
    void setCustomer(const api::Customer &customer);

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<api::BalanceSummary> m_summaries;
};

} // namespace md::models
