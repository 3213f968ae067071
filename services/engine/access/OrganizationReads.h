// The organizations a key may see: its own and the tenants it created.
#pragma once

#include "services/api/Organization.h"
#include "services/api/Page.h"
#include "services/api/Result.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

class OrganizationReads final
{
public:
    // The key's own organization and the tenants it created.
    static api::Result<api::Page<api::OrganizationInfo>> organizations(const QSqlDatabase &db,
                                                                       qint64 orgPk);
};

} // namespace md::engine
