// What the console's key may do: the scopes the engine or server answered
// in about (docs/api.md, "Keys and scopes"). The views disable what needs a
// scope the key lacks and say which (views/window/ScopeLock), instead of letting a
// person fill a form the server then refuses. Until the answer comes, and
// from a server that does not say, everything is allowed: the server still
// refuses what the key may not do.
#pragma once

#include <QObject>
#include <QStringList>

#include <optional>

namespace md::models {

class KeyScopes final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(KeyScopes)

public:
    explicit KeyScopes(QObject *parent = nullptr)
        : QObject(parent)
    {}

    void setScopes(const std::optional<QStringList> &scopes);
    // The id of the key the console itself uses (none for the embedded one).
    void setOwnKeyId(const std::optional<QString> &id) { m_ownKeyId = id; }
    const std::optional<QString> &ownKeyId() const { return m_ownKeyId; }
    // Whether the engine or server has said (and said what) yet.
    bool known() const { return m_scopes.has_value(); }
    // True when the key holds one of `anyOf` (or "*", or nothing is known).
    bool allowsAny(const QStringList &anyOf) const;
    // Why an action needing one of `anyOf` is off, for its tooltip; empty
    // when the key may.
    QString refusal(const QStringList &anyOf) const;

Q_SIGNALS:
    void changed();

private:
    std::optional<QStringList> m_scopes;
    std::optional<QString> m_ownKeyId;
};

} // namespace md::models
