#include "views/admin/RewardsPage.h"

#include "models/admin/RewardListModel.h"
#include "views/admin/RewardDialog.h"

#include <QLabel>
#include <QTableView>

namespace md::views {

RewardsPage::RewardsPage(backend::BillingBackend *backend, QWidget *parent)
    : EditorPage(new models::RewardListModel(backend), tr("Rewards could not be read: %1"), parent)
    , m_model(static_cast<models::RewardListModel *>(table()->model()))
{}

void RewardsPage::refresh()
{
    m_model->reload();
}

RewardDialog *RewardsPage::editSelected()
{
    const QModelIndex current = table()->currentIndex();
    if (!current.isValid())
        return nullptr;
    auto *dialog = new RewardDialog(m_model, m_model->reward(current.row()), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &RewardDialog::saved, this,
            [this](const models::Reward &before, const models::Reward &after) {
                m_model->remember(before, after);
                saved(tr("Saved %1.").arg(models::RewardEdit::id(after)));
                refresh();
            });
    dialog->open();
    return dialog;
}

} // namespace md::views
