// Sandbox against production for the promotion dialog (docs/promotion.md):
// one row per product or reward that differs, each with a box to choose it;
// the chosen entry's fields side by side; the promotion of the chosen rows;
// and the last promotion kept, so Undo last change can put production back.
#pragma once

#include "models/common/FieldChange.h"
#include "models/common/ListTableModel.h"
#include "services/api/Promotion.h"

namespace md::backend {
class BillingBackend;
}

namespace md::models {

class PromotionModel final : public ListTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PromotionModel)

public:
    enum Column { KindColumn, IdColumn, ChangeColumn, FieldsColumn, ColumnCount };

    explicit PromotionModel(backend::BillingBackend *backend, QObject *parent = nullptr);

    // Reads the differences again; every row starts unchosen.
    void reload();
    bool isEmpty() const { return m_diff.products.isEmpty() && m_diff.rewards.isEmpty(); }

    // Each differing field of a row: production's value before, the sandbox's after.
    QList<FieldChange> fieldsOf(int row) const;
    // The same for every chosen row, each field named with its entry.
    QList<FieldChange> chosenChanges() const;
    int chosenCount() const;
    void chooseAll(bool chosen);
    // Chooses the row if it was not chosen, else unchooses it.
    void toggleChosen(int row);

    // Production made what the sandbox showed for the chosen rows; kept for undoLast().
    QFuture<api::Result<api::EnvironmentPromoted>> promoteChosen();
    bool canUndo() const { return m_last.has_value(); }
    // Puts production back as it was before the last promotion; answers
    // what it undid, in words.
    QFuture<api::Result<QString>> undoLast();

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void chosenChanged();

private:
    struct Row
    {
        bool product = true;
        qsizetype index = 0; // in m_diff.products or m_diff.rewards
    };
    Row rowAt(int row) const;
    QString idAt(int row) const;
    api::DiffChange changeAt(int row) const;
    const QList<api::FieldDifference> &differencesAt(int row) const;

    backend::BillingBackend *m_backend;
    api::EnvironmentDiff m_diff;
    QList<bool> m_chosen; // by row
    std::optional<api::EnvironmentPromoted> m_last;
};

} // namespace md::models
