// balances.list over the store (docs/api.md, balances.list): filters, status from the
// clock, keyset pages in (customer, newest balance first) order, rollovers nested.
#pragma once

#include "services/api/BalancePages.h"
#include "services/api/ListBalances.h"
#include "services/api/Result.h"
#include "services/engine/sql/Scope.h"
#include "services/engine/sql/StopCheck.h"

#include <QSqlDatabase>

namespace md::engine {

class BalanceLister final
{
public:
    static api::Result<api::ListBalancesResponse> list(const QSqlDatabase &db, const Scope &scope,
                                                       const api::ListBalancesRequest &request,
                                                       qint64 nowMs);

    // The filter's row count and the cursor that starts each of its pages
    // (docs/api.md, "balances.pages"): one walk of the listing's keys.
    static api::Result<api::BalancePages> pages(const QSqlDatabase &db, const Scope &scope,
                                                const api::BalancePagesRequest &request,
                                                qint64 nowMs, const StopCheck &stop = {});

    // The active rows one usage call deducts from, by the keys its resolver
    // found: the customer's own rows of the feature, or the entity's. One
    // statement by the customer's index, no id looked up again (a call at an
    // organization's size misses the writer's cache: docs/performance.md).
    struct Held
    {
        QList<api::BalanceRow> rows;
        // When the first of them (or its plan) expires: what is kept of them is good till then.
        qint64 nextExpiry = std::numeric_limits<qint64>::max();
    };
    static api::Result<Held> held(const QSqlDatabase &db, const Scope &scope, qint64 customerPk,
                                  std::optional<qint64> entityPk, qint64 featurePk, qint64 nowMs);

    // PostgreSQL, for a batch of track_tokens calls: in one statement, the
    // active rows of any of the customers and features, with their owners.
    struct Owned
    {
        qint64 customerPk = 0;
        std::optional<qint64> entityPk;
        qint64 featurePk = 0;
        api::BalanceRow row;
    };
    static api::Result<QList<Owned>> activeRows(const QSqlDatabase &db, const Scope &scope,
                                                const QList<qint64> &customerPks,
                                                const QList<qint64> &featurePks, qint64 nowMs);
};

} // namespace md::engine
