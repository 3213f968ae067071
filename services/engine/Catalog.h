// The engine's read operations beyond balances.list: the lists and details
// the console browses (Meterdesk extensions, not spec endpoints).
#pragma once

#include "services/api/Customer.h"
#include "services/api/Extensions.h"
#include "services/api/Result.h"
#include "services/engine/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

class Catalog final
{
public:
    // Customers in creation order; `search` matches part of the id, name or email.
    static api::Result<api::Page<api::CustomerSummary>>
    customers(const QSqlDatabase &db, const Scope &scope, const api::PageRequest &request);
    // The customer object of docs/api.md, The customer object (active balances summed per feature).
    static api::Result<api::Customer> customer(const QSqlDatabase &db, const Scope &scope,
                                               const QString &id, qint64 nowMs);
    static api::Result<api::Page<api::FeatureInfo>> features(const QSqlDatabase &db,
                                                             const Scope &scope);
    static api::Result<api::Page<api::Product>> products(const QSqlDatabase &db,
                                                         const Scope &scope);
    static api::Result<api::Page<api::RewardEntry>> rewards(const QSqlDatabase &db,
                                                            const Scope &scope);
    // The key's own organization and the tenants it created.
    static api::Result<api::Page<api::OrganizationInfo>> organizations(const QSqlDatabase &db,
                                                                       qint64 orgPk);
    // Newest first, optionally of one customer.
    static api::Result<api::Page<api::UsageEvent>>
    usageEvents(const QSqlDatabase &db, const Scope &scope, const api::PageRequest &request);
};

} // namespace md::engine
