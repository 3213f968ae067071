// A new API key's form (docs/user-guide.md, "API keys"): what it is for, its
// scopes (every one, or some) and an expiry. Saving asks the server; the
// new key comes back in `created`, with its secret for SecretDialog to show
// once. A refusal stays in the form with the server's words.
#pragma once

#include "services/api/ApiKey.h"

#include <QDialog>

class QCheckBox;
class QDateTimeEdit;
class QLabel;
class QLineEdit;
class QPushButton;

namespace md::models {
class ApiKeyModel;
class KeyScopes;
} // namespace md::models

namespace md::views {

class ApiKeyDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ApiKeyDialog)

public:
    // `scopes`: what the connection's key holds; the boxes of the others
    // are off (none given: all are offered, and the server decides).
    ApiKeyDialog(models::ApiKeyModel *keys, const models::KeyScopes *scopes,
                 QWidget *parent = nullptr);

public Q_SLOTS:
    // Not while the server is making the key: its secret would be lost.
    void reject() override;

    QLineEdit *nameField() const { return m_name; }
    QCheckBox *allScopes() const { return m_all; }
    QCheckBox *scopeBox(const QString &scope) const;
    QCheckBox *expiresBox() const { return m_expires; }
    QDateTimeEdit *expiryField() const { return m_expiry; }
    QPushButton *createButton() const { return m_create; }
    QLabel *problem() const { return m_problem; }

Q_SIGNALS:
    void created(const md::api::ApiKey &key);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void updateState();
    void create();

    models::ApiKeyModel *m_keys;
    QLineEdit *m_name;
    QCheckBox *m_all;
    QList<QCheckBox *> m_scopes;
    QCheckBox *m_expires;
    QDateTimeEdit *m_expiry;
    QLabel *m_problem;
    QPushButton *m_create;
    const models::KeyScopes *m_holder;
    bool m_busy = false;
};

} // namespace md::views
