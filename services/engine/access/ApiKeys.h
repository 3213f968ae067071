// Secret API keys: `sk_test_…` / `sk_live_…`, shown once, stored only as a
// SHA-256 hash (the secrets are 190-bit random, so a fast hash is enough).
#pragma once

#include "services/api/ApiKey.h"
#include "services/api/JsonValue.h"
#include "services/engine/sql/Scope.h"

#include <QString>
#include <QStringList>

namespace md::engine {

struct NewApiKey
{
    QString secret; // shown to the user once, never stored
    QString prefix; // stored, for recognising a key in listings
    QString hash;   // stored
};

class ApiKeys final
{
public:
    static NewApiKey generate(Environment env);
    static QString hashOf(const QString &secret);
    static QString prefixOf(const QString &secret);
    // The environment a secret's shape claims, or nullopt when it is not a key.
    static std::optional<Environment> environmentOf(const QString &secret);
    // Constant-time comparison of two stored hashes.
    static bool sameHash(const QString &a, const QString &b);
    // api::apiKeyScopes(): every scope a key may hold.
    static const QStringList &knownScopes();
    // A key as the audit log keeps it: never a secret.
    static api::JsonValue described(api::ApiKey key);
};

} // namespace md::engine
