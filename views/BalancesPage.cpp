#include "views/BalancesPage.h"

#include "models/BalanceExport.h"
#include "models/BalanceListModel.h"
#include "services/backend/BillingBackend.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QCompleter>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QStackedLayout>
#include <QStringListModel>
#include <QTableView>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace md::views {

using models::BalanceFilter;

namespace {
// The plan box's data for "No plan"; no plan id can start with a control character.
const QString NoPlanChoice = QStringLiteral("\x01none");
} // namespace

BalancesPage::BalancesPage(backend::BillingBackend *backend, QWidget *parent)
    : QWidget(parent)
    , m_backend(backend)
    , m_model(new models::BalanceListModel(backend, this))
    , m_export(new models::BalanceExport(backend, this))
    , m_customer(new QLineEdit(this))
    , m_customerCompletions(new QStringListModel(this))
    , m_entity(new QLineEdit(this))
    , m_feature(new QComboBox(this))
    , m_plan(new QComboBox(this))
    , m_active(new QCheckBox(tr("&Active"), this))
    , m_expired(new QCheckBox(tr("E&xpired"), this))
    , m_viewList(new QComboBox(this))
    , m_table(new QTableView(this))
    , m_detail(new QTextBrowser(this))
    , m_states(new QStackedLayout)
    , m_message(new QLabel(this))
    , m_retry(new QPushButton(tr("&Retry"), this))
    , m_exportProgress(new QProgressBar(this))
    , m_exportLabel(new QLabel(this))
{
    m_table->setObjectName(QStringLiteral("balancesTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionsMovable(true);
    m_table->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    m_table->setWordWrap(false);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    m_detail->setObjectName(QStringLiteral("balanceDetail"));
    m_detail->setPlaceholderText(
        tr("Select a balance to see its reset, price tiers, rollovers and raw data."));
    m_detail->setLineWrapMode(QTextEdit::NoWrap);

    auto *messagePanel = new QWidget(this);
    auto *messageLayout = new QVBoxLayout(messagePanel);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    messageLayout->addStretch();
    messageLayout->addWidget(m_message);
    messageLayout->addWidget(m_retry, 0, Qt::AlignHCenter);
    messageLayout->addStretch();
    auto *tablePanel = new QWidget(this);
    m_states->addWidget(m_table);
    m_states->addWidget(messagePanel);
    tablePanel->setLayout(m_states);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(tablePanel);
    splitter->addWidget(m_detail);
    splitter->setStretchFactor(0, 4);
    splitter->setStretchFactor(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(buildFilterBar());
    layout->addWidget(splitter, 1);
    layout->addWidget(m_exportBar = buildExportBar());

    connect(m_retry, &QPushButton::clicked, this, &BalancesPage::refresh);
    connect(m_model, &models::BalanceListModel::loadingChanged, this, &BalancesPage::updateState);
    connect(m_model, &models::BalanceListModel::failed, this, &BalancesPage::updateState);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &BalancesPage::updateState);
    connect(m_model, &QAbstractItemModel::modelReset, this, &BalancesPage::updateState);
    // Size columns to the first page only: later pages must not make them jump.
    connect(m_model, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex &, int first) {
                if (first == 0 && !m_columnsSized) {
                    m_table->resizeColumnsToContents();
                    m_columnsSized = true;
                }
            });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &BalancesPage::updateDetail);
    connect(m_table->horizontalHeader(), &QWidget::customContextMenuRequested, this,
            [this](const QPoint &at) {
                QMenu menu;
                for (int column = 0; column < m_model->columnCount(); ++column) {
                    QAction *action =
                        menu.addAction(m_model->headerData(column, Qt::Horizontal).toString());
                    action->setCheckable(true);
                    action->setChecked(!m_table->isColumnHidden(column));
                    connect(action, &QAction::toggled, m_table, [this, column](bool shown) {
                        m_table->setColumnHidden(column, !shown);
                    });
                }
                menu.exec(m_table->horizontalHeader()->mapToGlobal(at));
            });
    connect(m_table, &QWidget::customContextMenuRequested, this, &BalancesPage::showRowMenu);
    connect(m_export, &models::BalanceExport::progress, this, [this](qint64 rows) {
        m_exportLabel->setText(tr("Exporting… %n row(s) written", nullptr, int(rows)));
    });
    connect(m_export, &models::BalanceExport::finished, this, [this](qint64 rows) {
        m_exportBar->hide();
        Q_EMIT statusMessage(tr("Exported %n row(s).", nullptr, int(rows)));
    });
    connect(m_export, &models::BalanceExport::canceled, this, [this] {
        m_exportBar->hide();
        Q_EMIT statusMessage(tr("Export canceled; no file was written."));
    });
    connect(m_export, &models::BalanceExport::failed, this, [this](const QString &message) {
        m_exportBar->hide();
        QMessageBox::warning(this, tr("Export failed"),
                             tr("%1\nNo file was written.").arg(message));
    });
    updateState();
}

