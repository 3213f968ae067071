#include "views/window/MainWindow.h"

#include "models/balances/BalanceFilter.h"
#include "models/common/AmountFormat.h"
#include "models/connection/KeyScopes.h"
#include "models/connection/WorkspaceStatus.h"
#include "models/operator/SandboxClockModel.h"
#include "views/admin/ProductsPage.h"
#include "views/admin/RewardsPage.h"
#include "views/admin/TenantsPage.h"
#include "views/balances/BalancesPage.h"
#include "views/customers/CustomersPage.h"
#include "views/import/ImportWizard.h"
#include "views/operator/AuditPage.h"
#include "views/operator/KeysPage.h"
#include "views/operator/SandboxClockDialog.h"
#include "views/operator/WebhooksPage.h"
#include "views/revenue/RevenuePage.h"
#include "views/usage/UsagePage.h"
#include "views/window/AboutDialog.h"
#include "views/window/CommandPalette.h"
#include "views/window/Translator.h"
#include "views/window/WindowPlacement.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDesktopServices>
#include <QDir>
#include <QHeaderView>
#include <QIcon>
#include <QInputDialog>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <QUrl>

#include <algorithm>

namespace md::views {

using namespace Qt::StringLiterals;

MainWindow::MainWindow(backend::BillingBackend *backend, QWidget *parent)
    : QMainWindow(parent)
    , m_backend(backend)
    , m_navigation(new QListWidget(this))
    , m_pages(new QStackedWidget(this))
    , m_balances(new BalancesPage(backend, this))
    , m_customers(new CustomersPage(backend, this))
    , m_products(new ProductsPage(backend, this))
    , m_rewards(new RewardsPage(backend, this))
    , m_tenants(new TenantsPage(backend, this))
    , m_usage(new UsagePage(backend, this))
    , m_audit(new AuditPage(backend, this))
    , m_webhooks(new WebhooksPage(backend, this))
    , m_keys(new KeysPage(backend, this))
    , m_revenue(new RevenuePage(backend, this))
    , m_scopes(new models::KeyScopes(this))
    , m_readOnlyBadge(new QLabel(this))
    , m_connectionLabel(new QLabel(this))
    , m_environmentBadge(new QLabel(this))
    , m_organizationLabel(new QLabel(this))
    , m_failedLabel(new QLabel(this))
    , m_queuePoll(new QTimer(this))
{
    setWindowTitle(tr("Meterdesk"));
    setWindowIcon(QIcon(u":/icons/meterdesk.svg"_s));
    m_navigation->setIconSize(QSize(20, 20));
    m_navigation->setObjectName(QStringLiteral("navigation"));
    m_navigation->setMaximumWidth(220);
    addPages();
    auto *splitter = new QSplitter(this);
    splitter->addWidget(m_navigation);
    splitter->addWidget(m_pages);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({160, 1100});
    setCentralWidget(splitter);
    addFileMenu();
    addGoAndEditMenus();
    addToolsViewAndHelpMenus();
    addStatusBar();
    relayStatusMessages();
    connect(m_navigation, &QListWidget::currentRowChanged, m_pages,
            &QStackedWidget::setCurrentIndex);
    m_connectionLabel->setText(tr("Opening the workspace…"));
    lockActions();
    restoreState();
}

// The sidebar's pages, in its order (Ctrl+1 … Ctrl+9, then Ctrl+0).
void MainWindow::addPages()
{
    const struct
    {
        const char *title;
        QString icon;
        QWidget *page;
    } pages[] = {
        {QT_TR_NOOP("Balances"), u"balances"_s, m_balances},
        {QT_TR_NOOP("Customers"), u"customers"_s, m_customers},
        {QT_TR_NOOP("Products"), u"products"_s, m_products},
        {QT_TR_NOOP("Rewards"), u"rewards"_s, m_rewards},
        {QT_TR_NOOP("Tenants"), u"tenants"_s, m_tenants},
        {QT_TR_NOOP("Usage"), u"usage"_s, m_usage},
        {QT_TR_NOOP("Audit"), u"audit"_s, m_audit},
        {QT_TR_NOOP("Webhooks"), u"webhooks"_s, m_webhooks},
        {QT_TR_NOOP("Keys"), u"keys"_s, m_keys},
        {QT_TR_NOOP("Revenue"), u"revenue"_s, m_revenue},
    };
    for (const auto &entry : pages)
        addPage(tr(entry.title), entry.icon, entry.page);
    // A balance's right-click ▸ Open customer: the customer, on its page.
    connect(m_balances, &BalancesPage::openCustomer, this, [this](const QString &customerId) {
        showPage(m_pages->indexOf(m_customers));
        m_customers->showCustomer(customerId);
    });
}

void MainWindow::addFileMenu()
{
    auto *fileMenu = menuBar()->addMenu(tr("&File"));
    fileMenu->setToolTipsVisible(true); // an item a key may not use says why
    fileMenu->addAction(tr("&Connect…"), QKeySequence::Open, this, &MainWindow::connectRequested);
    m_loadCatalogue =
        fileMenu->addAction(tr("Load price &catalogue…"), this, &MainWindow::catalogueRequested);
    m_importAction =
        fileMenu->addAction(tr("&Import customers…"), QKeySequence(Qt::CTRL | Qt::Key_I), this,
                            &MainWindow::importCustomers);
    m_importUsageAction = fileMenu->addAction(tr("Import &usage…"), this, [this] {
        showPage(m_pages->indexOf(m_usage));
        m_usage->importUsage();
    });
    connect(m_usage, &UsagePage::usageImported, this, &MainWindow::refreshPages);
    fileMenu->addSeparator();
    // The report of the Balances page's filter, whichever page is shown.
    fileMenu->addAction(tr("&Print balances…"), QKeySequence::Print, this, [this] {
        showPage(0);
        m_balances->print();
    });
    fileMenu->addSeparator();
    QAction *quit = fileMenu->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    quit->setMenuRole(QAction::QuitRole);
}

void MainWindow::addGoAndEditMenus()
{
    auto *goMenu = menuBar()->addMenu(tr("&Go"));
    for (int i = 0; i < m_navigation->count(); ++i) {
        QAction *go =
            goMenu->addAction(m_navigation->item(i)->text(), this, [this, i] { showPage(i); });
        go->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(i < 9 ? Qt::Key_1 + i : Qt::Key_0)));
    }
    auto *editMenu = menuBar()->addMenu(tr("&Edit"));
    editMenu->addAction(tr("&Copy rows"), QKeySequence::Copy, m_balances,
                        &BalancesPage::copySelection);
    editMenu->addAction(tr("&Find…"), QKeySequence::Find, this, [this] {
        if (m_pages->currentWidget() == m_customers) {
            m_customers->focusSearch();
            return;
        }
        showPage(0);
        m_balances->focusFilter();
    });
    editMenu->addSeparator();
    QAction *preferences =
        editMenu->addAction(tr("&Preferences…"), this, &MainWindow::showPreferences);
    preferences->setMenuRole(QAction::PreferencesRole);
}

