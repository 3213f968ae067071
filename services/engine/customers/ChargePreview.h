// charges.preview (docs/api.md, "charges.preview"; docs/billing.md): what a
// customer owes for its open billing period so far: each plan's fixed
// prices and each usage-based row's usage past its grant, priced by
// charges/ and added up exactly.
#pragma once

#include "services/api/ChargesPreview.h"
#include "services/api/Result.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

class ChargePreview final
{
public:
    // 404 customer_not_found for an unknown customer.
    static api::Result<api::ChargesPreview> preview(const QSqlDatabase &db, Dialect dialect,
                                                    const Scope &scope, const QString &customerId,
                                                    qint64 nowMs);
};

} // namespace md::engine
