// The Balances page's filter bar: a field for every balances.list filter
// (customer found by part of its id, name or email, entity, feature, plan, active and expired,
// resets before a day, remaining below an amount or a share of the grant),
// saved views with their menu, and the Export button, in two rows; the boxes
// as wide as their longest choice. Typing settles for a moment before the
// filter counts as edited.
#pragma once

#include "models/balances/BalanceFilter.h"
#include "models/balances/SavedViews.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDateEdit;
class QLineEdit;

namespace md::backend {
class BillingBackend;
}
namespace md::models {
class FilterChoices;
}

namespace md::views {

class CustomerSearchField;

class BalanceFilterBar final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BalanceFilterBar)

public:
    explicit BalanceFilterBar(backend::BillingBackend *backend, QWidget *parent = nullptr);
    ~BalanceFilterBar() override;

    models::BalanceFilter filter() const;
    // Shows `filter` without announcing it as edited.
    void setFilter(const models::BalanceFilter &filter);
    models::SavedViews &savedViews() { return m_views; }
    // Asks for the feature and plan choices again.
    void reloadChoices();
    void refreshViewList();
    void focusCustomer();
    // The rows' order, which the table's header chooses; kept with the
    // filter in saved views.
    void setOrder(api::BalanceOrder orderBy, bool descending);

Q_SIGNALS:
    // The person changed the filter (or chose a saved view).
    void edited();
    void exportRequested();
    void statusMessage(const QString &message);

private:
    void showFeatures();
    // Checks "Remaining below" as typed: edited() when it reads, else says why.
    void belowEdited();
    void showPlans();
    void saveView();
    void exportViews();
    void importViews();

    models::FilterChoices *m_choices;
    models::SavedViews m_views;
    CustomerSearchField *m_customer;
    QLineEdit *m_entity;
    QComboBox *m_feature;
    QComboBox *m_plan;
    QCheckBox *m_active;
    QCheckBox *m_expired;
    QCheckBox *m_resets;
    QDateEdit *m_resetsBefore;
    QCheckBox *m_below;
    QLineEdit *m_belowValue;
    QComboBox *m_belowUnit; // the feature's unit, or a percentage of the grant
    api::BalanceOrder m_orderBy = api::BalanceOrder::Customer;
    bool m_descending = false;
    QComboBox *m_viewList;
};

} // namespace md::views
