// "Check against Stripe" from Customers (docs/user-guide.md, "Checking
// imported customers against Stripe"): the selected customer's plans, or
// every imported customer's, compared with Stripe; each difference a row.
// It only reads: nothing is changed here or at Stripe.
#pragma once

#include <QDialog>

#include <optional>

class QLabel;
class QPushButton;
class QTableView;

namespace md::backend {
class BillingBackend;
}
namespace md::models {
class StripeDriftModel;
}

namespace md::views {

class StripeDriftDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StripeDriftDialog)

public:
    // `customerId` none: every imported customer.
    StripeDriftDialog(backend::BillingBackend *backend, std::optional<QString> customerId,
                      QWidget *parent = nullptr);

    models::StripeDriftModel *model() const { return m_model; }
    QLabel *summary() const { return m_summary; }
    QPushButton *checkAgain() const { return m_again; }

private:
    void showState();

    std::optional<QString> m_customer;
    models::StripeDriftModel *m_model;
    QLabel *m_summary;
    QTableView *m_table;
    QPushButton *m_again;
};

} // namespace md::views
