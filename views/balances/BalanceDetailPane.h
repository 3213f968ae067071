// The selected balance in words, in the user's locale: plan, grants,
// remaining and usage, price and tiers, reset and next reset, expiry,
// rollovers, what a usage-based row has come to this period (charges.preview),
// and the billing controls in force for its customer or entity.
// The row's JSON is one click away (Show JSON) for engineers; the Ledger tab
// shows how the balance came to hold what it holds.
#pragma once

#include "models/balances/ChargeSource.h"
#include "models/customers/ControlsSource.h"
#include "services/api/Balance.h"
#include "services/api/Ledger.h"

#include <QWidget>

#include <optional>

class QLocale;
class QPlainTextEdit;
class QPushButton;
class QStackedLayout;
class QTabWidget;
class QTextBrowser;

namespace md::views {

class BalanceLedgerTab;

class BalanceDetailPane final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BalanceDetailPane)

public:
    explicit BalanceDetailPane(backend::BillingBackend *backend, QWidget *parent = nullptr);

    // Shows `row` (nothing: the hint) and asks for its owner's controls.
    void showBalance(const std::optional<api::BalanceRow> &row);
    // No one balance is selected: `selected` rows (0 or several); says which.
    void showNone(int selected);
    QString text() const;
    QTabWidget *tabs() const { return m_tabs; }
    BalanceLedgerTab *ledger() const { return m_ledger; }

Q_SIGNALS:
    // A balance was adjusted by hand (the Ledger tab): the one shown or one
    // of the customer's that do not reset; or a new one was made instead.
    void adjusted(const md::api::LedgerEntry &entry);
    void created(const md::api::LedgerEntry &entry);

private:
    void render();
    QString chargeText(const QLocale &locale) const;

    models::ControlsSource m_controls;
    models::ChargeSource m_charges;
    QTextBrowser *m_text;
    QPlainTextEdit *m_json;
    QPushButton *m_showJson;
    QStackedLayout *m_sides;
    QTabWidget *m_tabs;
    BalanceLedgerTab *m_ledger;
    std::optional<api::BalanceRow> m_row;
    std::optional<QStringList> m_controlLines; // nullopt: still asking
    QString m_controlsProblem;
    quint64 m_generation = 0;
    // The row's line of its customer's charges.preview: nullopt while asked
    // or when the row has none; a problem in words when the asking failed.
    std::optional<api::ChargeLine> m_charge;
    bool m_chargeAnswered = false;
    QString m_chargeProblem;
    quint64 m_chargeGeneration = 0;
};

} // namespace md::views
