// File ▸ Connect…: an embedded SQLite file (create or open), a PostgreSQL URL,
// or a remote server with its API key and a "Test connection" button; recent
// connections one double-click away. Keys go to the keychain, never to settings.
#pragma once

#include "models/connection/Connection.h"
#include "models/connection/ServerProbe.h"

#include <QDialog>

#include <memory>

class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QRadioButton;

namespace md::views {

class ConnectionDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectionDialog)

public:
    explicit ConnectionDialog(QWidget *parent = nullptr);
    ~ConnectionDialog() override;

    void setConnection(const models::Connection &connection);
    models::Connection connection() const;
    QString apiKey() const;
    // Tries the remote server with the typed key; the outcome appears in the dialog.
    void testConnection();

Q_SIGNALS:
    void tested(bool ok, const QString &message);

private:
    void updateEnabled();

    QListWidget *m_recent;
    QRadioButton *m_sqlite;
    QRadioButton *m_postgres;
    QRadioButton *m_remote;
    QLineEdit *m_file;
    QLineEdit *m_postgresUrl;
    QLineEdit *m_serverUrl;
    QLineEdit *m_key;
    QPushButton *m_test;
    QLabel *m_testResult;
    QLabel *m_keychainNote;
    QPushButton *m_ok;
    models::ServerProbe m_probe;
};

} // namespace md::views
