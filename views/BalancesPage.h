// Balances across customers (finance staff): the table of balances.list with
// paging on scroll, an empty state that says what to do, and errors with Retry.
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QStackedLayout;
class QTableView;

namespace md::backend {
class BillingBackend;
}
namespace md::models {
class BalanceListModel;
}

namespace md::views {

class BalancesPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BalancesPage)

public:
    explicit BalancesPage(backend::BillingBackend *backend, QWidget *parent = nullptr);
    ~BalancesPage() override;

    models::BalanceListModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    void refresh();

Q_SIGNALS:
    void statusMessage(const QString &message);

private:
    void updateState();

    models::BalanceListModel *m_model;
    QTableView *m_table;
    QStackedLayout *m_states;
    QLabel *m_message;
    QPushButton *m_retry;
    bool m_columnsSized = false;
};

} // namespace md::views
