#include "views/customers/CustomersPage.h"

#include "views/common/ExportButton.h"
#include "views/customers/CustomerChargesTab.h"
#include "views/customers/CustomerControlsTab.h"
#include "views/customers/StripeDriftDialog.h"
#include "views/usage/UsagePage.h"

#include "models/common/AmountFormat.h"
#include "models/common/PagedExport.h"
#include "models/customers/CustomerBalancesModel.h"
#include "models/customers/CustomerListModel.h"

#include <QDesktopServices>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

namespace md::views {

CustomersPage::CustomersPage(backend::BillingBackend *backend, QWidget *parent)
    : QWidget(parent)
    , m_list(new models::CustomerListModel(backend, this))
    , m_balances(new models::CustomerBalancesModel(this))
    , m_search(new QLineEdit(this))
    , m_table(new QTableView(this))
    , m_tabs(new QTabWidget(this))
    , m_overview(new QLabel(this))
    , m_balanceTree(new QTreeView(this))
    , m_subscriptions(new QTableWidget(this))
    , m_flags(new QListWidget(this))
    , m_usage(new UsagePage(backend, this))
    , m_controls(new CustomerControlsTab(backend, this))
    , m_charges(new CustomerChargesTab(backend, this))
    , m_portal(new QPushButton(tr("Open &billing portal"), this))
    , m_drift(new QPushButton(tr("Check against Stri&pe…"), this))
    , m_exportState(new QLabel(this))
    , m_export(new ExportButton(
          tr("Export &customers…"),
          new models::PagedExport(
              m_list, models::CustomerListModel::columns(),
              [list = m_list](int row) {
                  return models::CustomerListModel::cells(list->customer(row));
              },
              tr("Customers"), this),
          tr("Export customers"), [] { return tr("customers.csv"); }, m_exportState, this))
{
    m_export->setObjectName(QStringLiteral("exportCustomers"));
    m_search->setObjectName(QStringLiteral("customerSearch"));
    m_search->setPlaceholderText(tr("Search id, name or email"));
    m_search->setClearButtonEnabled(true);
    m_table->setObjectName(QStringLiteral("customerTable"));
    m_table->setModel(m_list);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    m_overview->setObjectName(QStringLiteral("customerOverview"));
    m_overview->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_overview->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_overview->setWordWrap(true);
    m_overview->setMargin(8);
    m_overview->setText(
        tr("Select a customer to see their identity, balances, subscriptions and flags."));
    m_balanceTree->setModel(m_balances);
    m_subscriptions->setColumnCount(7);
    m_subscriptions->setHorizontalHeaderLabels({tr("Plan"), tr("Status"), tr("Started"),
                                                tr("Current period"), tr("Trial ends"),
                                                tr("Quantity"), tr("Add-on")});
    m_subscriptions->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_subscriptions->verticalHeader()->hide();
    m_portal->setObjectName(QStringLiteral("openPortal"));
    m_drift->setObjectName(QStringLiteral("checkStripe"));
    m_drift->setToolTip(tr("Compare the plans imported from Stripe subscriptions with Stripe "
                           "now: the selected customer's, or every customer's when none is "
                           "selected"));
    m_portal->setEnabled(false);

    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(6, 6, 0, 6);
    leftLayout->addWidget(m_search);
    leftLayout->addWidget(m_table);
    auto *exportRow = new QHBoxLayout;
    exportRow->addWidget(m_exportState, 1);
    exportRow->addWidget(m_drift);
    exportRow->addWidget(m_export);
    leftLayout->addLayout(exportRow);
    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 6, 6, 6);
    m_tabs->addTab(m_overview, tr("&Overview"));
    m_tabs->addTab(m_balanceTree, tr("B&alances"));
    m_tabs->addTab(m_subscriptions, tr("&Subscriptions"));
    m_tabs->addTab(m_flags, tr("F&lags"));
    m_usage->showOnlyCustomer(QString());
    m_tabs->addTab(m_usage, tr("&Usage"));
    m_tabs->addTab(m_controls, tr("Co&ntrols"));
    m_tabs->addTab(m_charges, tr("C&harges"));
    rightLayout->addWidget(m_tabs);
    auto *buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(m_portal);
    rightLayout->addLayout(buttons);
    auto *splitter = new QSplitter(this);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({460, 740});
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    auto *debounce = new QTimer(this);
    debounce->setSingleShot(true);
    debounce->setInterval(250);
    connect(m_search, &QLineEdit::textEdited, debounce, qOverload<>(&QTimer::start));
    connect(debounce, &QTimer::timeout, this, [this] { m_list->setSearch(m_search->text()); });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (current.isValid())
                    showCustomer(m_list->customer(current.row()).id);
            });
    connect(m_portal, &QPushButton::clicked, this, &CustomersPage::openPortal);
    connect(m_drift, &QPushButton::clicked, this, [this, backend] {
        auto *dialog = new StripeDriftDialog(
            backend, m_customer ? std::optional(m_customer->id) : std::nullopt, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    connect(m_list, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex &, int first) {
                if (first == 0)
                    m_table->resizeColumnsToContents();
            });
}

CustomersPage::~CustomersPage() = default;

void CustomersPage::refresh()
{
    m_list->setSearch(m_search->text());
}

void CustomersPage::focusSearch()
{
    m_search->setFocus(Qt::ShortcutFocusReason);
    m_search->selectAll();
}

void CustomersPage::showCustomer(const QString &customerId)
{
    const quint64 request = ++m_request;
    m_overview->setText(tr("Loading %1…").arg(customerId.toHtmlEscaped()));
    m_list->details(customerId)
        .then(this, [this, request, customerId](const api::Result<api::Customer> &customer) {
            if (request != m_request)
                return;
            if (!customer) {
                m_customer.reset();
                m_portal->setEnabled(false);
                m_overview->setText(
                    tr("%1 could not be loaded: %2")
                        .arg(customerId.toHtmlEscaped(), customer.error().message.toHtmlEscaped()));
                return;
            }
            present(customer.value());
        });
}

void CustomersPage::present(const api::Customer &customer)
{
    m_customer = customer;
    m_usage->showOnlyCustomer(customer.id);
    m_controls->setCustomer(customer.id);
    m_charges->setCustomer(customer.id);
    QString processors;
    for (auto it = customer.processors.cbegin(); it != customer.processors.cend(); ++it)
        processors += tr("%1: %2<br>").arg(it.key().toHtmlEscaped(), it.value().toHtmlEscaped());
    QString metadata;
    for (qsizetype i = 0; i < customer.metadata.size(); ++i) {
        const api::JsonValue &value = customer.metadata.at(i);
        const QString text =
            value.isString() ? value.toString() : QString::fromUtf8(value.toJson());
        metadata +=
            tr("%1: %2<br>").arg(customer.metadata.keyAt(i).toHtmlEscaped(), text.toHtmlEscaped());
    }
    m_overview->setText(
        tr("<h3>%1</h3><p>%2<br>%3</p><p><b>Created</b> %4<br><b>Environment</b> %5<br><b>Email "
           "receipts</b> %6</p>"
           "<p><b>Processors</b><br>%7</p><p><b>Metadata</b><br>%8</p>"
           "<p><b>Pooled balances</b> %9<br><b>Overage billing</b> %10</p>")
            .arg(customer.name.toHtmlEscaped(), customer.id.toHtmlEscaped(),
                 customer.email.toHtmlEscaped(), models::formatTimestamp(customer.createdAt),
                 customer.env == api::Environment::Sandbox ? tr("test (sandbox)")
                                                           : tr("live (production)"),
                 customer.sendEmailReceipts ? tr("on") : tr("off"),
                 processors.isEmpty() ? tr("none") : processors,
                 metadata.isEmpty() ? tr("none") : metadata,
                 customer.config.disablePooledBalance ? tr("disabled") : tr("enabled"),
                 customer.config.disableOverageBilling ? tr("disabled") : tr("enabled")));
    m_balances->setCustomer(customer);
    m_balanceTree->expandAll();
    m_balanceTree->header()->resizeSections(QHeaderView::ResizeToContents);
    m_subscriptions->setRowCount(int(customer.subscriptions.size()));
    for (int row = 0; row < customer.subscriptions.size(); ++row) {
        const api::Subscription &s = customer.subscriptions.at(row);
        const QStringList cells{s.planId,
                                QString(api::toWire(s.status)),
                                models::formatDate(s.startedAt),
                                tr("%1 – %2").arg(models::formatDate(s.currentPeriodStart),
                                                  models::formatDate(s.currentPeriodEnd)),
                                s.trialEndsAt ? models::formatDate(*s.trialEndsAt) : QString(),
                                models::formatAmount(s.quantity, QLocale(), 0),
                                s.addOn ? tr("yes") : tr("no")};
        for (int column = 0; column < cells.size(); ++column)
            m_subscriptions->setItem(row, column, new QTableWidgetItem(cells.at(column)));
    }
    m_flags->clear();
    for (const api::CustomerFlag &flag : customer.flags)
        m_flags->addItem(tr("%1 (%2)").arg(flag.featureId, flag.planId.value_or(tr("no plan"))));
    if (customer.flags.isEmpty())
        m_flags->addItem(tr("No flags."));
    m_portal->setEnabled(true);
    Q_EMIT customerShown(customer.id);
}

void CustomersPage::openPortal()
{
    if (!m_customer)
        return;
    m_list->portalLink(m_customer->id)
        .then(this, [this](const api::Result<api::BillingPortalResponse> &portal) {
            if (!portal) {
                QMessageBox::information(
                    this, tr("Billing portal"),
                    tr("The billing portal could not be opened: %1").arg(portal.error().message));
                return;
            }
            QDesktopServices::openUrl(QUrl(portal.value().url));
        });
}

} // namespace md::views