void MainWindow::addToolsViewAndHelpMenus()
{
    auto *toolsMenu = menuBar()->addMenu(tr("&Tools"));
    toolsMenu->setToolTipsVisible(true);
    QAction *palette =
        toolsMenu->addAction(tr("Command &palette…"), this, &MainWindow::showCommandPalette);
    palette->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    auto *viewMenu = menuBar()->addMenu(tr("&View"));
    viewMenu->addAction(tr("&Refresh"), QKeySequence::Refresh, this, &MainWindow::refreshPages);
    viewMenu->addAction(m_balances->detailAction());
    toolsMenu->addAction(tr("P&rice a call…"), this, [this] {
        showPage(m_pages->indexOf(m_usage));
        m_usage->priceCall();
    });
    m_promoteAction = toolsMenu->addAction(tr("Pro&mote sandbox to production…"), this, [this] {
        showPage(m_pages->indexOf(m_products));
        m_products->promote();
    });
    m_clockAction =
        toolsMenu->addAction(tr("Sandbox &clock…"), this, &MainWindow::showSandboxClock);
    auto *helpMenu = menuBar()->addMenu(tr("&Help"));
    helpMenu->addAction(tr("&User guide"), QKeySequence::HelpContents, this,
                        &MainWindow::openUserGuide);
    helpMenu->addAction(tr("&About Meterdesk…"), this, &MainWindow::showAbout)
        ->setMenuRole(QAction::AboutRole);
    helpMenu->addAction(tr("About &Qt…"), qApp, &QApplication::aboutQt)
        ->setMenuRole(QAction::AboutQtRole);
}

