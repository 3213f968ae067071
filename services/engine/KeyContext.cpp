#include "services/engine/KeyContext.h"

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;

std::optional<ApiError> KeyContext::missingScope(const QString &scopeName) const
{
    if (allows(scopeName))
        return std::nullopt;
    return ApiError{
        403, api::ErrorCode::InsufficientScopes,
        u"this API key lacks the scope \"%1\"; create a key that holds it"_s.arg(scopeName)};
}

std::optional<ApiError> KeyContext::missingScope(const QStringList &anyOf) const
{
    if (anyOf.size() == 1)
        return missingScope(anyOf.first());
    QStringList quoted;
    for (const QString &name : anyOf) {
        if (allows(name))
            return std::nullopt;
        quoted.append(u"\"%1\""_s.arg(name));
    }
    if (quoted.isEmpty())
        return std::nullopt;
    return ApiError{403, api::ErrorCode::InsufficientScopes,
                    u"this API key lacks each of the scopes %1; create a key that holds one"_s.arg(
                        quoted.join(u", "_s))};
}

std::optional<ApiError> KeyContext::missingLiveKey() const
{
    if (scope.keyPk == 0 || scope.env == Environment::Production)
        return std::nullopt;
    return ApiError{403, api::ErrorCode::LiveKeyRequired,
                    u"comparing and promoting environments needs a production (live) key; "
                    "this key sees only the sandbox"_s};
}

} // namespace md::engine
