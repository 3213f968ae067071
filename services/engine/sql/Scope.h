// Whose data a call sees: one organization in one environment (docs/api.md,
// "Keys and scopes": a key belongs to one organization and one environment).
#pragma once

#include "services/api/Environment.h"

#include <QString>

#include <optional>

namespace md::engine {

// One environment enum for the wire and the engine; the database and the
// keys keep their words for it, "test" and "live" (sk_test_, sk_live_).
using api::Environment;

inline QString environmentWord(Environment env)
{
    return env == Environment::Sandbox ? QStringLiteral("test") : QStringLiteral("live");
}

inline std::optional<Environment> environmentFromWord(const QString &word)
{
    if (word == QLatin1StringView("test"))
        return Environment::Sandbox;
    if (word == QLatin1StringView("live"))
        return Environment::Production;
    return std::nullopt;
}

struct Scope
{
    qint64 orgPk = 0;
    Environment env = Environment::Sandbox;
    // The calling key's row, 0 for the console and the command line: not
    // whose data, but who asks, for the audit log and the ledger's source.
    qint64 keyPk = 0;

    QString envWord() const { return environmentWord(env); }
};

} // namespace md::engine
