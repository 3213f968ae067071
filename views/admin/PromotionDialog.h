// "Promote to production" (docs/promotion.md): the differences between the
// workspace's sandbox and production, each with a box to choose it and the
// chosen one side by side; then the admin forms' review of every field that
// changes, and Promote. A production changed meanwhile is said, and the
// differences are read again.
#pragma once

#include "views/common/FormDialog.h"

class QLabel;
class QTableView;

namespace md::models {
class PromotionModel;
}

namespace md::views {

class PromotionDialog final : public FormDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PromotionDialog)

public:
    // `model` is the page's, which keeps the promotion for Undo; it is read again here.
    explicit PromotionDialog(models::PromotionModel *model, QWidget *parent = nullptr);

    QTableView *table() const { return m_table; }
    ChangeReview *sideBySide() const { return m_sideBySide; }
    QLabel *state() const { return m_state; }

Q_SIGNALS:
    // The promotion went through: `steps` products and rewards.
    void promoted(int steps);

protected:
    QString changes(QList<models::FieldChange> *changes) override;
    void submit() override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void showCurrent();

    models::PromotionModel *m_model;
    QTableView *m_table;
    ChangeReview *m_sideBySide;
    QLabel *m_state;
};

} // namespace md::views
