// customers.update_billing_controls and customers.billing_controls: a
// customer's (or an entity's) billing controls, checked against the
// workspace (features exist) and stored in one write transaction.
#pragma once

#include "services/api/BillingControls.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

class BillingControlsUpdater final
{
public:
    // The stored controls (none: empty lists) with each usage limit's usage now.
    static api::Result<api::BillingControlsAnswer> read(const QSqlDatabase &db, const Scope &scope,
                                                        const QString &customerId,
                                                        const std::optional<QString> &entityId,
                                                        qint64 nowMs);
    // The lists the request carries replace the stored ones; the rest are kept.
    static api::Result<api::BillingControlsAnswer>
    update(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
           const api::UpdateBillingControlsRequest &request, qint64 nowMs);
};

} // namespace md::engine
