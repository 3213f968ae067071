#include "models/customers/UsageAlertModel.h"

#include "models/common/AmountFormat.h"

namespace md::models {

UsageAlertModel::UsageAlertModel(backend::BillingBackend *backend, QObject *parent)
    : PagedTableModel(parent)
    , m_backend(backend)
{}

void UsageAlertModel::setCustomer(const QString &customerId)
{
    m_customer = customerId;
    restart();
}

int UsageAlertModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString UsageAlertModel::describe(api::ThresholdType type, api::Decimal threshold)
{
    switch (type) {
    case api::ThresholdType::Usage:
        return tr("usage reaches %1").arg(formatAmount(threshold));
    case api::ThresholdType::UsagePercentage:
        return tr("usage reaches %1 %").arg(formatAmount(threshold));
    case api::ThresholdType::Remaining:
        return tr("%1 or less remaining").arg(formatAmount(threshold));
    case api::ThresholdType::RemainingPercentage:
        return tr("%1 % or less remaining").arg(formatAmount(threshold));
    }
    return {};
}

void UsageAlertModel::sendRequest(const QString &cursor, quint64 generation)
{
    api::PageRequest request;
    request.limit = 200;
    request.startCursor = cursor;
    if (!m_customer.isEmpty())
        request.customerId = m_customer;
    m_backend->listUsageAlerts(request).then(
        this, [this, generation](const api::Result<api::Page<api::UsageAlertEvent>> &page) {
            if (!page) {
                pageFailed(generation, page.error());
                return;
            }
            pageArrived(generation, page.value().list.size(), page.value().hasMore,
                        page.value().nextCursor, [&] { m_rows.append(page.value().list); });
        });
}

QVariant UsageAlertModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return PagedTableModel::headerData(section, orientation, role);
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case FeatureColumn:
        return tr("Feature");
    case AlertColumn:
        return tr("Alert");
    case ValueColumn:
        return tr("Value");
    default:
        return {};
    }
}

QVariant UsageAlertModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const api::UsageAlertEvent &alert = m_rows.at(index.row());
    if (role == Qt::TextAlignmentRole)
        return index.column() == ValueColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                             : QVariant();
    if (role != Qt::DisplayRole && role != RawValueRole)
        return {};
    switch (index.column()) {
    case TimeColumn:
        return role == RawValueRole ? QVariant(alert.triggeredAt)
                                    : QVariant(formatShortTimestamp(alert.triggeredAt));
    case FeatureColumn:
        return alert.featureId;
    case AlertColumn: {
        const QString what = describe(alert.thresholdType, alert.threshold);
        return alert.name ? tr("%1: %2").arg(*alert.name, what) : what;
    }
    case ValueColumn:
        return role == RawValueRole ? QVariant(alert.value.toString())
                                    : QVariant(formatAmount(alert.value));
    default:
        return {};
    }
}

} // namespace md::models
