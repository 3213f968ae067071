#include "services/engine/access/ApiKeyStore.h"

#include "services/engine/ids/PublicIds.h"
#include "services/engine/sql/KeyAllocator.h"
#include "services/engine/sql/Sql.h"

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

const QString Columns =
    u"pk, name, env, prefix, scopes, created_at, last_used_at, expires_at, revoked_at,"
    " previous_until, rolled_at"_s;

std::optional<qint64> optionalMs(const QVariant &column)
{
    return column.isNull() ? std::nullopt : std::optional(column.toLongLong());
}

api::ApiKey keyOfRow(const PublicIds &ids, const QVariantList &row)
{
    api::ApiKey key;
    key.id = ids.make(PublicIds::Kind::ApiKey, row.at(0).toLongLong());
    key.name = row.at(1).toString();
    key.environment = environmentFromWord(row.at(2).toString()).value_or(Environment::Sandbox);
    key.prefix = row.at(3).toString() + u'…';
    key.scopes = row.at(4).toString().split(u' ', Qt::SkipEmptyParts);
    key.createdAt = row.at(5).toLongLong();
    key.lastUsedAt = optionalMs(row.at(6));
    key.expiresAt = optionalMs(row.at(7));
    key.revokedAt = optionalMs(row.at(8));
    key.previousExpiresAt = optionalMs(row.at(9));
    key.rolledAt = optionalMs(row.at(10));
    return key;
}

api::ApiError notFound(const QString &id)
{
    return api::ApiError::notFound(
        api::ErrorCode::ApiKeyNotFound,
        u"API key %1 is not one of this environment's; api_keys.list shows them"_s.arg(id));
}

} // namespace

ApiKeyStore::ApiKeyStore(QSqlDatabase db, Dialect dialect, const Scope &scope, qint64 nowMs)
    : m_db(std::move(db))
    , m_dialect(dialect)
    , m_scope(scope)
    , m_now(nowMs)
{}

api::Result<QList<api::ApiKey>> ApiKeyStore::list()
{
    auto ids = PublicIds::of(m_db);
    if (!ids)
        return ids.error();
    auto rows = queryRows(m_db,
                          u"SELECT "_s + Columns +
                              u" FROM api_keys WHERE org_pk = ? AND env = ? ORDER BY pk DESC"_s,
                          {m_scope.orgPk, m_scope.envWord()});
    if (!rows)
        return rows.error();
    QList<api::ApiKey> keys;
    for (const QVariantList &row : std::as_const(rows.value()))
        keys.append(keyOfRow(ids.value(), row));
    return keys;
}

api::Result<api::ApiKey> ApiKeyStore::get(const QString &id)
{
    auto pk = keyOf(id);
    if (!pk)
        return pk.error();
    return read(pk.value());
}

api::Result<api::ApiKey> ApiKeyStore::create(const api::ApiKeyCreate &request)
{
    if (request.expiresAt && *request.expiresAt <= m_now)
        return api::ApiError::invalidInputs(
            u"expires_at"_s,
            u"is not in the future; give a later moment, or none for a key that does not expire"_s);
    KeyAllocator keys(m_db, m_dialect);
    auto pk = keys.next(u"api_keys"_s);
    if (!pk)
        return pk.error();
    const NewApiKey made = ApiKeys::generate(m_scope.env);
    if (auto inserted =
            insertRows(m_db, u"api_keys"_s,
                       {u"pk"_s, u"org_pk"_s, u"env"_s, u"prefix"_s, u"hash"_s, u"scopes"_s,
                        u"name"_s, u"created_at"_s, u"expires_at"_s},
                       {{pk.value(), m_scope.orgPk, m_scope.envWord(), made.prefix, made.hash,
                         request.scopes.join(u' '), request.name, m_now,
                         request.expiresAt ? QVariant(*request.expiresAt) : QVariant()}});
        !inserted)
        return inserted.error();
    auto key = read(pk.value());
    if (key)
        key.value().secret = made.secret;
    return key;
}

api::Result<api::ApiKey> ApiKeyStore::revoke(const QString &id)
{
    auto pk = keyOf(id);
    if (!pk)
        return pk.error();
    if (auto revoked = execute(
            m_db, u"UPDATE api_keys SET revoked_at = ? WHERE pk = ? AND revoked_at IS NULL"_s,
            {m_now, pk.value()});
        !revoked)
        return revoked.error();
    return read(pk.value());
}

