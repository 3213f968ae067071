#include "services/api/ApiKey.h"

#include "services/api/TextRule.h"

namespace md::api {

using namespace Qt::StringLiterals;

namespace {

// One or more known scopes, each once.
QStringList readScopes(const JsonReader &reader)
{
    const QStringList scopes = readStringList(reader);
    if (!reader.ok())
        return scopes;
    if (scopes.isEmpty())
        reader.fail(u"must name at least one scope, or \"*\" for all"_s);
    for (const QString &scope : scopes) {
        if (!apiKeyScopes().contains(scope)) {
            reader.fail(u"holds \"%1\", which is no scope; known are %2"_s.arg(
                scope, apiKeyScopes().join(u", "_s)));
            break;
        }
        if (scopes.count(scope) > 1) {
            reader.fail(u"holds \"%1\" twice"_s.arg(scope));
            break;
        }
    }
    return scopes;
}

} // namespace

const QStringList &apiKeyScopes()
{
    static const QStringList scopes{u"*"_s,
                                    u"balances:read"_s,
                                    u"balances:write"_s,
                                    u"billing:read"_s,
                                    u"billing:write"_s,
                                    u"rewards:write"_s,
                                    u"plans:write"_s,
                                    u"platform:write"_s,
                                    u"webhooks:read"_s,
                                    u"webhooks:write"_s,
                                    u"keys:read"_s,
                                    u"keys:write"_s};
    return scopes;
}

ApiKey ApiKey::read(const JsonReader &reader)
{
    reader.object();
    ApiKey key;
    key.id = reader.field("id"_L1).string();
    key.name = reader.field("name"_L1).string();
    key.environment = readEnvironment(reader.field("environment"_L1));
    key.prefix = reader.field("prefix"_L1).string();
    key.scopes = readStringList(reader.field("scopes"_L1));
    key.createdAt = reader.field("created_at"_L1).integer();
    key.lastUsedAt = reader.field("last_used_at"_L1).nullableInteger();
    key.expiresAt = reader.field("expires_at"_L1).nullableInteger();
    key.revokedAt = reader.field("revoked_at"_L1).nullableInteger();
    key.previousExpiresAt = reader.field("previous_expires_at"_L1).nullableInteger();
    key.rolledAt = reader.field("rolled_at"_L1).nullableInteger();
    key.secret = reader.field("secret"_L1).optString();
    return key;
}

void ApiKey::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("id"_L1, id)
        .field("name"_L1, name)
        .field("environment"_L1, toWire(environment))
        .field("prefix"_L1, prefix)
        .key("scopes"_L1);
    writeStrings(writer, scopes);
    writer.field("created_at"_L1, createdAt)
        .field("last_used_at"_L1, lastUsedAt)
        .field("expires_at"_L1, expiresAt)
        .field("revoked_at"_L1, revokedAt)
        .field("previous_expires_at"_L1, previousExpiresAt)
        .field("rolled_at"_L1, rolledAt);
    if (secret)
        writer.field("secret"_L1, *secret);
    writer.endObject();
}

ApiKeyCreate ApiKeyCreate::read(const JsonReader &reader)
{
    reader.object();
    ApiKeyCreate request;
    request.name = reader.field("name"_L1).freeText(ApiKey::MaxName);
    if (reader.ok() && request.name.trimmed().isEmpty())
        reader.field("name"_L1).fail(u"must not be empty: it says what the key is for"_s);
    request.scopes = readScopes(reader.field("scopes"_L1));
    if (const JsonReader expires = reader.field("expires_at"_L1); !expires.isMissingOrNull())
        request.expiresAt = expires.integer();
    return request;
}

void ApiKeyCreate::write(JsonWriter &writer) const
{
    writer.beginObject().field("name"_L1, name).key("scopes"_L1);
    writeStrings(writer, scopes);
    if (expiresAt)
        writer.field("expires_at"_L1, *expiresAt);
    writer.endObject();
}

ApiKeyTarget ApiKeyTarget::read(const JsonReader &reader)
{
    reader.object();
    return {reader.field("id"_L1).string()};
}

void ApiKeyTarget::write(JsonWriter &writer) const
{
    writer.beginObject().field("id"_L1, id).endObject();
}

ApiKeyRoll ApiKeyRoll::read(const JsonReader &reader)
{
    reader.object();
    ApiKeyRoll request;
    request.id = reader.field("id"_L1).string();
    request.overlapMs =
        reader.field("overlap_ms"_L1).optInteger(0, ApiKey::MaxOverlapMs).value_or(0);
    return request;
}

void ApiKeyRoll::write(JsonWriter &writer) const
{
    writer.beginObject().field("id"_L1, id).field("overlap_ms"_L1, overlapMs).endObject();
}

} // namespace md::api
