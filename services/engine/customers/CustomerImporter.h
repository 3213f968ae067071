// billing.import in the engine (docs/api.md, billing.import): one
// customer and their processor identities and plans, in one write
// transaction. Each billable attaches its plan (the newest version unless
// one is named) as a customer product with the plan's balances, reported
// usage applied to the matching grant; a plan already active from that
// processor is skipped ("already_active"), so an import can run again; plans
// the customer has from the payload's processors but which the payload does
// not name are expired. A dry run computes the same outcomes in the same
// transaction and rolls it back: nothing is written, not even the customer.
// Nothing is sent to any payment processor.
#pragma once

#include "services/api/ImportCustomer.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

class CustomerImporter final
{
public:
    static api::Result<api::ImportCustomerResponse>
    import(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
           const api::ImportCustomerRequest &request, qint64 nowMs);
};

} // namespace md::engine
