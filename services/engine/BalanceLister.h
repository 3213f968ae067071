// balances.list over the store (billing-api.md §4.1): filters, status from the
// clock, keyset pages in (customer, newest balance first) order, rollovers nested.
#pragma once

#include "services/api/ListBalances.h"
#include "services/api/Result.h"
#include "services/engine/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

class BalanceLister final
{
public:
    static api::Result<api::ListBalancesResponse> list(const QSqlDatabase &db, const Scope &scope,
                                                       const api::ListBalancesRequest &request,
                                                       qint64 nowMs);
};

} // namespace md::engine
