// API keys, for admins (docs/user-guide.md, "API keys"): the environment's
// keys by their first characters, with scopes, last use, expiry and state;
// a new one through a form, its secret shown once with Copy; a roll with
// how long the old secret keeps working; a revoke after a confirmation.
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace md::api {
struct ApiKey;
}
namespace md::backend {
class BillingBackend;
}
namespace md::models {
class ApiKeyModel;
class KeyScopes;
} // namespace md::models

namespace md::views {

class ApiKeyDialog;

class KeysPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(KeysPage)

public:
    explicit KeysPage(backend::BillingBackend *backend, QWidget *parent = nullptr);

    models::ApiKeyModel *keys() const { return m_keys; }
    // What the connection's key may hand out: the form offers only that.
    void setScopes(const models::KeyScopes *scopes) { m_scopes = scopes; }
    QTableView *table() const { return m_table; }
    void refresh();

    // The form, opened (non-modal) and returned, for the button and the tests.
    ApiKeyDialog *newKey();
    // Ask first, in a window of their own (how long the old secret works;
    // whether to revoke), then go on when answered.
    void rollKey();
    void revokeKey();

Q_SIGNALS:
    void statusMessage(const QString &message);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void updateState();
    void showSecret(const api::ApiKey &key, const QString &intro);
    int currentKey() const;

    models::ApiKeyModel *m_keys;
    QTableView *m_table;
    QPushButton *m_new;
    QPushButton *m_roll;
    QPushButton *m_revoke;
    QLabel *m_note;
    QString m_reselect;
    const models::KeyScopes *m_scopes = nullptr;
};

} // namespace md::views
