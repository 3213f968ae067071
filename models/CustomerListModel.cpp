#include "models/CustomerListModel.h"

#include "models/AmountFormat.h"

namespace md::models {

CustomerListModel::CustomerListModel(backend::BillingBackend *backend, QObject *parent)
    : QAbstractTableModel(parent)
    , m_backend(backend)
{}

void CustomerListModel::setSearch(const QString &search)
{
    ++m_generation;
    beginResetModel();
    m_search = search;
    m_rows.clear();
    m_cursor.clear();
    m_hasMore = true;
    m_error.reset();
    m_loading = false;
    endResetModel();
    fetchMore({});
}

int CustomerListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int CustomerListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

bool CustomerListModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && m_hasMore && !m_loading && !m_error;
}

void CustomerListModel::fetchMore(const QModelIndex &parent)
{
    if (!canFetchMore(parent))
        return;
    m_loading = true;
    Q_EMIT loadingChanged(true);
    // From the event loop: never inside a reset or insertion a view handles.
    QMetaObject::invokeMethod(
        this,
        [this, generation = m_generation] {
            if (generation == m_generation)
                sendRequest();
        },
        Qt::QueuedConnection);
}

void CustomerListModel::sendRequest()
{
    api::PageRequest request;
    request.limit = 100;
    request.startCursor = m_cursor;
    if (!m_search.trimmed().isEmpty())
        request.search = m_search.trimmed();
    const quint64 generation = m_generation;
    m_backend->listCustomers(request).then(
        this, [this, generation](const api::Result<api::Page<api::CustomerSummary>> &page) {
            if (generation != m_generation)
                return;
            if (!page) {
                m_loading = false;
                m_error = page.error();
                Q_EMIT loadingChanged(false);
                Q_EMIT failed(page.error());
                return;
            }
            m_hasMore = page.value().hasMore;
            m_cursor = page.value().nextCursor.value_or(QString());
            if (!page.value().list.isEmpty()) {
                beginInsertRows({}, int(m_rows.size()),
                                int(m_rows.size() + page.value().list.size() - 1));
                m_rows.append(page.value().list);
                endInsertRows();
            }
            m_loading = false;
            Q_EMIT loadingChanged(false);
        });
}

QVariant CustomerListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case IdColumn:
        return tr("Customer");
    case NameColumn:
        return tr("Name");
    case EmailColumn:
        return tr("Email");
    case CreatedColumn:
        return tr("Created");
    default:
        return {};
    }
}

QVariant CustomerListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const api::CustomerSummary &customer = m_rows.at(index.row());
    if (role != Qt::DisplayRole && role != RawValueRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case IdColumn:
        return customer.id;
    case NameColumn:
        return customer.name;
    case EmailColumn:
        return customer.email;
    case CreatedColumn:
        if (role == RawValueRole)
            return customer.createdAt;
        return role == Qt::ToolTipRole ? formatTimestamp(customer.createdAt)
                                       : formatDate(customer.createdAt);
    default:
        return {};
    }
}

} // namespace md::models
