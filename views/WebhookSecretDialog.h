// A webhook endpoint's signing secret, shown once, when it is made or
// rotated: the server keeps it only to sign, and no list shows it again.
// Copy puts it on the clipboard; the dialog says so, and where it goes.
#pragma once

#include <QDialog>

class QLineEdit;
class QPushButton;

namespace md::views {

class WebhookSecretDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WebhookSecretDialog)

public:
    // `rotated`: the previous secret still signs for a day.
    WebhookSecretDialog(const QString &url, const QString &secret, bool rotated,
                        QWidget *parent = nullptr);

    QLineEdit *secretField() const { return m_secret; }
    QPushButton *copyButton() const { return m_copy; }

private:
    QLineEdit *m_secret;
    QPushButton *m_copy;
};

} // namespace md::views
