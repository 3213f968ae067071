#include "models/customers/CustomerBalancesModel.h"

#include "models/common/AmountFormat.h"

namespace md::models {

namespace {
// Internal ids: 0 for a feature row; feature index + 1 for its breakdown rows.
constexpr quintptr FeatureRow = 0;
} // namespace

CustomerBalancesModel::CustomerBalancesModel(QObject *parent)
    : QAbstractItemModel(parent)
{}

void CustomerBalancesModel::setCustomer(const api::Customer &customer)
{
    beginResetModel();
    m_summaries = customer.balances.values();
    endResetModel();
}

QModelIndex CustomerBalancesModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, FeatureRow);
    return createIndex(row, column, quintptr(parent.row()) + 1);
}

QModelIndex CustomerBalancesModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == FeatureRow)
        return {};
    return createIndex(int(child.internalId() - 1), 0, FeatureRow);
}

int CustomerBalancesModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_summaries.size());
    if (parent.internalId() == FeatureRow && parent.column() == 0)
        return int(m_summaries.at(parent.row()).breakdown.size());
    return 0;
}

int CustomerBalancesModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant CustomerBalancesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case FeatureColumn:
        return tr("Feature / balance");
    case PlanColumn:
        return tr("Plan");
    case GrantedColumn:
        return tr("Granted");
    case RemainingColumn:
        return tr("Remaining");
    case UsageColumn:
        return tr("Usage");
    case ResetColumn:
        return tr("Next reset");
    default:
        return {};
    }
}

QVariant CustomerBalancesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (role == Qt::TextAlignmentRole)
        return index.column() >= GrantedColumn && index.column() <= UsageColumn
                   ? QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant();
    if (role != Qt::DisplayRole)
        return {};
    if (index.internalId() == FeatureRow) {
        const api::BalanceSummary &summary = m_summaries.at(index.row());
        switch (index.column()) {
        case FeatureColumn:
            return summary.featureId;
        case GrantedColumn:
            return summary.unlimited ? tr("Unlimited") : formatAmount(summary.granted);
        case RemainingColumn:
            return summary.unlimited ? tr("Unlimited") : formatAmount(summary.remaining);
        case UsageColumn:
            return formatAmount(summary.usage);
        case ResetColumn:
            return summary.nextResetAt ? formatDate(*summary.nextResetAt) : QString();
        default:
            return {};
        }
    }
    const api::BalanceBreakdownRow &row =
        m_summaries.at(int(index.internalId() - 1)).breakdown.at(index.row());
    switch (index.column()) {
    case FeatureColumn:
        return row.id;
    case PlanColumn:
        return row.planId.value_or(tr("—"));
    case GrantedColumn: {
        const auto granted = row.includedGrant.plus(row.prepaidGrant);
        return granted ? formatAmount(*granted) : QString();
    }
    case RemainingColumn:
        return formatAmount(row.remaining);
    case UsageColumn:
        return formatAmount(row.usage);
    case ResetColumn:
        return row.reset && row.reset->resetsAt ? formatDate(*row.reset->resetsAt) : QString();
    default:
        return {};
    }
}

} // namespace md::models
