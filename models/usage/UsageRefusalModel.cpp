#include "models/usage/UsageRefusalModel.h"

namespace md::models {

UsageRefusalModel::UsageRefusalModel(const UsageBackfill *backfill, QObject *parent)
    : BackfillTable(
          ColumnCount, [backfill] { return backfill->refusals(); }, parent)
{}

QVariant UsageRefusalModel::data(const QModelIndex &index, int role) const
{
    const UsageBackfill::Refusal *found = rowOf(index);
    if (!found)
        return {};
    const UsageBackfill::Refusal &refusal = *found;
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
