// Tenants ▸ Stripe key…: the organization's Stripe secret key for this
// connection's environment (docs/user-guide.md, "Connecting Stripe"): what
// is connected, by its hint; a new key typed (hidden) and connected once
// Stripe accepts it; the key forgotten. The field is emptied as soon as the
// key is sent.
#pragma once

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;

namespace md::backend {
class BillingBackend;
}
namespace md::models {
class ProcessorKeyEdit;
}

namespace md::views {

class ProcessorKeyDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProcessorKeyDialog)

public:
    explicit ProcessorKeyDialog(backend::BillingBackend *backend, QWidget *parent = nullptr);

    models::ProcessorKeyEdit *edit() const { return m_edit; }
    QLineEdit *secret() const { return m_secret; }
    QPushButton *connectButton() const { return m_connect; }
    QPushButton *disconnectButton() const { return m_disconnect; }
    QLabel *summary() const { return m_summary; }

private:
    void showState();

    models::ProcessorKeyEdit *m_edit;
    QLabel *m_summary;
    QLineEdit *m_secret;
    QPushButton *m_connect;
    QPushButton *m_disconnect;
};

} // namespace md::views
