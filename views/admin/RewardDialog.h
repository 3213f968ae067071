// Editing a reward: a coupon's name, plans and promo codes (redemption
// limit, first purchase only), or a feature grant's name, grants (feature,
// amount, expiry) and promo codes (max uses), with the review before Save.
#pragma once

#include "models/admin/RewardEdit.h"
#include "views/common/FormDialog.h"

class QLineEdit;
class QTableWidget;

namespace md::models {
class RewardListModel;
}

namespace md::views {

class RewardDialog final : public FormDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RewardDialog)

public:
    RewardDialog(models::RewardListModel *rewards, const models::Reward &reward,
                 QWidget *parent = nullptr);

    QLineEdit *nameEdit() const { return m_name; }
    QTableWidget *codes() const { return m_codes; }
    QTableWidget *grants() const { return m_grants; }
    // What Save would send, as the form stands (nullopt while it is not valid).
    const std::optional<api::UpdateRewardRequest> &request() const { return m_request; }
    // Adds an empty promo code row (the "Add code" button).
    void addCode();

Q_SIGNALS:
    void saved(const md::models::Reward &before, const md::models::Reward &after);

protected:
    QString changes(QList<models::FieldChange> *changes) override;
    void submit() override;

private:
    models::RewardForm form() const;
    void addGrantRow(const models::RewardForm::Grant &grant);
    void addCodeRow(const models::RewardForm::Code &code);

    models::RewardListModel *m_rewards;
    models::Reward m_before;
    bool m_coupon;
    QLineEdit *m_name;
    QLineEdit *m_plans = nullptr;
    QTableWidget *m_grants = nullptr;
    QTableWidget *m_codes;
    std::optional<api::UpdateRewardRequest> m_request;
};

} // namespace md::views
