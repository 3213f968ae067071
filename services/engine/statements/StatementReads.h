// statements.list and statements.get (docs/api.md): closed statements,
// newest period first, keyset-paged on (period_start, key) through
// statements_by_period, or through a customer's own index when one is asked for.
#pragma once

#include "services/api/Page.h"
#include "services/api/Statements.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

class StatementReads final
{
public:
    // `customer_id`, `from` and `to` (the period's start in [from, to))
    // filter; 404 customer_not_found for an unknown customer.
    static api::Result<api::Page<api::Statement>> list(const QSqlDatabase &db, const Scope &scope,
                                                       const api::PageRequest &request);
    // 404 statement_not_found for an id that is not the scope's.
    static api::Result<api::Statement> get(const QSqlDatabase &db, const Scope &scope,
                                           const QString &id);
};

} // namespace md::engine
