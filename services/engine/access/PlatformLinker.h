// Platform link in the engine (docs/api.md, platform link): a
// master organization links one of its own tenants to Stripe accounts. Each
// account given needs the master's secret key of that environment connected
// and must be in the master account's directory (kept in the workspace,
// since no processor can be reached from here). A live account needs a live
// key (403 `live_key_required`) and an account belongs to one tenant (409
// `account_already_linked`); every other refusal is 404 `not_found`, each
// with a sentence saying what to fix. Other platforms' tenants are never
// touched.
#pragma once

#include "services/api/LinkOrganization.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

class PlatformLinker final
{
public:
    static api::Result<api::LinkOrganizationResponse>
    link(const QSqlDatabase &db, Dialect dialect, const Scope &platform,
         const api::LinkOrganizationRequest &request, qint64 nowMs);
};

} // namespace md::engine