BalancesPage::~BalancesPage() = default;

QWidget *BalancesPage::buildFilterBar()
{
    auto *bar = new QWidget(this);
    auto *row = new QHBoxLayout(bar);
    row->setContentsMargins(6, 6, 6, 0);
    const auto label = [&](const QString &text, QWidget *buddy) {
        auto *l = new QLabel(text, bar);
        l->setBuddy(buddy);
        row->addWidget(l);
        row->addWidget(buddy);
    };
    m_customer->setObjectName(QStringLiteral("customerFilter"));
    m_customer->setPlaceholderText(tr("all customers"));
    m_customer->setClearButtonEnabled(true);
    auto *completer = new QCompleter(m_customerCompletions, this);
    completer->setCaseSensitivity(Qt::CaseInsensitive);
    completer->setFilterMode(Qt::MatchContains);
    m_customer->setCompleter(completer);
    m_entity->setObjectName(QStringLiteral("entityFilter"));
    m_entity->setPlaceholderText(tr("all entities"));
    m_entity->setEnabled(false);
    m_entity->setToolTip(tr("Choose a customer first: entities belong to one customer."));
    m_feature->setObjectName(QStringLiteral("featureFilter"));
    m_plan->setObjectName(QStringLiteral("planFilter"));
    m_active->setChecked(true);
    m_viewList->setObjectName(QStringLiteral("viewList"));
    m_viewList->setToolTip(tr("Saved views"));
    label(tr("&Customer"), m_customer);
    label(tr("E&ntity"), m_entity);
    label(tr("&Feature"), m_feature);
    label(tr("&Plan"), m_plan);
    row->addWidget(m_active);
    row->addWidget(m_expired);
    row->addStretch();
    label(tr("&View"), m_viewList);
    auto *viewMenu = new QToolButton(bar);
    viewMenu->setText(tr("Views"));
    viewMenu->setPopupMode(QToolButton::InstantPopup);
    auto *menu = new QMenu(viewMenu);
    menu->addAction(tr("&Save current filter as view…"), this, &BalancesPage::saveView);
    menu->addAction(tr("&Delete selected view"), this, [this] {
        m_views.remove(m_viewList->currentText());
        refreshViewList();
    });
    menu->addSeparator();
    menu->addAction(tr("&Export views…"), this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Export views"), QString(), tr("Views (*.json)"));
        if (path.isEmpty())
            return;
        if (auto written = m_views.writeFile(path); !written)
            QMessageBox::warning(this, tr("Export views"), written.error().message);
    });
    menu->addAction(tr("&Import views…"), this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Import views"), QString(), tr("Views (*.json)"));
        if (path.isEmpty())
            return;
        if (auto merged = m_views.mergeFile(path); !merged)
            QMessageBox::warning(this, tr("Import views"),
                                 tr("%1 was not imported: %2").arg(path, merged.error().message));
        else
            refreshViewList();
    });
    viewMenu->setMenu(menu);
    row->addWidget(viewMenu);
    auto *exportButton = new QPushButton(tr("Export…"), bar);
    exportButton->setToolTip(tr("Write every balance of this filter to a CSV file"));
    row->addWidget(exportButton);
    connect(exportButton, &QPushButton::clicked, this, &BalancesPage::chooseExport);

    // Typing settles for a moment before the list is asked again.
    auto *debounce = new QTimer(this);
    debounce->setSingleShot(true);
    debounce->setInterval(250);
    connect(debounce, &QTimer::timeout, this, &BalancesPage::applyFilter);
    connect(m_customer, &QLineEdit::textEdited, debounce, qOverload<>(&QTimer::start));
    connect(m_customer, &QLineEdit::textEdited, this, &BalancesPage::completeCustomers);
    connect(m_customer, &QLineEdit::textChanged, this,
            [this](const QString &text) { m_entity->setEnabled(!text.trimmed().isEmpty()); });
    connect(completer, qOverload<const QString &>(&QCompleter::activated), this,
            &BalancesPage::applyFilter);
    connect(m_customer, &QLineEdit::returnPressed, this, &BalancesPage::applyFilter);
    connect(m_entity, &QLineEdit::textEdited, debounce, qOverload<>(&QTimer::start));
    connect(m_feature, &QComboBox::activated, this, &BalancesPage::applyFilter);
    connect(m_plan, &QComboBox::activated, this, &BalancesPage::applyFilter);
    connect(m_active, &QCheckBox::toggled, this, &BalancesPage::applyFilter);
    connect(m_expired, &QCheckBox::toggled, this, &BalancesPage::applyFilter);
    connect(m_viewList, &QComboBox::activated, this, [this] {
        if (const auto filter = m_views.find(m_viewList->currentText()))
            setFilter(*filter);
    });
    m_feature->addItem(tr("All features"), QString());
    m_plan->addItem(tr("Any plan"), QString());
    m_plan->addItem(tr("No plan"), NoPlanChoice);
    return bar;
}

