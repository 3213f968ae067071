// ApiOperations' API key routes (docs/api.md, "API keys"). A key hands out,
// revokes and rolls only keys whose every scope it holds itself: otherwise
// a narrow key with keys:write could roll a wider one and read its secret.
#include "services/engine/ApiOperations.h"

#include "services/engine/AuditedWrite.h"
#include "services/engine/access/ApiKeyStore.h"

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

const QString ReadScope = u"keys:read"_s;
const QString WriteScope = u"keys:write"_s;

// 403 unless `key` holds every one of `scopes` ("*" only by holding "*").
std::optional<api::ApiError> beyondHolder(const KeyContext &key, const QStringList &scopes,
                                          const QString &what)
{
    if (key.allows(u"*"_s))
        return std::nullopt;
    QStringList lacking;
    for (const QString &scope : scopes)
        if (!key.scopes.contains(scope))
            lacking.append(u"\"%1\""_s.arg(scope));
    if (lacking.isEmpty())
        return std::nullopt;
    return api::ApiError{403, api::ErrorCode::InsufficientScopes,
                         u"%1 needs a key holding %2 too, which this key does not"_s.arg(
                             what, lacking.join(u", "_s))};
}

// What the wire's reader checks, checked again for callers that build the
// request themselves (the command line).
std::optional<api::ApiError> requestProblem(const QString &name, const QStringList &scopes)
{
    if (name.trimmed().isEmpty() || name.size() > api::ApiKey::MaxName)
        return api::ApiError::invalidInputs(
            u"name"_s,
            u"must say what the key is for, in 1 to %1 characters"_s.arg(api::ApiKey::MaxName));
    if (scopes.isEmpty())
        return api::ApiError::invalidInputs(u"scopes"_s,
                                            u"must name at least one scope, or \"*\" for all"_s);
    for (const QString &scope : scopes)
        if (!api::apiKeyScopes().contains(scope) || scopes.count(scope) > 1)
            return api::ApiError::invalidInputs(
                u"scopes"_s, u"holds \"%1\" twice or unknown; known are %2"_s.arg(
                                 scope, api::apiKeyScopes().join(u", "_s)));
    return std::nullopt;
}

// A key that expires may not make or roll one that outlives it: it would
// hand itself a longer life.
std::optional<api::ApiError> outlives(const KeyContext &key, const std::optional<qint64> &expiresAt)
{
    if (!key.expiresAt || (expiresAt && *expiresAt <= *key.expiresAt))
        return std::nullopt;
    return api::ApiError{
        403, api::ErrorCode::OutlivesCaller,
        u"this key expires, so it may only make or roll keys that expire no"
        " later than it does; give expires_at at or before %1"_s.arg(*key.expiresAt)};
}

ApiKeyStore storeOf(Engine &engine, const QSqlDatabase &db, const KeyContext &key)
{
    return ApiKeyStore(db, engine.dialect(), key.scope, engine.now());
}

// A change of one existing key (revoke, roll), audited, by a key holding
// all of its scopes; every key this server remembers is forgotten after.
template <typename Write>
api::Result<api::ApiKey> keyChange(Engine &engine, const KeyContext &key, const QString &action,
                                   const QString &id, const QString &what, Write write)
{
    return AuditedWrite::run<api::ApiKey>(
        engine, key, {action, u"api_key"_s, id},
        [&](const QSqlDatabase &db) -> api::Result<api::JsonValue> {
            auto was = storeOf(engine, db, key).get(id);
            if (!was)
                return was.error();
            if (const auto denied = beyondHolder(key, was.value().scopes, what))
                return *denied;
            if (action == "api_key.roll"_L1)
                if (const auto denied = outlives(key, was.value().expiresAt))
                    return *denied;
            return ApiKeys::described(was.value());
        },
        [&](const QSqlDatabase &db) {
            ApiKeyStore store = storeOf(engine, db, key);
            return write(store);
        },
        [](const api::ApiKey &after) { return ApiKeys::described(after); },
        {false, [&](const QSqlDatabase &) { engine.forgetKeys(); }});
}

} // namespace

api::Result<api::Page<api::ApiKey>> ApiOperations::listApiKeys(const KeyContext &key)
{
    if (const auto denied = key.missingScope(QStringList{ReadScope, WriteScope}))
        return *denied;
    return m_engine.withConnection(
        [&](const QSqlDatabase &db) -> api::Result<api::Page<api::ApiKey>> {
            auto keys = storeOf(m_engine, db, key).list();
            if (!keys)
                return keys.error();
            return api::Page<api::ApiKey>{std::move(keys).value(), false, std::nullopt};
        });
}

api::Result<api::ApiKey> ApiOperations::createApiKey(const KeyContext &key,
                                                     const api::ApiKeyCreate &request)
{
    if (const auto denied = key.missingScope(WriteScope))
        return *denied;
    if (const auto problem = requestProblem(request.name, request.scopes))
        return *problem;
    if (const auto denied = beyondHolder(key, request.scopes, u"handing out a key"_s))
        return *denied;
    if (const auto denied = outlives(key, request.expiresAt))
        return *denied;
    return AuditedWrite::run<api::ApiKey>(
        m_engine, key, {u"api_key.create"_s, u"api_key"_s, QString()},
        [](const QSqlDatabase &) -> api::Result<api::JsonValue> { return api::JsonValue::null(); },
        [&](const QSqlDatabase &db) { return storeOf(m_engine, db, key).create(request); },
        [](const api::ApiKey &made) {
            return std::pair<QString, api::JsonValue>{made.id, ApiKeys::described(made)};
        });
}

api::Result<api::ApiKey> ApiOperations::revokeApiKey(const KeyContext &key,
                                                     const api::ApiKeyTarget &request)
{
    if (const auto denied = key.missingScope(WriteScope))
        return *denied;
    return keyChange(m_engine, key, u"api_key.revoke"_s, request.id, u"revoking this key"_s,
                     [&](ApiKeyStore &store) { return store.revoke(request.id); });
}

api::Result<api::ApiKey> ApiOperations::rollApiKey(const KeyContext &key,
                                                   const api::ApiKeyRoll &request)
{
    if (const auto denied = key.missingScope(WriteScope))
        return *denied;
    if (request.overlapMs < 0 || request.overlapMs > api::ApiKey::MaxOverlapMs)
        return api::ApiError::invalidInputs(
            u"overlap_ms"_s, u"must be from 0 to %1 (seven days)"_s.arg(api::ApiKey::MaxOverlapMs));
    return keyChange(m_engine, key, u"api_key.roll"_s, request.id, u"rolling this key"_s,
                     [&](ApiKeyStore &store) { return store.roll(request); });
}

} // namespace md::engine
