// The customers as the console and the API read them: the list (with its
// search), one customer, and usage events.
#pragma once

#include "services/api/Customer.h"
#include "services/api/CustomerSummary.h"
#include "services/api/Page.h"
#include "services/api/Result.h"
#include "services/api/UsageEvent.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

class CustomerReads final
{
public:
    // Customers in creation order; `search` matches part of the id, name or email.
    static api::Result<api::Page<api::CustomerSummary>>
    customers(const QSqlDatabase &db, const Scope &scope, const api::PageRequest &request);
    // The customer object of docs/api.md, The customer object (active balances summed per feature).
    static api::Result<api::Customer> customer(const QSqlDatabase &db, const Scope &scope,
                                               const QString &id, qint64 nowMs);
    // Newest first, optionally of one customer.
    static api::Result<api::Page<api::UsageEvent>>
    usageEvents(const QSqlDatabase &db, const Scope &scope, const api::PageRequest &request);
};

} // namespace md::engine
