// Platform link in the engine (billing-api.md §4.7, decisions.md 4.7): a
// master organization links one of its own tenants to Stripe accounts. Each
// account given needs the master's secret key of that environment connected
// and must be in the master account's directory (kept in the workspace,
// since no processor can be reached from here). Every refusal is 404
// `not_found` with a sentence saying what to fix; other platforms' tenants
// are never touched.
#pragma once

#include "services/api/LinkOrganization.h"
#include "services/engine/Database.h"

namespace md::engine {

class PlatformLinker final
{
public:
    static api::Result<api::LinkOrganizationResponse>
    link(const QSqlDatabase &db, Dialect dialect, qint64 masterPk,
         const api::LinkOrganizationRequest &request, qint64 nowMs);
};

} // namespace md::engine
