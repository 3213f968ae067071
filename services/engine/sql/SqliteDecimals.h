// Exact decimal arithmetic inside SQLite, which has none of its own (its SUM
// of text goes through doubles): md_decimal_add(a, b) and
// md_decimal_shift(total, now, was), total + now - was, scalars, and
// md_decimal_sum(x), an aggregate, over the engine's decimal text, in the
// Int128 nano-units of api::Decimal, answering plain text. PostgreSQL needs
// none: numeric is exact. Registered on every SQLite connection the engine
// opens, so statements, triggers and migrations may use them (the usage_days
// rollup and the balance_sums triggers, docs/performance.md).
#pragma once

#include "services/api/Result.h"

#include <QSqlDatabase>

namespace md::engine {

api::Result<api::Done> registerSqliteDecimals(const QSqlDatabase &db);

} // namespace md::engine
