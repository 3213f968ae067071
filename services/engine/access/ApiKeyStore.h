// An environment's API keys as rows (docs/api.md, "API keys"): listed, made,
// revoked and rolled, and found by a secret's hash for authentication. Which
// key may change which is the caller's rule (ApiOperations); this keeps the
// rows.
#pragma once

#include "services/api/ApiKey.h"
#include "services/api/Result.h"
#include "services/engine/access/ApiKeys.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

// A key as authentication finds it by a secret's hash.
struct StoredKey
{
    qint64 keyPk = 0;
    Environment env = Environment::Sandbox;
    QStringList scopes;
    QString name;
    qint64 orgPk = 0;
    QString orgId;
    QString orgSlug;
    QString orgName;
    std::optional<qint64> expiresAt;
    std::optional<qint64> revokedAt;
    std::optional<qint64> lastUsedAt;
    // Found by the secret before a roll: it works until then.
    std::optional<qint64> previousUntil;
    bool byPreviousSecret = false;
};

class ApiKeyStore final
{
public:
    // last_used_at is kept to the minute (docs/api.md).
    static constexpr qint64 LastUsedGrainMs = 60'000;

    ApiKeyStore(QSqlDatabase db, Dialect dialect, const Scope &scope, qint64 nowMs);

    // Newest first, revoked and expired ones too (they say so).
    api::Result<QList<api::ApiKey>> list();
    // 404 for an id that is not one of this environment's keys.
    api::Result<api::ApiKey> get(const QString &id);
    // The new key with its secret, this once.
    api::Result<api::ApiKey> create(const api::ApiKeyCreate &request);
    // Revoking a revoked key changes nothing (and answers it as it is).
    api::Result<api::ApiKey> revoke(const QString &id);
    // A new secret; the old one works `overlapMs` more. 409 for a revoked or
    // expired key.
    api::Result<api::ApiKey> roll(const api::ApiKeyRoll &request);

    // The key whose secret (or, until its overlap ends, whose secret before
    // a roll) hashes to `hash`, of any organization; none for none.
    static api::Result<std::optional<StoredKey>> find(const QSqlDatabase &db, const QString &hash);
    // Records a use at `minuteMs` unless one as late is recorded.
    static api::Result<api::Done> touch(const QSqlDatabase &db, qint64 keyPk, qint64 minuteMs);

private:
    api::Result<qint64> keyOf(const QString &id);
    api::Result<api::ApiKey> read(qint64 pk);

    QSqlDatabase m_db;
    Dialect m_dialect;
    Scope m_scope;
    qint64 m_now = 0;
};

} // namespace md::engine
