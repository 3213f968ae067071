// "Adjust balance": a manual correction of one balance by a signed amount
// with its reason (docs/ledger.md, "Adjustments"), checked as typed and
// reviewed before it is sent, like the other admin forms.
#pragma once

#include "services/api/Balance.h"
#include "services/api/BalanceAdjustment.h"
#include "views/FormDialog.h"

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

Q_SIGNALS:
    void adjusted(const md::api::LedgerEntry &entry);

protected:
    QString changes(QList<models::FieldChange> *changes) override;
    void submit() override;

private:
    backend::BillingBackend *m_backend;
    api::BalanceRow m_row;
    QLineEdit *m_amount;
    QLineEdit *m_reason;
    std::optional<api::BalanceAdjustment> m_request;
};

} // namespace md::views
