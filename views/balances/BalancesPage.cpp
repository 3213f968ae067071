#include "views/balances/BalancesPage.h"

#include "models/balances/BalanceExport.h"
#include "models/balances/BalanceListModel.h"
#include "models/balances/BalanceTotalsModel.h"
#include "models/common/AmountFormat.h"
#include "views/balances/BalanceDetailPane.h"
#include "views/balances/BalanceExportBar.h"
#include "views/balances/BalanceFilterBar.h"
#include "views/balances/BalanceTotalsBar.h"
#include "views/common/ExportFileDialog.h"
#include "views/common/RowTableView.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDataStream>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPrintDialog>
#include <QPrinter>
#include <QPushButton>
#include <QSplitter>
#include <QStackedLayout>
#include <QTableView>
#include <QVBoxLayout>

namespace md::views {

using models::BalanceFilter;

BalancesPage::BalancesPage(backend::BillingBackend *backend, QWidget *parent)
    : QWidget(parent)
    , m_model(new models::BalanceListModel(backend, this))
    , m_totals(new models::BalanceTotalsModel(backend, this))
    , m_export(new models::BalanceExport(backend, this))
    , m_filterBar(new BalanceFilterBar(backend, this))
    , m_totalsBar(new BalanceTotalsBar(m_totals, this))
    , m_table(new RowTableView(this))
    , m_detail(new BalanceDetailPane(backend, this))
    , m_splitter(new QSplitter(Qt::Vertical, this))
    , m_showDetail(new QAction(tr("Show balance &detail"), this))
    , m_states(new QStackedLayout)
    , m_message(new QLabel(this))
    , m_retry(new QPushButton(tr("&Retry"), this))
    , m_exportBar(new BalanceExportBar(m_export, this))
{
    m_table->setObjectName(QStringLiteral("balancesTable"));
    m_table->setModel(m_model);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionsMovable(true);
    m_table->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    m_table->horizontalHeader()->setSectionsClickable(true);
    m_table->horizontalHeader()->setSortIndicatorShown(true);
    connect(m_table->horizontalHeader(), &QHeaderView::sectionClicked, this, &BalancesPage::sortBy);
    m_table->setWordWrap(false);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);

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

    // The table first: on a small screen the panes give way to it, and each
    // can be dragged shut (or the detail hidden with Ctrl+Shift+D).
    m_splitter->setObjectName(QStringLiteral("balancesSplitter"));
    m_splitter->addWidget(tablePanel);
    m_splitter->addWidget(m_totalsBar->groupsView());
    m_splitter->addWidget(m_detail);
    m_splitter->setCollapsible(0, false);
    m_splitter->setStretchFactor(0, 4);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setStretchFactor(2, 2);
    m_showDetail->setObjectName(QStringLiteral("showBalanceDetail"));
    m_showDetail->setCheckable(true);
    m_showDetail->setChecked(true);
    m_showDetail->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    m_showDetail->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(m_showDetail);
    connect(m_showDetail, &QAction::toggled, m_detail, &QWidget::setVisible);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_filterBar);
    layout->addWidget(m_splitter, 1);
    layout->addWidget(m_totalsBar);
    layout->addWidget(m_exportBar);

    connect(m_retry, &QPushButton::clicked, this, &BalancesPage::refresh);
    connect(m_filterBar, &BalanceFilterBar::edited, this, &BalancesPage::applyFilter);
    connect(m_filterBar, &BalanceFilterBar::edited, this,
            &BalancesPage::showOrder); // a saved view's
    connect(m_filterBar, &BalanceFilterBar::exportRequested, this, &BalancesPage::chooseExport);
    connect(m_filterBar, &BalanceFilterBar::statusMessage, this, &BalancesPage::statusMessage);
    connect(m_model, &models::BalanceListModel::loadingChanged, this, &BalancesPage::updateState);
    connect(m_model, &models::BalanceListModel::failed, this, &BalancesPage::updateState);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &BalancesPage::updateState);
    connect(m_model, &QAbstractItemModel::modelReset, this, &BalancesPage::updateState);
    // A hand adjustment shows in its row at once (and so in the detail) and
    // in the totals, asked again.
    connect(m_detail, &BalanceDetailPane::adjusted, this, [this](const api::LedgerEntry &entry) {
        m_model->applyAdjustment(entry);
        m_totals->reload();
    });
    // A new balance has its place in the listing's order: the table is read again.
    connect(m_detail, &BalanceDetailPane::created, this, [this](const api::LedgerEntry &entry) {
        refresh();
        Q_EMIT statusMessage(tr("Made balance %1: %2 of %3 for %4; it does not reset.")
                                 .arg(entry.balanceId,
                                      models::formatAmount(entry.balanceAfter, locale()),
                                      entry.featureId, entry.customerId));
    });
    connect(m_totals, &models::BalanceTotalsModel::loadingChanged, this,
            &BalancesPage::updateState);
    // Size columns to the first page's rows once they are in (not to the
    // "…" of rows on their way, which left amounts elided): later pages must
    // not make them jump.
    const auto sizeColumnsOnce = [this] {
        if (m_columnsSized || m_model->rowCount() == 0 || !m_model->isLoaded(0))
            return;
        m_table->resizeColumnsToContents();
        m_columnsSized = true;
    };
    connect(m_model, &QAbstractItemModel::rowsInserted, this, sizeColumnsOnce);
    connect(m_model, &QAbstractItemModel::dataChanged, this, sizeColumnsOnce);
    connect(m_model, &QAbstractItemModel::modelReset, this, sizeColumnsOnce);
    connect(m_table, &RowTableView::recordSelectionChanged, this, &BalancesPage::updateDetail);
    // A row chosen before its page came (Ctrl+End on a long table) is shown
    // when it comes, and a row changed under the selection is shown anew.
    connect(m_model, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex &top, const QModelIndex &bottom) {
                const int selected = m_table->selectedRecordRow();
                if (selected >= top.row() && selected <= bottom.row())
                    updateDetail();
            });
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
    connect(m_exportBar, &BalanceExportBar::statusMessage, this, &BalancesPage::statusMessage);
    showOrder();
    updateState();
}

