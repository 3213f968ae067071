// billing.import in the engine (docs/api.md, billing.import): one
// customer and their processor identities and plans, in one write
// transaction. Each billable is set against the customer's plans from that
// processor by PlanAttacher (the newest version unless one is named), so an
// import can run again and changes nothing. A dry run computes the same
// outcomes in the same transaction and rolls it back: nothing is written,
// not even the customer. Nothing is sent to any payment processor; what was
// read from it beforehand comes as `terms`, one per billable (or none).
#pragma once

#include "services/api/ImportCustomer.h"
#include "services/engine/customers/ImportTerms.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

class CustomerImporter final
{
public:
    static api::Result<api::ImportCustomerResponse>
    import(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
           const api::ImportCustomerRequest &request, qint64 nowMs,
           const QList<ImportTerms> &terms = {});
};

} // namespace md::engine
