// The line under the Balances table that adds up the filter (balances.totals):
// rows, customers, granted, remaining and used, in the user's locale, kept
// current as the filter changes; amounts only when they are one feature's
// (its tooltip says why not); a choice of grouping (feature, plan, customer)
// and a button that shows the grouped totals as a table.
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;

namespace md::models {
class BalanceTotalsModel;
}

namespace md::views {

class BalanceTotalsBar final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BalanceTotalsBar)

public:
    BalanceTotalsBar(models::BalanceTotalsModel *model, QWidget *parent = nullptr);

    // The grouped totals; the page places it, and the Groups button shows it.
    QTableView *groupsView() const { return m_groups; }

private:
    void update();

    models::BalanceTotalsModel *m_model;
    QLabel *m_summary;
    QComboBox *m_groupBy;
    QPushButton *m_showGroups;
    QPushButton *m_retry;
    QTableView *m_groups;
};

} // namespace md::views
