// A secret shown once, when it is made: a webhook endpoint's signing secret
// or an API key. The server keeps only what it needs (a key's hash; a
// signing secret to sign with) and no list shows it again. Copy puts it on
// the clipboard; the dialog says it is shown only now.
#pragma once

#include <QDialog>

class QLineEdit;
class QPushButton;

namespace md::views {

class SecretDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SecretDialog)

public:
    // `intro`: rich text saying what the secret is and where it goes.
    SecretDialog(const QString &title, const QString &intro, const QString &secret,
                 QWidget *parent = nullptr);

    QLineEdit *secretField() const { return m_secret; }
    QPushButton *copyButton() const { return m_copy; }

private:
    QLineEdit *m_secret;
    QPushButton *m_copy;
};

} // namespace md::views
