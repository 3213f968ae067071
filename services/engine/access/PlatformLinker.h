// Platform link in the engine (docs/api.md, platform link): a master
// organization links one of its own tenants to Stripe accounts. Each account
// given needs the master's Stripe secret key of that environment connected
// (ProcessorKeys), and Stripe must say the master's account can reach it
// (GET /v1/accounts/{id}, before the write: no transaction waits on Stripe).
// A live account needs a live key (403 `live_key_required`) and an account
// belongs to one tenant (409 `account_already_linked`); every other refusal
// is 404 `not_found`, each with a sentence saying what to fix (Stripe's own
// words when it refused). Other platforms' tenants are never touched.
#pragma once

#include "services/api/LinkOrganization.h"
#include "services/engine/processors/StripeClient.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

class PlatformLinker final
{
public:
    // The checks that need no write: the key rule, the tenant, the master's
    // key and Stripe's answer for each account.
    static api::Result<api::Done> reachable(const QSqlDatabase &db, const Scope &platform,
                                            const api::LinkOrganizationRequest &request,
                                            const StripeClient::Options &stripe);
    // In the caller's transaction, once reachable() said yes.
    static api::Result<api::LinkOrganizationResponse>
    link(const QSqlDatabase &db, Dialect dialect, const Scope &platform,
         const api::LinkOrganizationRequest &request, qint64 nowMs);
};

} // namespace md::engine
