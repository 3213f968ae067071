#include "models/usage/FailedEventModel.h"

#include "models/common/AmountFormat.h"

namespace md::models {

FailedEventModel::FailedEventModel(backend::BillingBackend *backend, QObject *parent)
    : PagedTableModel(parent)
    , m_backend(backend)
{}

int FailedEventModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

void FailedEventModel::sendRequest(const QString &cursor, quint64 generation)
{
    api::PageRequest request;
    request.limit = 200;
    request.startCursor = cursor;
    m_backend->listFailedEvents(request).then(
        this, [this, generation](const api::Result<api::Page<api::FailedEvent>> &page) {
            if (!page) {
                pageFailed(generation, page.error());
                return;
            }
            pageArrived(generation, page.value().list.size(), page.value().hasMore,
                        page.value().nextCursor, [&] { m_rows.append(page.value().list); });
        });
}

QVariant FailedEventModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return PagedTableModel::headerData(section, orientation, role);
    switch (section) {
    case FailedColumn:
        return tr("Failed");
    case CustomerColumn:
        return tr("Customer");
    case ModelColumn:
        return tr("Model");
    case ReasonColumn:
        return tr("Reason");
    default:
        return {};
    }
}

QVariant FailedEventModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const api::FailedEvent &event = m_rows.at(index.row());
    if (role == Qt::ToolTipRole)
        return tr("%1 (%2 %3), received %4")
            .arg(event.error.message, QString::number(event.error.status), event.error.code,
                 formatTimestamp(event.receivedAt));
    if (role != Qt::DisplayRole && role != RawValueRole)
        return {};
    switch (index.column()) {
    case FailedColumn:
        return role == RawValueRole ? QVariant(event.failedAt)
                                    : QVariant(formatShortTimestamp(event.failedAt));
    case CustomerColumn:
        return event.customerId;
    case ModelColumn:
        return event.modelId;
    case ReasonColumn:
        return role == RawValueRole ? QVariant(event.error.code) : QVariant(event.error.message);
    default:
        return {};
    }
}

backend::Reply<api::FailedEventOutcome> FailedEventModel::retry(const QStringList &ids)
{
    return m_backend->retryFailedEvents({ids});
}

backend::Reply<api::FailedEventOutcome> FailedEventModel::discard(const QStringList &ids)
{
    return m_backend->discardFailedEvents({ids});
}

} // namespace md::models
