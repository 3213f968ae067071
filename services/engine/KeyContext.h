// What an authenticated key may do, and on whose data: handed by Engine to
// every route (ApiOperations) and never below the root's rooms.
#pragma once

#include "services/api/ApiError.h"
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
    // When the key stops working; none for never (and for no key).
    std::optional<qint64> expiresAt;
    // Its public id (key_…), for the request log; empty for no key.
    QString keyId;

    bool allows(const QString &scopeName) const
    {
        return scopes.contains(QStringLiteral("*")) || scopes.contains(scopeName);
    }
    // 403 insufficient_scopes unless the key holds `scope` (or `*`).
    std::optional<api::ApiError> missingScope(const QString &scopeName) const;
    // The same unless it holds one of `anyOf` (none named: any key will do).
    std::optional<api::ApiError> missingScope(const QStringList &anyOf) const;
    // 403 live_key_required for a sandbox key: the promotion routes read
    // both environments and write production. The console on its own
    // workspace (no key) may.
    std::optional<api::ApiError> missingLiveKey() const;
};

} // namespace md::engine
