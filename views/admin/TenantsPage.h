// Tenants (platform operators): the organizations this platform created,
// with their linked Stripe accounts, and "Link processor account…", whose
// dialog shows the server's message when the link is refused.
#pragma once

#include <QDialog>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace md::backend {
class BillingBackend;
}
namespace md::models {
class TenantListModel;
}

namespace md::views {

class LinkAccountDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LinkAccountDialog)

public:
    LinkAccountDialog(models::TenantListModel *tenants, const QString &selected,
                      QWidget *parent = nullptr);

    QComboBox *tenant() const { return m_tenant; }
    QLineEdit *testAccount() const { return m_test; }
    QLineEdit *liveAccount() const { return m_live; }
    QPushButton *linkButton() const { return m_link; }
    QLabel *problem() const { return m_problem; }

Q_SIGNALS:
    void linked(const QString &message);

private:
    void check();
    void link();

    models::TenantListModel *m_tenants;
    QComboBox *m_tenant;
    QLineEdit *m_test;
    QLineEdit *m_live;
    QLabel *m_problem;
    QPushButton *m_link;
};

class TenantsPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TenantsPage)

public:
    explicit TenantsPage(backend::BillingBackend *backend, QWidget *parent = nullptr);

    void refresh();
    // Opens the dialog (window-modal) on the selected tenant.
    LinkAccountDialog *linkAccount();
    models::TenantListModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QLabel *status() const { return m_status; }

private:
    models::TenantListModel *m_model;
    QTableView *m_table;
    QLabel *m_status;
};

} // namespace md::views
