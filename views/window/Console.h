// The running console: one connection's backend and its main window. File ▸
// Connect… replaces both; the last connection is reopened at the next start.
#pragma once

#include "models/connection/Connection.h"
#include "views/window/MainWindow.h"

#include <QObject>
#include <QPointer>

#include <memory>

namespace md::views {

class Console final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Console)

public:
    Console();
    ~Console() override;

    // Opens `connection` (asking for a remote server's key when none is saved).
    void open(const models::Connection &connection, bool loadDemoIfEmpty);
    void chooseConnection();
    MainWindow *window() const { return m_window; }
    // A models.dev catalogue file for embedded workspaces (--catalogue), loaded
    // into each one opened from now on.
    void setCatalogueFile(const QString &path) { m_catalogueFile = path; }
    // The connection to open when none is given: the last one, else the default file.
    static models::Connection startupConnection(const QString &defaultFile);

private:
    void askForConnection(const std::optional<models::Connection> &prefill);
    void openWithKey(const models::Connection &connection, const QString &apiKey,
                     bool loadDemoIfEmpty);

    void loadCatalogue(const QString &path);

    std::unique_ptr<backend::BillingBackend> m_backend;
    models::OpenedBackend::CatalogueLoader m_loadCatalogue;
    QString m_catalogueFile;
    QPointer<MainWindow> m_window;
};

} // namespace md::views
