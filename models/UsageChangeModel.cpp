#include "models/UsageChangeModel.h"

#include "models/AmountFormat.h"

#include <QLocale>

namespace md::models {

UsageChangeModel::UsageChangeModel(const UsageBackfill *backfill, QObject *parent)
    : QAbstractTableModel(parent)
    , m_backfill(backfill)
{}

void UsageChangeModel::reload()
{
    beginResetModel();
    m_rows = m_backfill->changes();
    endResetModel();
}

int UsageChangeModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int UsageChangeModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant UsageChangeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const UsageBackfill::Change &change = m_rows.at(index.row());
    const bool amount = index.column() >= BeforeColumn;
    if (role == Qt::TextAlignmentRole)
        return amount ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    if (role == Qt::ToolTipRole && index.column() == AfterColumn && change.estimated)
        return tr("An estimate: this balance has more events than one dry run plans together");
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case CustomerColumn:
        return change.customerId;
    case EntityColumn:
        return change.entityId.value_or(QString());
    case FeatureColumn:
        return change.featureId;
    case BeforeColumn:
        return formatAmount(change.before, QLocale());
    case AfterColumn:
        return QString((change.estimated ? u"≈ "_qs : QString()) +
                       formatAmount(change.after, QLocale()));
    case UsedColumn:
        return formatAmount(change.used, QLocale());
    case EventsColumn:
        return QLocale().toString(change.events);
    default:
        return {};
    }
}

QVariant UsageChangeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case CustomerColumn:
        return tr("Customer");
    case EntityColumn:
        return tr("Entity");
    case FeatureColumn:
        return tr("Feature");
    case BeforeColumn:
        return tr("Remaining before");
    case AfterColumn:
        return tr("Remaining after");
    case UsedColumn:
        return tr("Used");
    case EventsColumn:
        return tr("Events");
    default:
        return {};
    }
}

} // namespace md::models
