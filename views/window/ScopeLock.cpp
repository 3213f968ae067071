#include "views/window/ScopeLock.h"

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
    // changed() tells of any property: only what differs from what the
    // lock set is the page's wish.
    connect(action, &QAction::changed, lock, [lock] {
        if (lock->m_applying)
            return;
        QAction *target = lock->m_action;
        bool again = false;
        if (!lock->m_locked || target->isEnabled()) {
            again = lock->m_wanted != target->isEnabled() || target->isEnabled();
            lock->m_wanted = target->isEnabled();
        }
        if (lock->m_locked && target->toolTip() != lock->m_refusal) {
            lock->m_toolTip = target->toolTip();
            lock->m_locked = false; // taken again below, keeping the page's words
            again = true;
        }
        if (again)
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
        const bool wasLocked = m_locked;
        m_locked = false;
        if (wasLocked)
            setToolTip(m_toolTip);
        setEnabled(m_wanted);
    } else {
        if (!m_locked)
            m_toolTip = m_widget ? m_widget->toolTip() : m_action ? m_action->toolTip() : QString();
        m_locked = true;
        m_refusal = refusal;
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
    // Also for the keyboard and screen readers: an off button takes no focus.
    if (m_widget) {
        m_widget->setToolTip(text);
        m_widget->setAccessibleDescription(m_locked ? text : QString());
    } else if (m_action) {
        m_action->setToolTip(text);
    }
}

} // namespace md::views
