// "Adjust balance": a manual correction of one balance by a signed amount
// with its reason (docs/ledger.md, "Adjustments"), checked as typed and
// reviewed before it is sent, like the other admin forms. It says how long
// the change lasts; on a balance that resets it offers the customer's
// standalone balances of the feature that do not reset, where a credit
// lasts, and a new one (balances.create).
#pragma once

#include "services/api/Balance.h"
#include "services/api/BalanceAdjustment.h"
#include "services/api/BalanceCreation.h"
#include "views/common/FormDialog.h"

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;

namespace md::backend {
class BillingBackend;
}

namespace md::views {

class AdjustBalanceDialog final : public FormDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AdjustBalanceDialog)

public:
    AdjustBalanceDialog(backend::BillingBackend *backend, const api::BalanceRow &row,
                        QWidget *parent = nullptr);

    QLineEdit *amountEdit() const { return m_amount; }
    QLineEdit *reasonEdit() const { return m_reason; }
    // The balance adjusted: the one the dialog was opened on, one that
    // lasts, or, last, a new one that lasts (shown once the balances that
    // last are read).
    QComboBox *targetBox() const { return m_target; }
    // How long the adjustment lasts, or why no balance that lasts is offered.
    QLabel *lastingLabel() const { return m_lasting; }
    QLabel *alternativesLabel() const { return m_alternatives; }

Q_SIGNALS:
    void adjusted(const md::api::LedgerEntry &entry);
    // A new balance was made instead: the entry of its grant.
    void created(const md::api::LedgerEntry &entry);

protected:
    QString changes(QList<models::FieldChange> *changes) override;
    void submit() override;
    void reviewing() override;

private:
    // The balances that last, offered beside the one opened on.
    void offer(const QList<api::BalanceRow> &lasting);
    const api::BalanceRow &target() const;
    // The new balance is chosen (the last entry of the box, after m_rows).
    bool creating() const;
    void targetChanged();

    backend::BillingBackend *m_backend;
    QList<api::BalanceRow> m_rows; // the one opened on, then the ones that last
    QLineEdit *m_amount;
    QLineEdit *m_reason;
    QComboBox *m_target;
    QLabel *m_remaining;
    QLabel *m_alternatives;
    QLabel *m_lasting;
    QFormLayout *m_layout;
    std::optional<api::BalanceAdjustment> m_request;
    std::optional<api::BalanceCreation> m_creation;
};

} // namespace md::views
