// Rewards (admins): coupons and feature grants with their promo codes;
// Edit… opens the form, "Undo last change" writes back what the last save
// replaced.
#pragma once

#include "models/RewardEdit.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace md::backend {
class BillingBackend;
}
namespace md::models {
class RewardListModel;
}

namespace md::views {

class RewardDialog;

class RewardsPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RewardsPage)

public:
    explicit RewardsPage(backend::BillingBackend *backend, QWidget *parent = nullptr);

    void refresh();
    RewardDialog *editSelected();
    void undoLastChange();
    models::RewardListModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QPushButton *undoButton() const { return m_undo; }
    QLabel *status() const { return m_status; }

private:
    backend::BillingBackend *m_backend;
    models::RewardListModel *m_model;
    QTableView *m_table;
    QPushButton *m_undo;
    QLabel *m_status;
    std::optional<std::pair<models::Reward, models::Reward>> m_lastChange; // before, after
};

} // namespace md::views
