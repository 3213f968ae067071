#include "views/usage/FailedEventsPanel.h"

#include "models/usage/FailedEventModel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QShortcut>
#include <QTableView>
#include <QVBoxLayout>

namespace md::views {

FailedEventsPanel::FailedEventsPanel(backend::BillingBackend *backend, QWidget *parent)
    : QWidget(parent)
    , m_model(new models::FailedEventModel(backend, this))
    , m_title(new QLabel(this))
    , m_table(new QTableView(this))
    , m_retry(new QPushButton(tr("&Retry"), this))
    , m_discard(new QPushButton(tr("&Discard…"), this))
    , m_status(new QLabel(this))
{
    m_table->setObjectName(QStringLiteral("failedEvents"));
    m_retry->setObjectName(QStringLiteral("retryFailed"));
    m_discard->setObjectName(QStringLiteral("discardFailed"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setColumnWidth(models::FailedEventModel::FailedColumn, 170);
    m_table->setColumnWidth(models::FailedEventModel::CustomerColumn, 160);
    m_table->setColumnWidth(models::FailedEventModel::ModelColumn, 220);
    m_retry->setToolTip(tr("Apply the selected calls again, once what stopped them is fixed"));
    m_discard->setToolTip(tr("Drop the selected calls: their usage is not recorded"));
    auto *header = new QHBoxLayout;
    header->addWidget(m_title, 1);
    header->addWidget(m_retry);
    header->addWidget(m_discard);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(header);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_status);
    auto *discardKey = new QShortcut(QKeySequence::Delete, m_table);
    discardKey->setContext(Qt::WidgetShortcut);

    connect(m_retry, &QPushButton::clicked, this, [this] { act(true); });
    connect(m_discard, &QPushButton::clicked, this, [this] { act(false); });
    connect(discardKey, &QShortcut::activated, this, [this] {
        if (m_discard->isEnabled()) // not for a key without balances:write
            act(false);
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, &FailedEventsPanel::updateState);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &FailedEventsPanel::updateState);
    connect(m_model, &models::PagedTableModel::failed, this, [this](const api::ApiError &error) {
        m_status->setText(tr("Failed events could not be read: %1").arg(error.message));
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &FailedEventsPanel::updateState);
    updateState();
}

void FailedEventsPanel::refresh()
{
    m_status->clear();
    m_model->reload();
}

QStringList FailedEventsPanel::selectedIds() const
{
    QStringList ids;
    for (const QModelIndex &row : m_table->selectionModel()->selectedRows())
        ids.append(m_model->events().at(row.row()).id);
    return ids.mid(0, api::FailedEventIds::MaxIds);
}

void FailedEventsPanel::updateState()
{
    const int rows = m_model->rowCount();
    m_title->setText(rows == 0 ? tr("<b>Failed events</b>: none; every accepted call was applied.")
                               : tr("<b>Failed events</b>: %Ln accepted call(s) could not be "
                                    "applied and are kept here.",
                                    "", rows));
    const bool selected = m_table->selectionModel()->hasSelection();
    m_retry->setEnabled(selected);
    m_discard->setEnabled(selected);
}

void FailedEventsPanel::act(bool retry)
{
    const QStringList ids = selectedIds();
    if (ids.isEmpty())
        return;
    if (!retry && QMessageBox::question(this, tr("Discard failed events"),
                                        tr("Discard %Ln call(s)? Their usage will not be recorded.",
                                           "", int(ids.size()))) != QMessageBox::Yes)
        return;
    auto reply = retry ? m_model->retry(ids) : m_model->discard(ids);
    reply.then(this, [this, retry](const api::Result<api::FailedEventOutcome> &outcome) {
        if (!outcome) {
            m_status->setText(tr("Nothing was changed: %1").arg(outcome.error().message));
            return;
        }
        const qsizetype done = outcome.value().done.size();
        m_status->setText(retry ? tr("%Ln call(s) put back to be applied.", "", int(done))
                                : tr("%Ln call(s) discarded.", "", int(done)));
        refresh();
        Q_EMIT changed();
    });
}

} // namespace md::views
