#include "models/customers/CustomerListModel.h"

#include "models/common/AmountFormat.h"

namespace md::models {

CustomerListModel::CustomerListModel(backend::BillingBackend *backend, QObject *parent)
    : PagedTableModel(parent)
    , m_backend(backend)
{}

void CustomerListModel::setSearch(const QString &search)
{
    m_search = search;
    restart();
}

int CustomerListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

void CustomerListModel::sendRequest(const QString &cursor, quint64 generation)
{
    api::PageRequest request;
    request.limit = 100;
    request.startCursor = cursor;
    if (!m_search.trimmed().isEmpty())
        request.search = m_search.trimmed();
    m_backend->listCustomers(request).then(
        this, [this, generation](const api::Result<api::Page<api::CustomerSummary>> &page) {
            if (!page) {
                pageFailed(generation, page.error());
                return;
            }
            pageArrived(generation, page.value().list.size(), page.value().hasMore,
                        page.value().nextCursor, [&] { m_rows.append(page.value().list); });
        });
}

QVariant CustomerListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return PagedTableModel::headerData(section, orientation, role);
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

backend::Reply<api::Customer> CustomerListModel::details(const QString &customerId)
{
    return m_backend->customer(customerId);
}

backend::Reply<api::BillingPortalResponse> CustomerListModel::portalLink(const QString &customerId)
{
    return m_backend->billingPortal(customerId, {});
}

ExportColumns CustomerListModel::columns()
{
    return {{QStringLiteral("id"), tr("Customer")},
            {QStringLiteral("name"), tr("Name")},
            {QStringLiteral("email"), tr("Email")},
            {QStringLiteral("created_at"), tr("Created")}};
}

ExportRow CustomerListModel::cells(const api::CustomerSummary &customer)
{
    return {customer.id, customer.name, customer.email, ExportTime{customer.createdAt}};
}

} // namespace md::models
