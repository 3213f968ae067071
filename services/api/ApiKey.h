// API keys on the wire (docs/api.md, "API keys"): a key's listing, and the
// requests that make, revoke and roll one. A secret is only ever in the
// answer of create and roll.
#pragma once

#include "services/api/Environment.h"

#include <QStringList>

#include <optional>

namespace md::api {

// Every scope a key may hold, "*" (all of them) first.
const QStringList &apiKeyScopes();

struct ApiKey
{
    static constexpr qsizetype MaxName = 100;
    // How long a rolled key's old secret may keep working: seven days.
    static constexpr qint64 MaxOverlapMs = 7LL * 24 * 3600 * 1000;

    QString id; // "key_…"
    QString name;
    Environment environment = Environment::Sandbox;
    QString prefix; // the secret's first characters and "…": "sk_test_ab12…"
    QStringList scopes;
    qint64 createdAt = 0;
    std::optional<qint64> lastUsedAt; // to the minute
    std::optional<qint64> expiresAt;
    std::optional<qint64> revokedAt;
    // After a roll: when the secret before it stops working.
    std::optional<qint64> previousExpiresAt;
    std::optional<qint64> rolledAt; // the last roll
    // sk_…: only in the answers of create and roll.
    std::optional<QString> secret;

    static ApiKey read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ApiKey &, const ApiKey &) = default;
};

struct ApiKeyCreate
{
    QString name;
    QStringList scopes;
    std::optional<qint64> expiresAt;

    static ApiKeyCreate read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ApiKeyCreate &, const ApiKeyCreate &) = default;
};

// `{ id }`: the key revoke acts on.
struct ApiKeyTarget
{
    QString id;

    static ApiKeyTarget read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ApiKeyTarget &, const ApiKeyTarget &) = default;
};

struct ApiKeyRoll
{
    QString id;
    qint64 overlapMs = 0; // the old secret works this long after the roll

    static ApiKeyRoll read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ApiKeyRoll &, const ApiKeyRoll &) = default;
};

} // namespace md::api