// The connection, environment, organization and key's badges, and the
// failed calls' count, which opens them on the Usage page.
void MainWindow::addStatusBar()
{
    m_environmentBadge->setObjectName(QStringLiteral("environmentBadge"));
    m_environmentBadge->setMargin(2);
    statusBar()->addPermanentWidget(m_connectionLabel);
    statusBar()->addPermanentWidget(m_environmentBadge);
    statusBar()->addPermanentWidget(m_organizationLabel);
    m_readOnlyBadge->setObjectName(QStringLiteral("readOnlyBadge"));
    m_readOnlyBadge->setMargin(2);
    m_readOnlyBadge->hide();
    statusBar()->addPermanentWidget(m_readOnlyBadge);
    m_failedLabel->setObjectName(QStringLiteral("failedEvents"));
    m_failedLabel->setTextFormat(Qt::RichText);
    m_failedLabel->hide();
    statusBar()->insertPermanentWidget(0, m_failedLabel);
    connect(m_failedLabel, &QLabel::linkActivated, this, [this] {
        showPage(m_pages->indexOf(m_usage));
        m_usage->showFailedEvents();
    });
    // Calls can fail in the queue at any time: the count is looked at often.
    m_queuePoll->setInterval(15000);
    connect(m_queuePoll, &QTimer::timeout, this, &MainWindow::updateQueueCount);
    connect(m_usage, &UsagePage::failedEventsChanged, this, &MainWindow::updateQueueCount);
}

// What a page says goes to the status bar while it is shown; the row count
// speaks of the Balances page, and the Audit page's of its own.
void MainWindow::relayStatusMessages()
{
    connect(m_balances, &BalancesPage::statusMessage, this, [this](const QString &message) {
        m_balancesStatus = message;
        if (m_pages->currentWidget() == m_balances)
            statusBar()->showMessage(message);
    });
    connect(m_audit, &AuditPage::statusMessage, this, [this](const QString &message) {
        m_auditStatus = message;
        if (m_pages->currentWidget() == m_audit)
            statusBar()->showMessage(message);
    });
    connect(m_webhooks, &WebhooksPage::statusMessage, this, [this](const QString &message) {
        if (m_pages->currentWidget() == m_webhooks)
            statusBar()->showMessage(message, 15000);
    });
    connect(m_keys, &KeysPage::statusMessage, this, [this](const QString &message) {
        if (m_pages->currentWidget() == m_keys)
            statusBar()->showMessage(message, 15000);
    });
    connect(m_pages, &QStackedWidget::currentChanged, this, [this] {
        if (m_pages->currentWidget() == m_balances)
            statusBar()->showMessage(m_balancesStatus);
        else if (m_pages->currentWidget() == m_audit)
            statusBar()->showMessage(m_auditStatus);
        else
            statusBar()->clearMessage();
    });
}

MainWindow::~MainWindow() = default;

