// environments.diff and environments.promote in the engine (docs/promotion.md).
// The diff reads both environments of one organization; a promotion applies
// its steps in one write transaction, products first (coupons may name
// them), each through the update paths the API uses (ProductUpdater, so the
// version rules hold; RewardUpdater), after checking that production is
// still what the diff showed (409 production_changed otherwise). Each step
// is recorded in the audit log, so a step that would change nothing is
// refused (400) before anything is written.
#pragma once

#include "services/api/AuditLog.h"
#include "services/api/Promotion.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

class EnvironmentPromoter final
{
public:
    static api::Result<api::EnvironmentDiff> diff(const QSqlDatabase &db, qint64 orgPk);
    // `caller` is whose environment asked: its audit log records the steps
    // too when it is not production.
    static api::Result<api::EnvironmentPromoted>
    promote(const QSqlDatabase &db, Dialect dialect, const Scope &caller,
            const api::AuditActor &actor, const api::EnvironmentPromotion &request, qint64 nowMs);
};

} // namespace md::engine
