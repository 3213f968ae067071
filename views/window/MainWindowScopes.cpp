// MainWindow's part in what the key may do (models::KeyScopes): each action
// that needs a scope is locked off, with a tooltip naming it, when the key
// of the connection lacks it; the status bar says when the key writes
// nothing at all. Apart from MainWindow.cpp, which lays out the window.
#include "models/connection/KeyScopes.h"
#include "views/admin/ProductsPage.h"
#include "views/admin/RewardsPage.h"
#include "views/admin/TenantsPage.h"
#include "views/balances/BalancesPage.h"
#include "views/customers/CustomersPage.h"
#include "views/operator/KeysPage.h"
#include "views/operator/SandboxClockDialog.h"
#include "views/operator/WebhooksPage.h"
#include "views/usage/PriceCallDialog.h"
#include "views/usage/UsagePage.h"
#include "views/window/MainWindow.h"
#include "views/window/ScopeLock.h"

#include <QAction>
#include <QLabel>

namespace md::views {

using namespace Qt::StringLiterals;

void MainWindow::lockActions()
{
    const QStringList promoting{u"plans:write"_s, u"rewards:write"_s};
    const auto lock = [this](QWidget *page, const QString &name, const QStringList &anyOf) {
        const auto found = page->findChildren<QWidget *>(name);
        Q_ASSERT(!found.isEmpty()); // a renamed button would go unlocked
        for (QWidget *widget : found)
            ScopeLock::require(widget, anyOf, m_scopes);
    };
    lock(m_products, u"editRecord"_s, {u"plans:write"_s});
    lock(m_products, u"promoteButton"_s, promoting);
    lock(m_rewards, u"editRecord"_s, {u"rewards:write"_s});
    lock(m_balances, u"adjustBalance"_s, {u"balances:write"_s});
    lock(m_customers, u"editControls"_s, {u"billing:write"_s});
    lock(m_customers, u"openPortal"_s, {u"billing:read"_s});
    lock(m_tenants, u"linkAccount"_s, {u"platform:write"_s});
    for (const QString &name : {u"newEndpoint"_s, u"editEndpoint"_s, u"testEndpoint"_s,
                                u"rotateSecret"_s, u"deleteEndpoint"_s, u"redeliver"_s})
        lock(m_webhooks, name, {u"webhooks:write"_s});
    for (const QString &name : {u"newKey"_s, u"rollKey"_s, u"revokeKey"_s})
        lock(m_keys, name, {u"keys:write"_s});
    for (const QString &name : {u"retryFailed"_s, u"discardFailed"_s})
        lock(m_usage, name, {u"balances:write"_s});
    // Every Usage page's import (the customers' Usage tab has one too), and
    // dialogs made later lock their own write when they open.
    for (UsagePage *usage : findChildren<UsagePage *>())
        lock(usage, u"importUsage"_s, {u"balances:write"_s});
    for (UsagePage *usage : findChildren<UsagePage *>())
        connect(usage, &UsagePage::priceCallOpened, this, [this](PriceCallDialog *dialog) {
            ScopeLock::require(dialog->recordButton(), {u"balances:write"_s}, m_scopes);
        });
    m_keys->setScopes(m_scopes);
    ScopeLock::require(m_importAction, {u"billing:write"_s}, m_scopes);
    ScopeLock::require(m_importUsageAction, {u"balances:write"_s}, m_scopes);
    ScopeLock::require(m_promoteAction, promoting, m_scopes);
    // The clock's dialog previews and moves it: both are clock.advance, a write.
    ScopeLock::require(m_clockAction, {u"balances:write"_s}, m_scopes);
}

void MainWindow::lockClock(SandboxClockDialog *dialog)
{
    ScopeLock::require(dialog->saveButton(), {u"balances:write"_s}, m_scopes);
}

void MainWindow::showScopes(const std::optional<QStringList> &scopes)
{
    m_scopes->setScopes(scopes);
    // A key that writes nothing is named in the status bar, so a blank
    // button is never a mystery.
    bool writes = !scopes || scopes->contains(u"*"_s);
    for (const QString &scope : scopes.value_or(QStringList()))
        writes = writes || scope.endsWith(":write"_L1);
    m_readOnlyBadge->setVisible(!writes);
    m_readOnlyBadge->setText(tr(" READ ONLY "));
    m_readOnlyBadge->setStyleSheet(u"background:#546e7a;color:white;font-weight:bold"_s);
    m_readOnlyBadge->setToolTip(
        tr("This connection's API key holds %1: what needs more is switched off.")
            .arg(scopes.value_or(QStringList()).join(u", "_s)));
}

} // namespace md::views