void MainWindow::showPreferences()
{
    const QStringList codes = Translator::availableLanguages();
    const QStringList names{tr("As the system"), tr("English"), tr("Deutsch")};
    auto *dialog = new QInputDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Preferences"));
    dialog->setLabelText(tr("Language (used from the next start):"));
    dialog->setComboBoxItems(names);
    dialog->setTextValue(names.value(codes.indexOf(Translator::chosenLanguage()), names.first()));
    connect(dialog, &QInputDialog::textValueSelected, this, [codes, names](const QString &name) {
        Translator::setChosenLanguage(codes.value(names.indexOf(name), codes.first()));
    });
    dialog->open();
}

void MainWindow::openUserGuide()
{
    // Installed by the package under share/doc (XDG_DATA_DIRS).
    const QString path = QStandardPaths::locate(QStandardPaths::GenericDataLocation,
                                                u"doc/meterdesk/user-guide.md"_s);
    if (!path.isEmpty() && QDesktopServices::openUrl(QUrl::fromLocalFile(path)))
        return;
    auto *missing = new QMessageBox(
        QMessageBox::Information, tr("User guide"),
        path.isEmpty()
            ? tr("The user guide is not installed on this computer. Meterdesk's package puts it "
                 "in /usr/share/doc/meterdesk/user-guide.md; in the source it is "
                 "docs/user-guide.md.")
            : tr("No program here opens %1. Open it with a text editor or a Markdown viewer.")
                  .arg(QDir::toNativeSeparators(path)),
        QMessageBox::Ok, this);
    missing->setAttribute(Qt::WA_DeleteOnClose);
    missing->open();
}

AboutDialog *MainWindow::showAbout()
{
    auto *about = new AboutDialog(m_backend, this);
    about->setAttribute(Qt::WA_DeleteOnClose);
    about->open();
    return about;
}

void MainWindow::showCommandPalette()
{
    QList<QAction *> actions;
    for (QAction *menu : menuBar()->actions())
        if (menu->menu())
            for (QAction *action : menu->menu()->actions())
                if (!action->menu())
                    actions.append(action);
    auto *palette = new CommandPalette(actions, this);
    palette->setObjectName(QStringLiteral("commandPalette"));
    palette->setAttribute(Qt::WA_DeleteOnClose);
    palette->open();
}

void MainWindow::addPage(const QString &title, const QString &icon, QWidget *page)
{
    m_pages->addWidget(page);
    // The selected row is drawn in the highlight colour: a white icon stays visible on it.
    QIcon pageIcon(u":/icons/%1.svg"_s.arg(icon));
    pageIcon.addFile(u":/icons/%1-selected.svg"_s.arg(icon), {}, QIcon::Selected);
    auto *item = new QListWidgetItem(pageIcon, title, m_navigation);
    item->setToolTip(tr("%1 (Ctrl+%2)").arg(title).arg(m_navigation->count() % 10));
}

void MainWindow::showPage(int index)
{
    m_navigation->setCurrentRow(index);
}

void MainWindow::connectionReady()
{
    models::WorkspaceStatus(m_backend).connection().then(
        this, [this](const api::Result<backend::ConnectionInfo> &info) {
            if (!info) {
                connectionFailed(info.error().message);
                return;
            }
            const backend::ConnectionInfo &c = info.value();
            const bool live = c.environment == QLatin1StringView("live");
            setWindowTitle(tr("Meterdesk: %1 (%2)").arg(c.orgSlug, c.kind));
            m_connectionLabel->setText(tr("● %1").arg(models::WorkspaceStatus::inWords(c)));
            m_connectionLabel->setToolTip(c.location);
            m_environmentBadge->setText(live ? tr(" LIVE ") : tr(" TEST "));
            // Test and live must never be confused: a coloured badge.
            m_environmentBadge->setStyleSheet(
                live ? QStringLiteral("background:#c62828;color:white;font-weight:bold")
                     : QStringLiteral("background:#ef6c00;color:white;font-weight:bold"));
            m_organizationLabel->setText(tr("org %1 (%2)").arg(c.orgSlug, c.orgName));
        });
    if (const auto filter = models::BalanceFilter::fromSerialized(m_restoredFilter))
        m_balances->setFilter(*filter, false);
    refreshPages();
}

