// Usage: usage events of every feature (AI calls and balances.track) with filters (customer,
// feature, model, period), a chart of cost or tokens per day for each customer, feature or model
// drawn from every matching event (usage_events.totals), and the "Price a call" calculator.
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;
class QTimer;

namespace md::backend {
class BillingBackend;
}
namespace md::models {
class UsageEventModel;
class UsageTotalsSource;
} // namespace md::models

namespace md::views {

class FailedEventsPanel;
class UsageChart;

class PriceCallDialog;
class UsageImportWizard;

class UsagePage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UsagePage)

public:
    explicit UsagePage(backend::BillingBackend *backend, QWidget *parent = nullptr);

    models::UsageEventModel *model() const { return m_model; }
    UsageChart *chart() const { return m_chart; }
    models::UsageTotalsSource *chartTotals() const { return m_totals; }
    QLineEdit *customerFilter() const { return m_customer; }
    QLineEdit *modelFilter() const { return m_modelFilter; }
    void refresh();
    void priceCall();
    // Usage ▸ Import usage…: the backfill wizard (UsageImportWizard).
    UsageImportWizard *importUsage();
    // The customer detail's Usage tab: this customer's events only, without
    // the customer filter (an empty id shows nothing until one is chosen)
    // nor the failed events.
    void showOnlyCustomer(const QString &customerId);
    FailedEventsPanel *failedEvents() const { return m_failed; }
    // Brings the failed events into view, reloaded.
    void showFailedEvents();

Q_SIGNALS:
    void failedEventsChanged();
    // Tools ▸ Price a call opened its dialog (the window locks Record in it).
    void priceCallOpened(md::views::PriceCallDialog *dialog);
    // A backfill committed events: the other pages show balances it changed.
    void usageImported();

private:
    // `force`: the chart's totals asked for again even if the filter is the same.
    void applyFilter(bool force = false);
    void showTotals();

    backend::BillingBackend *m_backend;
    models::UsageEventModel *m_model;
    models::UsageTotalsSource *m_totals;
    QLineEdit *m_customer;
    QLineEdit *m_feature;
    QLineEdit *m_modelFilter;
    QComboBox *m_period;
    QTableView *m_table;
    UsageChart *m_chart;
    FailedEventsPanel *m_failed;
    QLabel *m_status;
    QTimer *m_debounce;
};

} // namespace md::views
