// The console's main window: navigation sidebar, one page per user task,
// and a status bar naming the connection, environment and organization.
#pragma once

#include <QMainWindow>
#include <QStringList>

class QAction;
class QLabel;
class QTimer;
class QListWidget;
class QStackedWidget;

#include <optional>

namespace md::backend {
class BillingBackend;
}
namespace md::models {
class KeyScopes;
}

namespace md::views {

class AboutDialog;
class BalancesPage;
class CustomersPage;
class ImportWizard;
class ProductsPage;
class RewardsPage;
class TenantsPage;
class UsagePage;
class AuditPage;
class WebhooksPage;
class KeysPage;
class RevenuePage;
class SandboxClockDialog;

class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    explicit MainWindow(backend::BillingBackend *backend, QWidget *parent = nullptr);
    ~MainWindow() override;

    // Called once the backend is ready (migrated, demo loaded if asked).
    void connectionReady();
    void connectionFailed(const QString &message);
    void showCommandPalette();
    void showPreferences();
    // Tools ▸ Sandbox clock…: preview, then move, the sandbox's clock.
    void showSandboxClock();
    // Help ▸ User guide (F1): the installed guide in the desktop's viewer, or
    // where to find it.
    void openUserGuide();
    // Help ▸ About Meterdesk… (window-modal, deleted on close).
    AboutDialog *showAbout();
    BalancesPage *balancesPage() const { return m_balances; }
    CustomersPage *customersPage() const { return m_customers; }
    UsagePage *usagePage() const { return m_usage; }
    AuditPage *auditPage() const { return m_audit; }
    WebhooksPage *webhooksPage() const { return m_webhooks; }
    KeysPage *keysPage() const { return m_keys; }
    RevenuePage *revenuePage() const { return m_revenue; }
    models::KeyScopes *keyScopes() const { return m_scopes; }
    QLabel *failedEventsLabel() const { return m_failedLabel; }
    ProductsPage *productsPage() const { return m_products; }
    RewardsPage *rewardsPage() const { return m_rewards; }
    TenantsPage *tenantsPage() const { return m_tenants; }
    // Embedded workspaces price with a catalogue the console may replace; a
    // server prices with its own.
    void setCatalogueLoadable(bool loadable);
    void showStatus(const QString &message);
    // File ▸ Import customers…: opens the wizard (window-modal, deleted on close).
    ImportWizard *importCustomers();

Q_SIGNALS:
    // File ▸ Connect…: the console replaces this window's connection.
    void connectRequested();
    // File ▸ Load price catalogue…
    void catalogueRequested();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    // The window assembled: the pages from their table, the menus, the
    // status bar (each at most a screen long).
    void addPages();
    void addFileMenu();
    void addGoAndEditMenus();
    void addToolsViewAndHelpMenus();
    void addStatusBar();
    void relayStatusMessages();
    void addPage(const QString &title, const QString &icon, QWidget *page);
    void showPage(int index);
    void restoreState();
    void refreshPages();
    // The status bar names failed async calls, when there are any.
    void updateQueueCount();
    // What the key may not do is off, naming the scope (MainWindowScopes.cpp).
    void lockActions();
    void lockClock(SandboxClockDialog *dialog);
    void showScopes(const std::optional<QStringList> &scopes);

    backend::BillingBackend *m_backend;
    QListWidget *m_navigation;
    QStackedWidget *m_pages;
    BalancesPage *m_balances;
    CustomersPage *m_customers;
    ProductsPage *m_products;
    RewardsPage *m_rewards;
    TenantsPage *m_tenants;
    UsagePage *m_usage;
    AuditPage *m_audit;
    WebhooksPage *m_webhooks;
    KeysPage *m_keys;
    RevenuePage *m_revenue;
    models::KeyScopes *m_scopes;
    QLabel *m_readOnlyBadge;
    QLabel *m_connectionLabel;
    QLabel *m_environmentBadge;
    QLabel *m_organizationLabel;
    QLabel *m_failedLabel;
    QTimer *m_queuePoll;
    QByteArray m_restoredFilter; // applied once the connection is ready
    QString m_balancesStatus;
    QString m_auditStatus;
    QAction *m_loadCatalogue = nullptr;
    QAction *m_importAction = nullptr;
    QAction *m_importUsageAction = nullptr;
    QAction *m_promoteAction = nullptr;
    QAction *m_clockAction = nullptr;
};

} // namespace md::views
