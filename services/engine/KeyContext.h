// What an authenticated key may do, and on whose data: handed by Engine to
// every route (ApiOperations) and never below the root's rooms.
#pragma once

#include "services/engine/sql/Scope.h"

#include <QString>
#include <QStringList>

namespace md::engine {

// What an authenticated key may do, and on whose data.
struct KeyContext
{
    Scope scope;
    QString orgId;
    QString orgSlug;
    QStringList scopes;
    QString orgName;
    // The key's name, for the audit log (its row is scope.keyPk).
    QString keyName;

    bool allows(const QString &scopeName) const
    {
        return scopes.contains(QStringLiteral("*")) || scopes.contains(scopeName);
    }
};

} // namespace md::engine
