// Help ▸ About Meterdesk: this console's version, the Qt it runs on, the
// licence, and what it is connected to with the price catalogue that engine
// or server uses (asked of the backend, so a server answers for itself).
#pragma once

#include <QDialog>

class QFormLayout;
class QLabel;

namespace md::backend {
class BillingBackend;
}

namespace md::views {

class AboutDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AboutDialog)

public:
    explicit AboutDialog(backend::BillingBackend *backend, QWidget *parent = nullptr);
    ~AboutDialog() override;

    // Everything shown, as plain text for a support request (no secrets:
    // locations are shown without passwords or keys).
    QString details() const;

private:
    QLabel *addRow(const QString &label, const QString &name, const QString &text);
    // The two answers arrive in either order; each fills in its part.
    void showConnection();

    QFormLayout *m_form;
    QList<QLabel *> m_rows;
    QLabel *m_connection;
    QLabel *m_catalogue;
    QString m_where;         // location and kind, once known
    QString m_engineVersion; // the engine's or server's, once known
};

} // namespace md::views
