#include "models/admin/TenantListModel.h"

#include "services/backend/BillingBackend.h"

namespace md::models {

TenantListModel::TenantListModel(backend::BillingBackend *backend, QObject *parent)
    : ListTableModel(ColumnCount, parent)
    , m_backend(backend)
{}

void TenantListModel::reload()
{
    load(m_backend->listOrganizations(), [this](const api::Page<api::OrganizationInfo> &orgs) {
        replaceRows([&] { m_rows = orgs.list; });
    });
}

QStringList TenantListModel::tenantSlugs() const
{
    QStringList slugs;
    for (const api::OrganizationInfo &org : m_rows)
        if (org.masterOrgId)
            slugs.append(org.slug);
    return slugs;
}

int TenantListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant TenantListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || role != Qt::DisplayRole)
        return {};
    const api::OrganizationInfo &org = m_rows.at(index.row());
    switch (index.column()) {
    case SlugColumn:
        return org.slug;
    case NameColumn:
        return org.name;
    case RoleColumn:
        return org.masterOrgId ? tr("tenant") : tr("platform (this key)");
    case TestColumn:
        return org.testAccountId.value_or(tr("not linked"));
    case LiveColumn:
        return org.liveAccountId.value_or(tr("not linked"));
    case IdColumn:
        return org.id;
    }
    return {};
}

QVariant TenantListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case SlugColumn:
        return tr("Slug");
    case NameColumn:
        return tr("Name");
    case RoleColumn:
        return tr("Role");
    case TestColumn:
        return tr("Test account");
    case LiveColumn:
        return tr("Live account");
    case IdColumn:
        return tr("Id");
    }
    return {};
}

QFuture<api::Result<api::LinkOrganizationResponse>>
TenantListModel::link(const api::LinkOrganizationRequest &request)
{
    return m_backend->linkOrganization(request);
}

} // namespace md::models
