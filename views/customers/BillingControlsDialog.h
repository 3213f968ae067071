// Editing a customer's (or one entity's) billing controls
// (docs/billing-controls.md): usage limits, spend limits, usage alerts and
// overage allowed per feature, each a table, checked as you type, then the
// "Review changes" step before Save. Beside each alert's threshold is what
// it watches now, and an alert already past it is warned of.
#pragma once

#include "models/customers/BillingControlsEdit.h"
#include "views/common/FormDialog.h"

class QLabel;
class QTabWidget;
class QTableWidget;

namespace md::models {
class ControlsSource;
}

namespace md::views {

class BillingControlsDialog final : public FormDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BillingControlsDialog)

public:
    BillingControlsDialog(models::ControlsSource *controls, const api::BillingControlsAnswer &now,
                          QWidget *parent = nullptr);

    QTableWidget *usageLimits() const { return m_usage; }
    QTableWidget *spendLimits() const { return m_spend; }
    QTableWidget *usageAlerts() const { return m_alerts; }
    QTableWidget *overageAllowed() const { return m_overage; }
    // The alerts that cannot fire as things stand, and why (empty: none).
    QLabel *alertWarnings() const { return m_warnings; }
    enum AlertColumn { AlertFeature, AlertWhen, AlertThreshold, AlertNow, AlertName, AlertOn };
    // What Save would send, as the form stands (nullopt while it is not valid).
    const std::optional<api::UpdateBillingControlsRequest> &request() const { return m_request; }
    // Adds an empty row to the table of the tab shown, ready to type into.
    void addRow();

Q_SIGNALS:
    void saved(const md::api::BillingControlsAnswer &after);

protected:
    QString changes(QList<models::FieldChange> *changes) override;
    void submit() override;
    void reviewing() override;

private:
    // The alerts' Now cells and warnings for the form as it stands.
    void showStanding(const models::BillingControlsForm &form);
    models::BillingControlsForm form() const;
    void addUsageLimit(const models::BillingControlsForm::UsageLimit &limit);
    void addSpendLimit(const models::BillingControlsForm::SpendLimit &limit);
    void addUsageAlert(const models::BillingControlsForm::UsageAlert &alert);
    void addOverage(const models::BillingControlsForm::OverageAllowed &entry);

    models::ControlsSource *m_controls;
    api::BillingControlsAnswer m_before;
    QTabWidget *m_tabs;
    QTableWidget *m_usage;
    QTableWidget *m_spend;
    QTableWidget *m_alerts;
    QTableWidget *m_overage;
    QLabel *m_warnings;
    std::optional<models::Standing> m_standing; // once the balances are read
    std::optional<api::UpdateBillingControlsRequest> m_request;
};

} // namespace md::views
