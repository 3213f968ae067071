// The customer detail's Controls tab (docs/billing-controls.md): the billing
// controls in force for the customer or one of its entities, in words, with
// the usage counted toward each limit; Edit opens the form; below, the usage
// alerts the customer's calls set off, newest first.
#pragma once

#include "services/api/BillingControls.h"

#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace md::backend {
class BillingBackend;
}
namespace md::models {
class ControlsSource;
class UsageAlertModel;
} // namespace md::models

namespace md::views {

class CustomerControlsTab final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CustomerControlsTab)

public:
    explicit CustomerControlsTab(backend::BillingBackend *backend, QWidget *parent = nullptr);
    ~CustomerControlsTab() override;

    void setCustomer(const QString &customerId);
    QLineEdit *entityEdit() const { return m_entity; }
    QLabel *summary() const { return m_summary; }
    QPushButton *editButton() const { return m_edit; }
    models::UsageAlertModel *alerts() const { return m_alerts; }
    // Opens the form on what was last read (window-modal, deleted on close).
    void edit();

private:
    void load();

    std::unique_ptr<models::ControlsSource> m_controls;
    QString m_customer;
    std::optional<api::BillingControlsAnswer> m_shown;
    quint64 m_request = 0;
    QLineEdit *m_entity;
    QLabel *m_summary;
    QPushButton *m_edit;
    models::UsageAlertModel *m_alerts;
    QTableView *m_alertTable;
};

} // namespace md::views