BalancesPage::~BalancesPage() = default;

BalanceFilter BalancesPage::filter() const
{
    return m_filterBar->filter();
}

void BalancesPage::sortBy(int column)
{
    const BalanceFilter now = filter();
    const auto order = models::BalanceListModel::orderOf(column);
    if (!order) {
        showOrder(); // the header moved its arrow: put it back
        return Q_EMIT statusMessage(
            tr("The table sorts by Customer, Remaining, Usage or Next reset: click one of those."));
    }
    m_filterBar->setOrder(*order, *order == now.orderBy && !now.descending);
    showOrder();
    applyFilter();
}

void BalancesPage::showOrder()
{
    const BalanceFilter now = filter();
    m_table->horizontalHeader()->setSortIndicator(models::BalanceListModel::columnOf(now.orderBy),
                                                  now.descending ? Qt::DescendingOrder
                                                                 : Qt::AscendingOrder);
}

void BalancesPage::setFilter(const BalanceFilter &filter, bool apply)
{
    m_filterBar->setFilter(filter);
    showOrder();
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
    m_totals->setFilter(request.value());
    if (request.value() == m_model->request() && m_model->rowCount() > 0)
        return;
    m_model->setRequest(request.value());
}

void BalancesPage::refresh()
{
    m_filterBar->reloadChoices();
    m_filterBar->refreshViewList();
    if (const auto request = filter().request()) {
        m_model->setRequest(request.value());
        m_totals->setFilter(request.value(), true);
    }
}

models::SavedViews &BalancesPage::savedViews()
{
    return m_filterBar->savedViews();
}

void BalancesPage::focusFilter()
{
    m_filterBar->focusCustomer();
}

void BalancesPage::chooseExport()
{
    const QString path = chooseExportFile(this, tr("Export balances"), tr("balances.csv"), true);
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
    if (auto started = m_export->start(request.value(), path, m_totals->groupBy()); !started)
        return started;
    m_exportBar->started(models::BalanceExport::isReportPath(path)
                             ? BalanceExportBar::Making::Report
                             : BalanceExportBar::Making::Files);
    return api::Done{};
}

void BalancesPage::print()
{
    auto printer = std::make_shared<QPrinter>(QPrinter::HighResolution);
    printer->setPageOrientation(QPageLayout::Landscape);
    printer->setDocName(tr("Balances report"));
    QPrintDialog dialog(printer.get(), this);
    dialog.setWindowTitle(tr("Print balances"));
    if (dialog.exec() != QDialog::Accepted)
        return;
    if (auto started = printTo(printer); !started)
        QMessageBox::warning(this, tr("Print failed"), started.error().message);
}

api::Result<api::Done> BalancesPage::printTo(std::shared_ptr<QPrinter> printer)
{
    const auto request = filter().request();
    if (!request)
        return request.error();
    if (auto started =
            m_export->startReport(request.value(), std::move(printer), m_totals->groupBy());
        !started)
        return started;
    m_exportBar->started(BalanceExportBar::Making::Printout);
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

QTableView *BalancesPage::table() const
{
    return m_table;
}

QByteArray BalancesPage::layoutState() const
{
    QByteArray state;
    QDataStream out(&state, QIODevice::WriteOnly);
    out << m_splitter->saveState() << m_showDetail->isChecked();
    return state;
}

void BalancesPage::restoreLayout(const QByteArray &state)
{
    QDataStream in(state);
    QByteArray sizes;
    bool detail = true;
    in >> sizes >> detail;
    if (in.status() != QDataStream::Ok)
        return;
    m_splitter->restoreState(sizes);
    m_showDetail->setChecked(detail);
}

// The detail shows the one row the user sees selected: never the focus
// alone, which Ctrl with an arrow key moves without the highlight.
void BalancesPage::updateDetail()
{
    const int row = m_table->selectedRecordRow();
    if (row >= 0)
        m_detail->showBalance(m_model->balanceAt(row));
    else
        m_detail->showNone(m_table->selectedRowCount());
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
        Q_EMIT statusMessage(tr("Loading balances… %Ln row(s) so far", nullptr, rows));
    else if (m_model->hasMore() && m_totals->totals())
        Q_EMIT statusMessage(tr("%L1 of %Ln row(s) loaded, more on scroll", nullptr,
                                int(m_totals->totals()->total.balances))
                                 .arg(rows));
    else if (m_model->hasMore())
        Q_EMIT statusMessage(tr("%Ln row(s), more on scroll", nullptr, rows));
    else
        Q_EMIT statusMessage(tr("%Ln row(s)", nullptr, rows));
}

} // namespace md::views
