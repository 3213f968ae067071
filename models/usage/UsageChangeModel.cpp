#include "models/usage/UsageChangeModel.h"

#include "models/common/AmountFormat.h"

#include <QLocale>

namespace md::models {

UsageChangeModel::UsageChangeModel(const UsageBackfill *backfill, QObject *parent)
    : BackfillTable(
          ColumnCount, [backfill] { return backfill->changes(); }, parent)
{}

QVariant UsageChangeModel::data(const QModelIndex &index, int role) const
{
    const UsageBackfill::Change *found = rowOf(index);
    if (!found)
        return {};
    const UsageBackfill::Change &change = *found;
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
    case UsedColumn:
        return formatAmount(change.used, QLocale());
    case AfterColumn:
        return QString((change.estimated ? u"≈ "_qs : QString()) +
                       formatAmount(change.after, QLocale()));
    case RolloversColumn:
        return formatAmount(change.fromRollovers, QLocale());
    case EventsColumn:
        return QLocale().toString(change.events);
    default:
        return {};
    }
}

QVariant UsageChangeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == RolloversColumn)
        return tr("Usage drawn from what rolled over from earlier periods, before the remaining "
                  "balance, which leaves rollovers out");
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
    case UsedColumn:
        return tr("Used");
    case AfterColumn:
        return tr("Remaining after");
    case RolloversColumn:
        return tr("From rollovers");
    case EventsColumn:
        return tr("Events");
    default:
        return {};
    }
}

UsageNoBalanceModel::UsageNoBalanceModel(const UsageBackfill *backfill, QObject *parent)
    : BackfillTable(
          ColumnCount, [backfill] { return backfill->noBalance(); }, parent)
{}

QVariant UsageNoBalanceModel::data(const QModelIndex &index, int role) const
{
    const UsageBackfill::NoBalance *found = rowOf(index);
    if (!found)
        return {};
    const UsageBackfill::NoBalance &noted = *found;
    if (role == Qt::TextAlignmentRole)
        return index.column() >= EventsColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                              : QVariant();
    if (role == Qt::ToolTipRole)
        return noted.entityId ? tr("Recorded, drawing on no balance: this entity holds none of "
                                   "this feature")
                              : tr("Recorded, drawing on no balance: the customer holds none of "
                                   "this feature (an entity's balance is drawn on only by events "
                                   "that name the entity)");
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case CustomerColumn:
        return noted.customerId;
    case EntityColumn:
        return noted.entityId.value_or(QString());
    case FeatureColumn:
        return noted.featureId;
    case EventsColumn:
        return QLocale().toString(noted.events);
    case ValueColumn:
        return formatAmount(noted.value, QLocale());
    default:
        return {};
    }
}

QVariant UsageNoBalanceModel::headerData(int section, Qt::Orientation orientation, int role) const
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
    case EventsColumn:
        return tr("Events");
    case ValueColumn:
        return tr("Recorded");
    default:
        return {};
    }
}

} // namespace md::models
