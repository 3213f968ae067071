// The tables a workspace file fills, in foreign-key order, each with the
// columns a loaded row carries. WorkspaceLoader inserts by it; tst_workspace
// checks it against the schema the migrations build, and checks that a dump
// loaded elsewhere gives back every one of these columns (what
// WorkspaceDumper writes), so a column added to one and not the others is
// found at once.
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
