// The Tenants page's table: the connected organization and the tenant
// organizations it created, with their linked test and live Stripe accounts.
#pragma once

#include "models/common/ListTableModel.h"
#include "services/api/LinkOrganization.h"
#include "services/api/Organization.h"
#include "services/api/Result.h"

#include <QFuture>

namespace md::backend {
class BillingBackend;
}

namespace md::models {

class TenantListModel final : public ListTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TenantListModel)

public:
    enum Column {
        SlugColumn,
        NameColumn,
        RoleColumn,
        TestColumn,
        LiveColumn,
        IdColumn,
        ColumnCount
    };

    explicit TenantListModel(backend::BillingBackend *backend, QObject *parent = nullptr);

    void reload();
    // Links a tenant to processor accounts (docs/api.md, "platform link").
    QFuture<api::Result<api::LinkOrganizationResponse>>
    link(const api::LinkOrganizationRequest &request);
    const api::OrganizationInfo &organization(int row) const { return m_rows.at(row); }
    // Slugs of the tenants (organizations with a master).
    QStringList tenantSlugs() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    backend::BillingBackend *m_backend;
    QList<api::OrganizationInfo> m_rows;
};

} // namespace md::models
