// Sealed cursors (docs/storage.md, "Ids and cursors"). A cursor holds the
// sort keys of the last row a page sent; keys count across all tenants, so
// they are encrypted, and a cursor is authenticated together with its list
// (the tag) and the organization and environment that asked. Only the
// server that issued it, or one on the same database, accepts it, for that
// list and that scope; anything else is not a cursor. Deterministic
// authenticated encryption (SIV) on HMAC-SHA256 with the workspace's secret:
// the authenticator is the MAC of the list, the scope and the keys, and the
// keys are encrypted with a key stream that HMAC draws from the authenticator.
#pragma once

#include "services/engine/ids/WorkspaceSecret.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

#include <QList>

#include <optional>

namespace md::engine {

class CursorSeal final
{
public:
    static api::Result<CursorSeal> of(const QSqlDatabase &db, const Scope &scope,
                                      QByteArrayView tag);

    // base64url, without padding.
    QString seal(const QList<qint64> &keys) const;
    // The `keyCount` keys of a cursor sealed here, for the same list and
    // scope and spelled as issued; nullopt for anything else.
    std::optional<QList<qint64>> open(const QString &text, qsizetype keyCount) const;

private:
    CursorSeal(WorkspaceSecret secret, QByteArray context)
        : m_secret(std::move(secret))
        , m_context(std::move(context))
    {}

    QByteArray authenticatorOf(const QByteArray &keys) const;
    QByteArray keyStream(const QByteArray &authenticator, qsizetype size) const;

    WorkspaceSecret m_secret;
    QByteArray m_context; // the list and the scope, bound into every cursor
};

} // namespace md::engine
