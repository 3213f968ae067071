// Keeps a button or an action off while the connection's key lacks the
// scope it needs (models::KeyScopes), with a tooltip naming the scope. A
// page enables and disables its buttons as rows are chosen; the lock has
// the last word, so no page needs to know about scopes: it remembers what
// the page last asked for and gives it back should the key allow it. (A
// page turning off a button that is locked off changes nothing Qt tells
// of; that case never arises, since a window's key only gains scopes by a
// new connection, which makes a new window.)
#pragma once

#include "models/connection/KeyScopes.h"

#include <QObject>
#include <QPointer>

class QAction;
class QWidget;

namespace md::views {

class ScopeLock final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ScopeLock)

public:
    // The lock lives as long as `widget` (or `action`).
    static void require(QWidget *widget, const QStringList &anyOf, models::KeyScopes *scopes);
    static void require(QAction *action, const QStringList &anyOf, models::KeyScopes *scopes);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    ScopeLock(QObject *target, const QStringList &anyOf, models::KeyScopes *scopes);
    void apply();
    bool isEnabled() const;
    void setEnabled(bool enabled);
    void setToolTip(const QString &text);

    QPointer<QWidget> m_widget;
    QPointer<QAction> m_action;
    QStringList m_anyOf;
    QPointer<models::KeyScopes> m_scopes;
    QString m_toolTip; // the target's own while locked, given back if the key allows
    bool m_locked = false;
    QString m_refusal;    // the tooltip the lock set
    bool m_wanted = true; // what the page last asked for
    bool m_applying = false;
};

} // namespace md::views
