// Writes a whole database as a workspace file (docs/workspace-format.md);
// loading the dump into an empty database reproduces the same workspace.
#pragma once

#include "services/api/JsonValue.h"

#include <QSqlDatabase>

namespace md::engine {

class WorkspaceDumper final
{
public:
    static api::Result<api::JsonValue> dump(const QSqlDatabase &db);
};

} // namespace md::engine
