// Ordered schema migrations from resources (:/migrations), recorded in a
// schema_version table; the same scripts run on SQLite and PostgreSQL.
#pragma once

#include "services/api/Result.h"
#include "services/engine/sql/Dialect.h"

#include <QSqlDatabase>

namespace md::engine {

class Migrator final
{
public:
    static int latestVersion();
    // Brings the database to the latest version; safe to run from several
    // processes at once (PostgreSQL takes an advisory lock, SQLite the write lock).
    static api::Result<int> migrate(const QSqlDatabase &db, Dialect dialect);
};

} // namespace md::engine