api::Result<api::ApiKey> ApiKeyStore::roll(const api::ApiKeyRoll &request)
{
    auto was = get(request.id);
    if (!was)
        return was.error();
    if (was.value().revokedAt)
        return api::ApiError{409, api::ErrorCode::ApiKeyRevoked,
                             u"API key %1 is revoked; create a new key instead"_s.arg(request.id)};
    if (was.value().expiresAt && *was.value().expiresAt <= m_now)
        return api::ApiError{409, api::ErrorCode::ApiKeyExpired,
                             u"API key %1 has expired; create a new key instead"_s.arg(request.id)};
    auto pk = keyOf(request.id);
    if (!pk)
        return pk.error();
    const NewApiKey made = ApiKeys::generate(m_scope.env);
    // The old secret keeps working for the overlap (none: not at all); a
    // secret from an earlier roll is dropped, so a key has two at most.
    const bool overlap = request.overlapMs > 0;
    if (auto rolled = execute(
            m_db,
            overlap ? u"UPDATE api_keys SET previous_hash = hash, previous_until = ?, hash = ?,"
                      " prefix = ?, rolled_at = ? WHERE pk = ?"_s
                    : u"UPDATE api_keys SET previous_hash = NULL, previous_until = ?, hash = ?,"
                      " prefix = ?, rolled_at = ? WHERE pk = ?"_s,
            {overlap ? QVariant(m_now + request.overlapMs)
                     : QVariant(QMetaType::fromType<qint64>()),
             made.hash, made.prefix, m_now, pk.value()});
        !rolled)
        return rolled.error();
    auto key = read(pk.value());
    if (key)
        key.value().secret = made.secret;
    return key;
}

api::Result<std::optional<StoredKey>> ApiKeyStore::find(const QSqlDatabase &db, const QString &hash)
{
    auto rows =
        queryRows(db,
                  u"SELECT k.hash, k.env, k.scopes, o.pk, o.id, o.slug, o.name, k.pk, k.name,"
                  " k.expires_at, k.revoked_at, k.last_used_at, k.previous_until"
                  " FROM api_keys k JOIN organizations o ON o.pk = k.org_pk"
                  " WHERE k.hash = ? OR k.previous_hash = ?"_s,
                  {hash, hash});
    if (!rows)
        return rows.error();
    if (rows.value().isEmpty())
        return std::optional<StoredKey>();
    const QVariantList &row = rows.value().first();
    StoredKey key;
    key.env = environmentFromWord(row.at(1).toString()).value_or(Environment::Sandbox);
    key.scopes = row.at(2).toString().split(u' ', Qt::SkipEmptyParts);
    key.orgPk = row.at(3).toLongLong();
    key.orgId = row.at(4).toString();
    key.orgSlug = row.at(5).toString();
    key.orgName = row.at(6).toString();
    key.keyPk = row.at(7).toLongLong();
    key.name = row.at(8).toString();
    key.expiresAt = optionalMs(row.at(9));
    key.revokedAt = optionalMs(row.at(10));
    key.lastUsedAt = optionalMs(row.at(11));
    // The index found the row; which secret matched is told in constant time.
    key.byPreviousSecret = !ApiKeys::sameHash(row.at(0).toString(), hash);
    if (key.byPreviousSecret)
        key.previousUntil = optionalMs(row.at(12)).value_or(0);
    return std::optional(key);
}

api::Result<api::Done> ApiKeyStore::touch(const QSqlDatabase &db, qint64 keyPk, qint64 minuteMs)
{
    return execute(db,
                   u"UPDATE api_keys SET last_used_at = ? WHERE pk = ?"
                   " AND (last_used_at IS NULL OR last_used_at < ?)"_s,
                   {minuteMs, keyPk, minuteMs});
}

api::Result<qint64> ApiKeyStore::keyOf(const QString &id)
{
    auto pk = PublicIds::scopedKey(m_db, PublicIds::Kind::ApiKey, id, m_scope);
    if (!pk)
        return pk.error();
    if (!pk.value())
        return notFound(id);
    return *pk.value();
}

api::Result<api::ApiKey> ApiKeyStore::read(qint64 pk)
{
    auto ids = PublicIds::of(m_db);
    if (!ids)
        return ids.error();
    auto rows = queryRows(m_db, u"SELECT "_s + Columns + u" FROM api_keys WHERE pk = ?"_s, {pk});
    if (!rows)
        return rows.error();
    if (rows.value().isEmpty())
        return api::ApiError::internal(u"API key %1 vanished"_s.arg(pk));
    return keyOfRow(ids.value(), rows.value().first());
}

} // namespace md::engine
