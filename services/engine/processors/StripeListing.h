// processors.subscriptions (docs/processors.md, "Import from Stripe"): one
// page of the account's subscriptions, every status (`status=all`), at most
// 100, after a given one; the first page also lists the account's products
// by name, so the console can offer a plan for each price.
#pragma once

#include "services/api/StripeSubscriptions.h"
#include "services/engine/processors/StripeClient.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

class StripeListing final
{
public:
    static api::Result<api::StripeSubscriptionsPage>
    page(const QSqlDatabase &db, const Scope &scope, const api::StripeSubscriptionsRequest &request,
         const StripeClient::Options &options);
};

} // namespace md::engine
