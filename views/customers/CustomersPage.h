// Customers: a searchable list and, for the selected customer, tabs with
// identity and processors, per-feature balances, subscriptions with their
// current period, flags, usage, and billing controls with their alerts.
#pragma once

#include "services/api/Customer.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTabWidget;
class QTableView;
class QTableWidget;
class QTreeView;

namespace md::backend {
class BillingBackend;
}
namespace md::models {
class CustomerBalancesModel;
class CustomerListModel;
} // namespace md::models

namespace md::views {

class ExportButton;

class CustomerChargesTab;
class CustomerControlsTab;
class UsagePage;

class CustomersPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CustomersPage)

public:
    explicit CustomersPage(backend::BillingBackend *backend, QWidget *parent = nullptr);
    ~CustomersPage() override;

    models::CustomerListModel *model() const { return m_list; }
    void refresh();
    void focusSearch();
    // Shows one customer (also used by "open customer" elsewhere).
    void showCustomer(const QString &customerId);
    const std::optional<api::Customer> &shownCustomer() const { return m_customer; }
    CustomerControlsTab *controls() const { return m_controls; }
    CustomerChargesTab *charges() const { return m_charges; }
    QTableWidget *subscriptions() const { return m_subscriptions; }
    QPushButton *checkStripe() const { return m_drift; }

Q_SIGNALS:
    void customerShown(const QString &customerId);

private:
    void present(const api::Customer &customer);
    void openPortal();

    models::CustomerListModel *m_list;
    models::CustomerBalancesModel *m_balances;
    QLineEdit *m_search;
    QTableView *m_table;
    QTabWidget *m_tabs;
    QLabel *m_overview;
    QTreeView *m_balanceTree;
    QTableWidget *m_subscriptions;
    QListWidget *m_flags;
    UsagePage *m_usage;
    CustomerControlsTab *m_controls;
    CustomerChargesTab *m_charges;
    QPushButton *m_portal;
    QPushButton *m_drift;
    QLabel *m_exportState;
    ExportButton *m_export;
    std::optional<api::Customer> m_customer;
    quint64 m_request = 0;
};

} // namespace md::views