QWidget *BalancesPage::buildExportBar()
{
    auto *bar = new QWidget(this);
    auto *row = new QHBoxLayout(bar);
    row->setContentsMargins(6, 0, 6, 6);
    m_exportProgress->setRange(0, 0); // the total is known only at the end
    m_exportProgress->setMaximumWidth(200);
    auto *cancel = new QPushButton(tr("&Cancel export"), bar);
    cancel->setObjectName(QStringLiteral("cancelExport"));
    row->addWidget(m_exportLabel);
    row->addWidget(m_exportProgress);
    row->addWidget(cancel);
    row->addStretch();
    connect(cancel, &QPushButton::clicked, m_export, &models::BalanceExport::cancel);
    bar->hide();
    return bar;
}

BalanceFilter BalancesPage::filter() const
{
    BalanceFilter filter;
    filter.customerId = m_customer->text().trimmed();
    filter.entityId = m_entity->isEnabled() ? m_entity->text().trimmed() : QString();
    filter.featureId = m_feature->currentData().toString();
    const QString plan = m_plan->currentData().toString();
    filter.planMode = plan.isEmpty()         ? BalanceFilter::PlanMode::Any
                      : plan == NoPlanChoice ? BalanceFilter::PlanMode::NoPlan
                                             : BalanceFilter::PlanMode::Plan;
    filter.planId = filter.planMode == BalanceFilter::PlanMode::Plan ? plan : QString();
    filter.active = m_active->isChecked();
    filter.expired = m_expired->isChecked();
    return filter;
}

void BalancesPage::setFilter(const BalanceFilter &filter, bool apply)
{
    const QSignalBlocker blockActive(m_active);
    const QSignalBlocker blockExpired(m_expired);
    m_customer->setText(filter.customerId);
    m_entity->setText(filter.entityId);
    const auto select = [](QComboBox *box, const QString &value) {
        int index = box->findData(value);
        if (index < 0) {
            box->addItem(value, value); // a choice from a saved view not loaded yet
            index = box->count() - 1;
        }
        box->setCurrentIndex(index);
    };
    select(m_feature, filter.featureId);
    select(m_plan, filter.planMode == BalanceFilter::PlanMode::Any      ? QString()
                   : filter.planMode == BalanceFilter::PlanMode::NoPlan ? NoPlanChoice
                                                                        : filter.planId);
    m_active->setChecked(filter.active);
    m_expired->setChecked(filter.expired);
    if (apply)
        applyFilter();
}

void BalancesPage::applyFilter()
{
    const auto request = filter().request();
    if (!request) {
        m_message->setText(request.error().message);
        m_retry->hide();
        m_states->setCurrentIndex(1);
        return;
    }
    if (request.value() == m_model->request() && m_model->rowCount() > 0)
        return;
    m_model->setRequest(request.value());
}

void BalancesPage::refresh()
{
    reloadChoices();
    refreshViewList();
    if (const auto request = filter().request())
        m_model->setRequest(request.value());
}

void BalancesPage::focusFilter()
{
    m_customer->setFocus(Qt::ShortcutFocusReason);
    m_customer->selectAll();
}

void BalancesPage::reloadChoices()
{
    m_backend->listFeatures().then(
        this, [this](const api::Result<api::Page<api::FeatureInfo>> &features) {
            if (!features)
                return;
            const QString current = m_feature->currentData().toString();
            m_feature->clear();
            m_feature->addItem(tr("All features"), QString());
            for (const api::FeatureInfo &feature : features.value().list)
                m_feature->addItem(tr("%1 (%2)").arg(feature.name, feature.id), feature.id);
            m_feature->setCurrentIndex(std::max(0, m_feature->findData(current)));
        });
    m_backend->listProducts().then(
        this, [this](const api::Result<api::Page<api::Product>> &products) {
            if (!products)
                return;
            const QString current = m_plan->currentData().toString();
            m_plan->clear();
            m_plan->addItem(tr("Any plan"), QString());
            m_plan->addItem(tr("No plan"), NoPlanChoice);
            for (const api::Product &product : products.value().list)
                if (m_plan->findData(product.id) < 0)
                    m_plan->addItem(product.name, product.id);
            m_plan->setCurrentIndex(std::max(0, m_plan->findData(current)));
        });
}

