// The billing clock's webhook events (docs/api.md, "Webhooks"):
// balances.reset and balances.expired, one per balance and moment, from
// the ledger entries the clock writes, in the same transaction. Nothing is
// read unless an endpoint of the balance's environment wants them.
#pragma once

#include "services/api/Result.h"
#include "services/engine/ledger/BalanceLedger.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/KeyAllocator.h"
#include "services/engine/sql/Sql.h"

#include <QSqlDatabase>

namespace md::engine {

class ClockEvents final
{
public:
    // `keys`: the caller's allocator, when it has one.
    static api::Result<api::Done> tell(const QSqlDatabase &db, Dialect dialect,
                                       const QList<BalanceLedger::Entry> &entries, qint64 nowMs,
                                       KeyAllocator *keys = nullptr);
};

} // namespace md::engine
