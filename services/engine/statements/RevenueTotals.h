// revenue.summary (docs/api.md; docs/billing.md, "Revenue"): what the
// closed statements came to, over the UTC months that begin in [from, to),
// by month, product, feature or customer, each split by kind. By month,
// product and feature it reads the kept revenue_months (a few rows a
// month); by customer it adds up the months' statements. With include_open
// the caller passes what the open periods owe so far (OpenRevenue), and
// those that began in those months are added.
#pragma once

#include "services/api/Statements.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

struct OpenFigures;

class RevenueTotals final
{
public:
    // At most 20 years of months a summary.
    static constexpr qint64 MaxMonths = 240;

    static api::Result<api::RevenueSummary> summary(const QSqlDatabase &db, Dialect dialect,
                                                    const Scope &scope,
                                                    const api::RevenueSummaryRequest &request,
                                                    qint64 nowMs, const OpenFigures *open);
};

} // namespace md::engine
