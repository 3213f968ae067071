// The Ledger tab of the balance detail (docs/ledger.md): how the selected
// balance and its customer's other balances of the feature came to hold
// what they hold, newest first, the selected balance's rows in bold; saved
// as CSV. Asks only while the tab is shown.
#pragma once

#include "services/api/Balance.h"
#include "services/api/Ledger.h"
#include "services/api/Result.h"

#include <QWidget>

#include <optional>

class QLabel;
class QPushButton;
class QTableView;

namespace md::backend {
class BillingBackend;
}
namespace md::models {
class LedgerModel;
class PagedExport;
} // namespace md::models

namespace md::views {

class AdjustBalanceDialog;

class BalanceLedgerTab final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BalanceLedgerTab)

public:
    explicit BalanceLedgerTab(backend::BillingBackend *backend, QWidget *parent = nullptr);

    void showBalance(const std::optional<api::BalanceRow> &row);
    models::LedgerModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    // Fetches every entry of the ledger shown, then writes them to `path`.
    api::Result<api::Done> exportTo(const QString &path);
    // "Adjust balance…": the form for the balance shown, not yet opened.
    AdjustBalanceDialog *adjustDialog();

Q_SIGNALS:
    void exported(int entries);
    // A manual adjustment was written (to the balance shown or to one of
    // the customer's that do not reset), or a new balance made instead.
    void adjusted(const md::api::LedgerEntry &entry);
    void created(const md::api::LedgerEntry &entry);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void load();
    void updateState();
    void chooseExport();

    models::LedgerModel *m_model;
    models::PagedExport *m_exporter;
    QLabel *m_state;
    QTableView *m_table;
    QPushButton *m_export;
    QPushButton *m_adjust;
    backend::BillingBackend *m_backend;
    std::optional<api::BalanceRow> m_row;
};

} // namespace md::views
