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
}

namespace md::views {

class ApiKeyDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ApiKeyDialog)

public:
    ApiKeyDialog(models::ApiKeyModel *keys, QWidget *parent = nullptr);

    QLineEdit *nameField() const { return m_name; }
    QCheckBox *allScopes() const { return m_all; }
    QCheckBox *scopeBox(const QString &scope) const;
    QCheckBox *expiresBox() const { return m_expires; }
    QDateTimeEdit *expiryField() const { return m_expiry; }
    QPushButton *createButton() const { return m_create; }
    QLabel *problem() const { return m_problem; }

Q_SIGNALS:
    void created(const md::api::ApiKey &key);

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
};

} // namespace md::views
