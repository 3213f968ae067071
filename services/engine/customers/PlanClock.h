// The billing clock for subscriptions (docs/api.md, "The billing clock"):
// a plan whose end came becomes `expired`, its balances giving up what they
// hold with an `expiry` entry each, once; an active subscription whose
// period ended moves to the period that holds now. In the caller's write
// transaction, at most ClockApplier::MaxRows plans a call; on PostgreSQL
// their customers are locked first and the plans read again, so two servers
// never apply one twice. Run it after ClockApplier has brought the plans'
// balances up to date: what they hold at the end is what the expiry takes.
#pragma once

#include "services/api/Result.h"
#include "services/engine/clock/ClockApplier.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

#include <optional>

namespace md::engine {

class PlanClock final
{
public:
    struct Tally
    {
        qint64 expiries = 0; // plans expired
        qint64 periods = 0;  // subscriptions moved to a new period
    };
    // The plans of `due`'s customers; the scope's key is the ledger's source.
    static api::Result<Tally> apply(const QSqlDatabase &db, Dialect dialect,
                                    const ClockApplier::Due &due, qint64 nowMs,
                                    const QString &route);
    // Whether a plan of `due` has ended or finished a period by `nowMs`.
    static api::Result<bool> anyDue(const QSqlDatabase &db, Dialect dialect,
                                    const ClockApplier::Due &due, qint64 nowMs);
    // What applying up to `untilMs` would do, written nowhere.
    static api::Result<Tally> preview(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
                                      qint64 untilMs);
};

} // namespace md::engine
