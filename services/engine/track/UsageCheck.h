// balances.check (docs/api.md, "balances.check"): may a customer use a
// feature now. Reads only. A boolean or static feature is allowed when the
// customer (or the entity) holds it; a metered one when a call of
// required_balance would be deducted whole: capped by what the rows hold
// and the usage limits allow, or, where overage is allowed, overflowing
// within the spend limits. The same planning as a call (CallPlan), so a
// check and the track after it agree.
#pragma once

#include "services/api/TrackUsage.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

class UsageCheck final
{
public:
    static api::Result<api::CheckResponse> check(const QSqlDatabase &db, Dialect dialect,
                                                 const Scope &scope,
                                                 const api::CheckRequest &request, qint64 nowMs);
};

} // namespace md::engine
