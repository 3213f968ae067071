#include "views/balances/BalanceLedgerTab.h"

#include "models/balances/LedgerModel.h"
#include "models/common/PagedExport.h"
#include "views/balances/AdjustBalanceDialog.h"
#include "views/common/ExportFileDialog.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace md::views {

using namespace Qt::StringLiterals;
using models::LedgerModel;

BalanceLedgerTab::BalanceLedgerTab(backend::BillingBackend *backend, QWidget *parent)
    : QWidget(parent)
    , m_model(new LedgerModel(backend, this))
    , m_exporter(new models::PagedExport(
          m_model, LedgerModel::columns(),
          [model = m_model](int row) { return LedgerModel::cells(model->entry(row)); },
          tr("Ledger"), this))
    , m_state(new QLabel(this))
    , m_table(new QTableView(this))
    , m_export(new QPushButton(tr("Save ledger a&s CSV…"), this))
    , m_adjust(new QPushButton(tr("Adjust &balance…"), this))
    , m_backend(backend)
{
    m_table->setObjectName(u"ledgerTable"_s);
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_state->setObjectName(u"ledgerState"_s);
    m_state->setWordWrap(true);
    m_export->setObjectName(u"exportLedger"_s);
    m_export->setToolTip(tr("Every entry of this ledger, as CSV with exact amounts"));
    m_adjust->setObjectName(u"adjustBalance"_s);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_state, 1);
    buttons->addWidget(m_adjust);
    buttons->addWidget(m_export);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);

    connect(m_export, &QPushButton::clicked, this, &BalanceLedgerTab::chooseExport);
    connect(m_adjust, &QPushButton::clicked, this, [this] {
        if (AdjustBalanceDialog *dialog = adjustDialog())
            dialog->open();
    });
    connect(m_model, &LedgerModel::loadingChanged, this, &BalanceLedgerTab::updateState);
    connect(m_model, &LedgerModel::failed, this, &BalanceLedgerTab::updateState);
    connect(m_model, &QAbstractItemModel::modelReset, this, &BalanceLedgerTab::updateState);
    connect(m_model, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex &, int first) {
                if (first == 0)
                    m_table->resizeColumnsToContents();
            });
    // Bold rows are wider: the mark moving to other rows may need more room.
    connect(m_model, &QAbstractItemModel::dataChanged, m_table,
            &QTableView::resizeColumnsToContents);
    connect(m_exporter, &models::PagedExport::finished, this, [this](int rows) {
        m_state->setText(tr("Saved %Ln ledger entry(s).", nullptr, rows));
        Q_EMIT exported(rows);
    });
    connect(m_exporter, &models::PagedExport::failed, this, [this](const QString &message) {
        QMessageBox::warning(this, tr("Export failed"), message);
    });
    updateState();
}

void BalanceLedgerTab::showBalance(const std::optional<api::BalanceRow> &row)
{
    m_row = row;
    updateState(); // Adjust follows the selection even while the tab is hidden
    if (isVisible())
        load();
}

void BalanceLedgerTab::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    load();
}

void BalanceLedgerTab::load()
{
    if (m_row)
        m_model->show(m_row->customerId, m_row->featureId, m_row->id);
    else
        m_model->show({}, {}, {});
}

void BalanceLedgerTab::updateState()
{
    m_export->setEnabled(m_row.has_value());
    // An unlimited balance has no amount; an expired one holds nothing (docs/ledger.md).
    const bool adjustable =
        m_row && !m_row->unlimited && m_row->status == api::BalanceStatus::Active;
    m_adjust->setEnabled(adjustable);
    m_adjust->setToolTip(
        !m_row || adjustable
            ? tr("Correct this balance by hand, with the reason, for the audit log")
            : (m_row->unlimited ? tr("An unlimited balance has no amount to adjust")
                                : tr("An expired balance holds nothing to adjust")));
    if (!m_row) {
        m_state->setText(tr("Select a balance to see how it came to hold what it holds."));
        return;
    }
    const int rows = m_model->rowCount();
    if (const auto &error = m_model->lastError(); error && !m_model->isLoading())
        m_state->setText(tr("The ledger could not be loaded: %1").arg(error->message));
    else if (m_model->isLoading())
        m_state->setText(tr("Loading the ledger… %Ln entry(s) so far", nullptr, rows));
    else
        m_state->setText(tr("%Ln entry(s) for %1's %2 balances, newest first; this balance's in "
                            "bold.",
                            nullptr, rows)
                             .arg(m_row->customerId, m_row->featureId));
}

void BalanceLedgerTab::chooseExport()
{
    if (!m_row)
        return;
    const QString path =
        chooseExportFile(this, tr("Save the ledger"),
                         tr("ledger-%1-%2.csv").arg(m_row->customerId, m_row->featureId));
    if (path.isEmpty())
        return;
    if (auto started = exportTo(path); !started)
        QMessageBox::warning(this, tr("Export failed"), started.error().message);
}

AdjustBalanceDialog *BalanceLedgerTab::adjustDialog()
{
    if (!m_row)
        return nullptr;
    auto *dialog = new AdjustBalanceDialog(m_backend, *m_row, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &AdjustBalanceDialog::adjusted, this, [this](const api::LedgerEntry &entry) {
        m_model->reload(); // the new entry first
        Q_EMIT adjusted(entry);
    });
    connect(dialog, &AdjustBalanceDialog::created, this, &BalanceLedgerTab::created);
    return dialog;
}

api::Result<api::Done> BalanceLedgerTab::exportTo(const QString &path)
{
    load(); // the ledger of the balance shown, even if the tab was never opened
    auto started = m_exporter->start(path);
    if (started)
        m_state->setText(tr("Saving the ledger…"));
    return started;
}

} // namespace md::views
