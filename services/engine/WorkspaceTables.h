// The tables a workspace file fills, in foreign-key order, each with the
// columns a loaded row carries. WorkspaceLoader inserts by it, and
// tst_workspace checks it against the schema the migrations build, so a
// column added to one and not the other is found at once.
#pragma once

#include <QList>
#include <QStringList>

namespace md::engine {

struct WorkspaceTable
{
    QString name;
    QStringList columns;

    static const QList<WorkspaceTable> &all();
};

} // namespace md::engine
