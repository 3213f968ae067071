#include "models/connection/KeyScopes.h"

namespace md::models {

using namespace Qt::StringLiterals;

void KeyScopes::setScopes(const std::optional<QStringList> &scopes)
{
    if (scopes == m_scopes)
        return;
    m_scopes = scopes;
    Q_EMIT changed();
}

bool KeyScopes::allowsAny(const QStringList &anyOf) const
{
    if (!m_scopes || m_scopes->contains(u"*"_s))
        return true;
    for (const QString &scope : anyOf)
        if (m_scopes->contains(scope))
            return true;
    return false;
}

QString KeyScopes::refusal(const QStringList &anyOf) const
{
    if (allowsAny(anyOf))
        return {};
    QStringList quoted;
    for (const QString &scope : anyOf)
        quoted.append(u"“%1”"_s.arg(scope));
    return anyOf.size() == 1
               ? tr("Needs the scope %1, which this connection's API key does not hold.")
                     .arg(quoted.first())
               : tr("Needs one of the scopes %1, which this connection's API key does not hold.")
                     .arg(quoted.join(u", "_s));
}

} // namespace md::models