void MainWindow::updateQueueCount()
{
    m_queuePoll->start();
    models::WorkspaceStatus(m_backend).about().then(
        this, [this](const api::Result<api::AboutInfo> &about) {
            if (!about) {
                statusBar()->showMessage(
                    tr("The track queue could not be read: %1").arg(about.error().message), 10000);
                return;
            }
            m_scopes->setOwnKeyId(about.value().keyId);
            showScopes(about.value().scopes);
            const qint64 failed = about.value().trackQueue.failed;
            m_failedLabel->setVisible(failed > 0);
            m_failedLabel->setText(
                tr("<a href=\"failed\" style=\"color:#c62828\">%Ln failed event(s)</a>", "",
                   int(std::min<qint64>(failed, INT_MAX))));
            m_failedLabel->setToolTip(
                tr("Calls accepted with the async flag that could not be applied: see Usage"));
        });
}

void MainWindow::showSandboxClock()
{
    auto *dialog = new SandboxClockDialog(m_backend, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    lockClock(dialog);
    connect(dialog, &SandboxClockDialog::advanced, this, [this](const api::ClockAdvanced &answer) {
        statusBar()->showMessage(tr("Sandbox clock moved to %1: %2")
                                     .arg(models::formatTimestamp(answer.now, locale()),
                                          models::SandboxClockModel::summary(answer.applied)));
        refreshPages();
    });
    dialog->open();
}

void MainWindow::refreshPages()
{
    updateQueueCount();
    m_balances->refresh();
    m_customers->refresh();
    m_products->refresh();
    m_rewards->refresh();
    m_tenants->refresh();
    m_usage->refresh();
    m_audit->refresh();
    m_webhooks->refresh();
    m_keys->refresh();
    m_revenue->refresh();
}

ImportWizard *MainWindow::importCustomers()
{
    auto *wizard = new ImportWizard(m_backend, this);
    wizard->setAttribute(Qt::WA_DeleteOnClose);
    connect(wizard, &QDialog::finished, this, [this, wizard] {
        if (wizard->committedAny())
            refreshPages();
    });
    wizard->open();
    return wizard;
}

void MainWindow::setCatalogueLoadable(bool loadable)
{
    m_loadCatalogue->setEnabled(loadable);
    m_loadCatalogue->setStatusTip(loadable
                                      ? tr("Price calls with a newer models.dev catalogue file")
                                      : tr("The server prices calls with its own catalogue"));
}

void MainWindow::showStatus(const QString &message)
{
    statusBar()->showMessage(message, 10000);
}

void MainWindow::connectionFailed(const QString &message)
{
    m_connectionLabel->setText(tr("Not connected: %1").arg(message));
}

void MainWindow::restoreState()
{
    QSettings settings;
    const bool restored =
        restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    if (!isMaximized() && !isFullScreen())
        WindowPlacement::fit(this, restored);
    m_balances->table()->horizontalHeader()->restoreState(
        settings.value(QStringLiteral("balances/header")).toByteArray());
    m_balances->restoreLayout(settings.value(QStringLiteral("balances/layout")).toByteArray());
    showPage(settings.value(QStringLiteral("window/page"), 0).toInt());
    if (const QByteArray views = settings.value(QStringLiteral("balances/views")).toByteArray();
        !views.isEmpty()) {
        if (auto merged = m_balances->savedViews().mergeJson(views); !merged)
            statusBar()->showMessage(
                tr("Your saved views could not be restored: %1").arg(merged.error().message));
    }
    m_restoredFilter = settings.value(QStringLiteral("balances/filter")).toByteArray();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/page"), m_navigation->currentRow());
    settings.setValue(QStringLiteral("balances/header"),
                      m_balances->table()->horizontalHeader()->saveState());
    settings.setValue(QStringLiteral("balances/layout"), m_balances->layoutState());
    event->accept();
}

} // namespace md::views
