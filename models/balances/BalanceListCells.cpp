// BalanceListModel's cells and column titles, apart from its paging: the
// table and the PDF report (BalanceReport) show a balance the same way.
#include "models/balances/BalanceListModel.h"

#include "models/common/AmountFormat.h"
#include "services/api/WireCodec.h"

#include <QColor>

namespace md::models {

QString BalanceListModel::intervalName(api::ResetInterval interval)
{
    switch (interval) {
    case api::ResetInterval::OneOff:
        return tr("once");
    case api::ResetInterval::Minute:
        return tr("every minute");
    case api::ResetInterval::Hour:
        return tr("hourly");
    case api::ResetInterval::Day:
        return tr("daily");
    case api::ResetInterval::Week:
        return tr("weekly");
    case api::ResetInterval::Month:
        return tr("monthly");
    case api::ResetInterval::Quarter:
        return tr("quarterly");
    case api::ResetInterval::SemiAnnual:
        return tr("half-yearly");
    case api::ResetInterval::Year:
        return tr("yearly");
    case api::ResetInterval::Multiple:
        return tr("several intervals");
    }
    return {};
}

QString BalanceListModel::rawText(const api::BalanceRow &row)
{
    return QString::fromUtf8(api::toJsonText(row, api::JsonWriter::Style::Indented));
}

QString BalanceListModel::columnTitle(int column)
{
    switch (column) {
    case CustomerColumn:
        return tr("Customer");
    case FeatureColumn:
        return tr("Feature");
    case PlanColumn:
        return tr("Plan");
    case EntityColumn:
        return tr("Entity");
    case IncludedColumn:
        return tr("Included");
    case PrepaidColumn:
        return tr("Prepaid");
    case RemainingColumn:
        return tr("Remaining");
    case UsageColumn:
        return tr("Usage");
    case UnlimitedColumn:
        return tr("Unlimited");
    case IntervalColumn:
        return tr("Resets");
    case RolloversColumn:
        return tr("Rollovers");
    case StatusColumn:
        return tr("Status");
    case ResetColumn:
        return tr("Next reset");
    case ExpiresColumn:
        return tr("Expires");
    case CreatedColumn:
        return tr("Created");
    default:
        return {};
    }
}

QVariant BalanceListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return PagedTableModel::headerData(section, orientation, role);
    return columnTitle(section);
}

QVariant BalanceListModel::cell(const api::BalanceRow &row, int column, int role, int decimals)
{
    const bool expired = row.status == api::BalanceStatus::Expired;
    const auto amount = [&](const api::Decimal &value) -> QVariant {
        if (role == RawValueRole)
            return value.toString();
        if (row.unlimited && (column == RemainingColumn || column == IncludedColumn))
            return tr("Unlimited");
        return formatAmount(value, QLocale(), decimals);
    };
    const auto time = [&](std::optional<qint64> ms) -> QVariant {
        if (!ms)
            return role == RawValueRole ? QVariant() : QVariant(QString());
        if (role == RawValueRole)
            return *ms;
        return role == Qt::ToolTipRole ? formatTimestamp(*ms) : formatDate(*ms);
    };

    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
    case RawValueRole:
        switch (column) {
        case CustomerColumn:
            return row.customerId;
        case FeatureColumn:
            return row.featureId;
        case PlanColumn:
            return row.planId.value_or(role == RawValueRole ? QString() : tr("—"));
        case EntityColumn:
            return row.entityId.value_or(QString());
        case IncludedColumn:
            return amount(row.includedGrant);
        case PrepaidColumn:
            return amount(row.prepaidGrant);
        case RemainingColumn:
            if (role == Qt::ToolTipRole && !row.rollovers.isEmpty())
                return tr("%n rollover(s) carried onto this balance", nullptr,
                          int(row.rollovers.size()));
            return amount(row.remaining);
        case UsageColumn:
            return amount(row.usage);
        case UnlimitedColumn:
            if (role == RawValueRole)
                return row.unlimited;
            return row.unlimited ? tr("Unlimited") : QString();
        case IntervalColumn:
            if (!row.reset)
                return QString();
            return role == RawValueRole ? QString(api::toWire(row.reset->interval))
                                        : intervalName(row.reset->interval);
        case RolloversColumn:
            if (role == RawValueRole)
                return int(row.rollovers.size());
            return row.rollovers.isEmpty() ? QString() : QString::number(row.rollovers.size());
        case StatusColumn:
            if (role == RawValueRole)
                return QString(api::toWire(row.status));
            return expired ? tr("expired") : tr("active");
        case ResetColumn:
            return time(row.reset ? row.reset->resetsAt : std::nullopt);
        case ExpiresColumn:
            return time(row.expiresAt);
        case CreatedColumn:
            return time(row.createdAt);
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        if ((column >= IncludedColumn && column <= UsageColumn) || column == RolloversColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        // Mid grey reads as "inactive" on light and dark palettes alike.
        return expired ? QVariant(QColor(Qt::gray)) : QVariant();
    default:
        return {};
    }
}

} // namespace md::models
