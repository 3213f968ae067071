// Loads a workspace file (docs/workspace-format.md) into a database in one
// transaction: all of it, or nothing and an error naming the JSON path.
#pragma once

#include "services/api/JsonValue.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/workspace/LoadSummary.h"

#include <QSqlDatabase>

namespace md::engine {

class WorkspaceLoader final
{
public:
    static constexpr int FormatVersion = 1;
    // `nowMs`: the engine's now, where a file without `statements_from`
    // opens its customers' first billing periods.
    static api::Result<LoadSummary> load(const QSqlDatabase &db, Dialect dialect,
                                         const api::JsonValue &workspace, qint64 nowMs);
    static api::Result<LoadSummary> loadFile(const QSqlDatabase &db, Dialect dialect,
                                             const QString &path, qint64 nowMs);
};

} // namespace md::engine
