// Rewards (admins): coupons and feature grants with their promo codes;
// Edit… opens the form, "Undo last change" writes back what the last save
// replaced.
#pragma once

#include "models/admin/RewardEdit.h"
#include "views/common/EditorPage.h"

namespace md::backend {
class BillingBackend;
}
namespace md::models {
class RewardListModel;
}

namespace md::views {

class RewardDialog;

class RewardsPage final : public EditorPage
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RewardsPage)

public:
    explicit RewardsPage(backend::BillingBackend *backend, QWidget *parent = nullptr);

    void refresh();
    RewardDialog *editSelected();
    models::RewardListModel *model() const { return m_model; }

protected:
    void edit() override { editSelected(); }

private:
    models::RewardListModel *m_model;
};

} // namespace md::views
