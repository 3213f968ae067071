#include "views/ScopeLock.h"

#include <QAction>
#include <QEvent>
#include <QWidget>

namespace md::views {

ScopeLock::ScopeLock(QObject *target, const QStringList &anyOf, models::KeyScopes *scopes)
    : QObject(target)
    , m_anyOf(anyOf)
    , m_scopes(scopes)
{
    connect(scopes, &models::KeyScopes::changed, this, &ScopeLock::apply);
}

void ScopeLock::require(QWidget *widget, const QStringList &anyOf, models::KeyScopes *scopes)
{
    auto *lock = new ScopeLock(widget, anyOf, scopes);
    lock->m_widget = widget;
    lock->m_wanted = widget->isEnabled();
    widget->installEventFilter(lock);
    lock->apply();
}

void ScopeLock::require(QAction *action, const QStringList &anyOf, models::KeyScopes *scopes)
{
    auto *lock = new ScopeLock(action, anyOf, scopes);
    lock->m_action = action;
    lock->m_wanted = action->isEnabled();
    connect(action, &QAction::changed, lock, [lock] {
        if (lock->m_applying)
            return;
        lock->m_wanted = lock->m_action->isEnabled();
        lock->apply();
    });
    lock->apply();
}

bool ScopeLock::eventFilter(QObject *watched, QEvent *event)
{
    if (m_applying || watched != m_widget)
        return QObject::eventFilter(watched, event);
    if (event->type() == QEvent::EnabledChange) {
        m_wanted = m_widget->isEnabled();
        apply();
    } else if (event->type() == QEvent::ToolTipChange && m_locked) {
        // The page's tooltip, kept for later; the scope's stays in view.
        m_toolTip = m_widget->toolTip();
        m_locked = false;
        apply();
    }
    return QObject::eventFilter(watched, event);
}

void ScopeLock::apply()
{
    if (!m_scopes)
        return;
    m_applying = true;
    const QString refusal = m_scopes->refusal(m_anyOf);
    if (refusal.isEmpty()) {
        // The page's own tooltip is given back only where the lock took it.
        if (m_locked)
            setToolTip(m_toolTip);
        m_locked = false;
        setEnabled(m_wanted);
    } else {
        if (!m_locked)
            m_toolTip = m_widget ? m_widget->toolTip() : m_action ? m_action->toolTip() : QString();
        m_locked = true;
        setEnabled(false);
        setToolTip(refusal);
    }
    m_applying = false;
}

bool ScopeLock::isEnabled() const
{
    return m_widget ? m_widget->isEnabled() : m_action && m_action->isEnabled();
}

void ScopeLock::setEnabled(bool enabled)
{
    if (isEnabled() == enabled)
        return;
    if (m_widget)
        m_widget->setEnabled(enabled);
    else if (m_action)
        m_action->setEnabled(enabled);
}

void ScopeLock::setToolTip(const QString &text)
{
    if (m_widget) {
        m_widget->setToolTip(text);
    } else if (m_action) {
        m_action->setToolTip(text);
        m_action->setStatusTip(text);
    }
}

} // namespace md::views
