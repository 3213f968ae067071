#include "views/RewardsPage.h"

#include "models/RewardListModel.h"
#include "services/backend/BillingBackend.h"
#include "views/RewardDialog.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QShortcut>
#include <QTableView>
#include <QVBoxLayout>

namespace md::views {

RewardsPage::RewardsPage(backend::BillingBackend *backend, QWidget *parent)
    : QWidget(parent)
    , m_backend(backend)
    , m_model(new models::RewardListModel(backend, this))
    , m_table(new QTableView(this))
    , m_undo(new QPushButton(tr("&Undo last change"), this))
    , m_status(new QLabel(this))
{
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    auto *edit = new QPushButton(tr("&Edit…"), this);
    m_undo->setEnabled(false);
    m_status->setWordWrap(true);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(edit);
    buttons->addWidget(m_undo);
    buttons->addWidget(m_status, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(m_table, 1);

    connect(edit, &QPushButton::clicked, this, &RewardsPage::editSelected);
    connect(m_table, &QTableView::doubleClicked, this, &RewardsPage::editSelected);
    auto *enter = new QShortcut(QKeySequence(Qt::Key_Return), m_table);
    enter->setContext(Qt::WidgetShortcut);
    connect(enter, &QShortcut::activated, this, &RewardsPage::editSelected);
    connect(m_undo, &QPushButton::clicked, this, &RewardsPage::undoLastChange);
    connect(m_model, &models::RewardListModel::loaded, this, [this] {
        m_table->resizeColumnsToContents();
        if (!m_table->currentIndex().isValid() && m_model->rowCount() > 0)
            m_table->selectRow(0);
    });
    connect(m_model, &models::RewardListModel::failed, this, [this](const api::ApiError &error) {
        m_status->setText(tr("Rewards could not be read: %1").arg(error.message));
    });
}

void RewardsPage::refresh()
{
    m_model->reload();
}

RewardDialog *RewardsPage::editSelected()
{
    const QModelIndex current = m_table->currentIndex();
    if (!current.isValid())
        return nullptr;
    auto *dialog = new RewardDialog(m_backend, m_model->reward(current.row()), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &RewardDialog::saved, this,
            [this](const models::Reward &before, const models::Reward &after) {
                m_lastChange = {before, after};
                m_undo->setEnabled(true);
                m_status->setText(tr("Saved %1.").arg(models::RewardEdit::id(after)));
                refresh();
            });
    dialog->open();
    return dialog;
}

void RewardsPage::undoLastChange()
{
    if (!m_lastChange)
        return;
    const auto [before, after] = *m_lastChange;
    m_undo->setEnabled(false);
    m_backend->updateReward(models::RewardEdit::undo(before, after))
        .then(this, [this, before](const api::Result<api::UpdateRewardResponse> &undone) {
            if (!undone) {
                m_undo->setEnabled(true);
                m_status->setText(tr("The change was not undone: %1").arg(undone.error().message));
                return;
            }
            m_lastChange.reset();
            m_status->setText(
                tr("Undid the last change to %1.").arg(models::RewardEdit::id(before)));
            refresh();
        });
}

} // namespace md::views
