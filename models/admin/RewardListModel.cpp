#include "models/admin/RewardListModel.h"

#include "services/backend/BillingBackend.h"

namespace md::models {

using namespace Qt::StringLiterals;

RewardListModel::RewardListModel(backend::BillingBackend *backend, QObject *parent)
    : EditableListModel(ColumnCount, parent)
    , m_backend(backend)
{}

void RewardListModel::reload()
{
    load(m_backend->listRewards(), [this](const api::Page<api::RewardEntry> &entries) {
        QList<Reward> rows;
        for (const api::RewardEntry &entry : entries.list)
            rows.append(entry.reward);
        replaceRows([&] { m_rows = rows; });
    });
}

int RewardListModel::rowOf(const QString &id) const
{
    for (int r = 0; r < m_rows.size(); ++r)
        if (RewardEdit::id(m_rows.at(r)) == id)
            return r;
    return -1;
}

int RewardListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant RewardListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || role != Qt::DisplayRole)
        return {};
    const Reward &reward = m_rows.at(index.row());
    switch (index.column()) {
    case KindColumn:
        return std::holds_alternative<api::CouponRecord>(reward) ? tr("coupon")
                                                                 : tr("feature grant");
    case IdColumn:
        return RewardEdit::id(reward);
    case NameColumn:
        return RewardEdit::name(reward);
    case CodesColumn: {
        QStringList codes;
        for (const RewardForm::Code &code : RewardForm::from(reward).codes)
            codes.append(code.code);
        return codes.join(u", "_s);
    }
    }
    return {};
}

QVariant RewardListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case KindColumn:
        return tr("Kind");
    case IdColumn:
        return tr("Id");
    case NameColumn:
        return tr("Name");
    case CodesColumn:
        return tr("Promo codes");
    }
    return {};
}

QFuture<api::Result<api::UpdateRewardResponse>>
RewardListModel::save(const api::UpdateRewardRequest &request)
{
    return m_backend->updateReward(request);
}

void RewardListModel::remember(const Reward &before, const Reward &after)
{
    m_lastChange = {before, after};
}

QFuture<api::Result<QString>> RewardListModel::undoLast()
{
    if (!m_lastChange)
        return nothingToUndo();
    const auto [before, after] = *m_lastChange;
    return save(RewardEdit::undo(before, after))
        .then(this, [this, id = RewardEdit::id(before)](
                        const api::Result<api::UpdateRewardResponse> &undone) {
            if (!undone)
                return api::Result<QString>(undone.error());
            m_lastChange.reset();
            return api::Result<QString>(id);
        });
}

} // namespace md::models
