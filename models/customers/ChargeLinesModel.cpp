#include "models/customers/ChargeLinesModel.h"

#include "models/common/AmountFormat.h"

namespace md::models {

ChargeLinesModel::ChargeLinesModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

void ChargeLinesModel::setLines(const QList<api::ChargeLine> &lines)
{
    beginResetModel();
    m_lines = lines;
    endResetModel();
}

QString ChargeLinesModel::words(const api::ChargeLine &line)
{
    const QString plan = line.planId.value_or(QString());
    if (line.kind == api::ChargeKind::Fixed)
        return tr("Plan %1, quantity %2").arg(plan, formatAmount(line.quantity, QLocale(), 0));
    const QString feature = line.featureId.value_or(QString());
    const QString what = line.entityId ? tr("%1 of %2").arg(feature, *line.entityId) : feature;
    const QString billed = formatAmount(line.billableUnits.value_or(line.quantity), QLocale(), 0);
    if (line.kind == api::ChargeKind::Prepaid)
        return tr("%1: %2 bought, billed as %3")
            .arg(what, formatAmount(line.quantity, QLocale(), 0), billed);
    if (line.kind == api::ChargeKind::Credits)
        return tr("%1: %2 in credits bought, billed as %3")
            .arg(what, formatAmount(line.quantity, QLocale(), 0), billed);
    if (line.quantity.isZero())
        return tr("%1: within the grant").arg(what);
    return tr("%1: %2 past the grant, billed as %3")
        .arg(what, formatAmount(line.quantity, QLocale(), 0), billed);
}

QString ChargeLinesModel::title(int column)
{
    switch (column) {
    case WhatColumn:
        return tr("Charge");
    case QuantityColumn:
        return tr("Quantity");
    case BilledColumn:
        return tr("Billed units");
    case AmountColumn:
        return tr("Amount");
    default:
        return {};
    }
}

int ChargeLinesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_lines.size());
}

int ChargeLinesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ChargeLinesModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_lines.size())
        return {};
    const api::ChargeLine &line = m_lines.at(index.row());
    if (role == Qt::TextAlignmentRole && index.column() != WhatColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole)
        return line.description; // the engine's own words, with usage and grant
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case WhatColumn:
        return words(line);
    case QuantityColumn:
        return formatAmount(line.quantity, QLocale(), 0);
    case BilledColumn:
        return line.billableUnits ? formatAmount(*line.billableUnits, QLocale(), 0) : QString();
    case AmountColumn:
        return formatAmount(line.amount);
    default:
        return {};
    }
}

QVariant ChargeLinesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return title(section);
}

} // namespace md::models
