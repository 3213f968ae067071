// How an organization reads its own Stripe (docs/processors.md, "Whose
// key"): with its own secret key for the environment; a platform's tenant,
// with the platform's key as its linked account (Stripe-Account), as the
// spec's platform link says.
#pragma once

#include "services/engine/processors/StripeClient.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

struct StripeAccess
{
    QString secret;
    std::optional<QString> account; // a tenant's linked account

    // 404 naming what to connect or link when there is neither.
    static api::Result<StripeAccess> of(const QSqlDatabase &db, const Scope &scope);
    StripeClient client(const StripeClient::Options &options) const
    {
        return StripeClient(secret, options);
    }
};

} // namespace md::engine