void BalancesPage::completeCustomers(const QString &text)
{
    api::PageRequest request;
    request.search = text.trimmed();
    m_backend->listCustomers(request).then(
        this, [this](const api::Result<api::Page<api::CustomerSummary>> &page) {
            if (!page)
                return;
            QStringList ids;
            for (const api::CustomerSummary &customer : page.value().list)
                ids.append(customer.id);
            m_customerCompletions->setStringList(ids);
        });
}

void BalancesPage::saveView()
{
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Save view"), tr("Name of the view:"),
                                               QLineEdit::Normal, m_viewList->currentText(), &ok)
                             .trimmed();
    if (!ok || name.isEmpty())
        return;
    m_views.save(name, filter());
    refreshViewList();
    m_viewList->setCurrentText(name);
}

void BalancesPage::refreshViewList()
{
    m_viewList->clear();
    for (const models::SavedViews::View &view : m_views.views())
        m_viewList->addItem(view.name);
}

void BalancesPage::chooseExport()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export balances"),
                                                      tr("balances.csv"), tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    if (auto started = exportTo(path); !started)
        QMessageBox::warning(this, tr("Export failed"), started.error().message);
}

api::Result<api::Done> BalancesPage::exportTo(const QString &path)
{
    const auto request = filter().request();
    if (!request)
        return request.error();
    if (auto started = m_export->start(request.value(), path); !started)
        return started;
    m_exportLabel->setText(tr("Exporting…"));
    m_exportBar->show();
    return api::Done{};
}

void BalancesPage::copySelection() const
{
    QStringList lines;
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    for (const QModelIndex &row : rows) {
        QStringList cells;
        for (int column = 0; column < m_model->columnCount(); ++column)
            if (!m_table->isColumnHidden(column))
                cells.append(m_model->index(row.row(), column).data().toString());
        lines.append(cells.join(u'\t'));
    }
    QGuiApplication::clipboard()->setText(lines.join(u'\n'));
}

void BalancesPage::showRowMenu(const QPoint &at)
{
    const QModelIndex index = m_table->indexAt(at);
    if (!index.isValid())
        return;
    const api::BalanceRow row = m_model->balance(index.row());
    QMenu menu;
    menu.addAction(tr("&Copy"), this, &BalancesPage::copySelection);
    menu.addSeparator();
    menu.addAction(tr("Only customer %1").arg(row.customerId), this, [this, row] {
        BalanceFilter narrowed = filter();
        narrowed.customerId = row.customerId;
        narrowed.entityId.clear();
        setFilter(narrowed);
    });
    menu.addAction(tr("Only feature %1").arg(row.featureId), this, [this, row] {
        BalanceFilter narrowed = filter();
        narrowed.featureId = row.featureId;
        setFilter(narrowed);
    });
    menu.addAction(row.planId ? tr("Only plan %1").arg(*row.planId)
                              : tr("Only balances without a plan"),
                   this, [this, row] {
                       BalanceFilter narrowed = filter();
                       narrowed.planMode = row.planId ? BalanceFilter::PlanMode::Plan
                                                      : BalanceFilter::PlanMode::NoPlan;
                       narrowed.planId = row.planId.value_or(QString());
                       setFilter(narrowed);
                   });
    menu.addSeparator();
    menu.addAction(tr("&Open customer"), this,
                   [this, row] { Q_EMIT openCustomer(row.customerId); });
    menu.exec(m_table->viewport()->mapToGlobal(at));
}

void BalancesPage::updateDetail()
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    m_detail->setPlainText(current.isValid()
                               ? current.data(models::BalanceListModel::DetailRole).toString()
                               : QString());
}

void BalancesPage::updateState()
{
    const int rows = m_model->rowCount();
    if (const auto &error = m_model->lastError(); error && rows == 0) {
        m_message->setText(tr("Balances could not be loaded: %1").arg(error->message));
        m_retry->show();
        m_states->setCurrentIndex(1);
    } else if (rows == 0 && !m_model->isLoading() && !m_model->hasMore()) {
        m_message->setText(tr("No balances match. Clear the filters or load a workspace."));
        m_retry->hide();
        m_states->setCurrentIndex(1);
    } else {
        m_states->setCurrentIndex(0);
    }
    if (m_model->isLoading())
        Q_EMIT statusMessage(tr("Loading balances… %n row(s) so far", nullptr, rows));
    else if (m_model->hasMore())
        Q_EMIT statusMessage(tr("%n row(s), more on scroll", nullptr, rows));
    else
        Q_EMIT statusMessage(tr("%n row(s)", nullptr, rows));
}

} // namespace md::views
