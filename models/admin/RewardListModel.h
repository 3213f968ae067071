// The Rewards page's table: coupons and feature grants with their promo codes.
#pragma once

#include "models/admin/RewardEdit.h"
#include "models/common/EditableListModel.h"
#include "services/api/Result.h"
#include "services/api/UpdateReward.h"

#include <QFuture>

namespace md::backend {
class BillingBackend;
}

namespace md::models {

class RewardListModel final : public EditableListModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RewardListModel)

public:
    enum Column { KindColumn, IdColumn, NameColumn, CodesColumn, ColumnCount };

    explicit RewardListModel(backend::BillingBackend *backend, QObject *parent = nullptr);

    void reload() override;
    // Saves a reward's change (docs/api.md, "rewards.update"); reload() after.
    QFuture<api::Result<api::UpdateRewardResponse>> save(const api::UpdateRewardRequest &request);
    // A save went through: `before` is what undoLast() writes back.
    void remember(const Reward &before, const Reward &after);
    QFuture<api::Result<QString>> undoLast() override;
    const Reward &reward(int row) const { return m_rows.at(row); }
    QString idAt(int row) const override { return RewardEdit::id(m_rows.at(row)); }
    int rowOf(const QString &id) const override;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    backend::BillingBackend *m_backend;
    QList<Reward> m_rows;
    std::optional<std::pair<Reward, Reward>> m_lastChange; // before, after
};

} // namespace md::models
