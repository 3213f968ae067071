// usage_events.totals (docs/api.md, "usage_events.totals"): the recorded
// usage of a filter added up per UTC day and group, on one snapshot. Whole
// days grouped by feature or model come from the usage_days rollup (one row
// per day, feature, model and stripe, whatever the number of events); the
// range's partial first and last days, one customer's usage and a grouping
// by customer come from the events themselves, streamed and summed in exact
// decimals on SQLite, grouped in numeric by PostgreSQL.
#pragma once

#include "services/api/Result.h"
#include "services/api/UsageTotals.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"
#include "services/engine/sql/StopCheck.h"

#include <QSqlDatabase>

namespace md::engine {

class UsageTotaller final
{
public:
    static constexpr qint64 DayMs = 24 * 60 * 60 * 1000;

    static api::Result<api::UsageTotals> totals(const QSqlDatabase &db, Dialect dialect,
                                                const Scope &scope,
                                                const api::UsageTotalsRequest &request,
                                                qint64 nowMs, const StopCheck &stop = {});
    // The days [from, end) covers in part, end being `to` or now, whichever
    // is sooner: the first when `from` is not a midnight (UTC), the last
    // when the end is not.
    static QList<QDate> partialDays(std::optional<qint64> from, std::optional<qint64> to,
                                    qint64 nowMs);
};

} // namespace md::engine
