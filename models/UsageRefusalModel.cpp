#include "models/UsageRefusalModel.h"

namespace md::models {

UsageRefusalModel::UsageRefusalModel(const UsageBackfill *backfill, QObject *parent)
    : QAbstractTableModel(parent)
    , m_backfill(backfill)
{}

void UsageRefusalModel::reload()
{
    beginResetModel();
    m_rows = m_backfill->refusals();
    endResetModel();
}

int UsageRefusalModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int UsageRefusalModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant UsageRefusalModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const UsageBackfill::Refusal &refusal = m_rows.at(index.row());
    if (role == Qt::ToolTipRole && index.column() == ReasonColumn)
        return refusal.code;
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case LineColumn:
        return refusal.line;
    case CustomerColumn:
        return refusal.customerId;
    case FeatureColumn:
        return refusal.featureId;
    case StatusColumn:
        return refusal.status;
    case ReasonColumn:
        return refusal.message;
    default:
        return {};
    }
}

QVariant UsageRefusalModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case LineColumn:
        return tr("Line");
    case CustomerColumn:
        return tr("Customer");
    case FeatureColumn:
        return tr("Feature or model");
    case StatusColumn:
        return tr("Status");
    case ReasonColumn:
        return tr("Reason");
    default:
        return {};
    }
}

} // namespace md::models
