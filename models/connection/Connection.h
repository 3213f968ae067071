// Where the console connects: an embedded SQLite file, a PostgreSQL URL, or a
// remote billing server. Recent connections are remembered without secrets.
#pragma once

#include "services/backend/BillingBackend.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace md::models {

struct Connection
{
    enum class Kind { Sqlite, Postgres, Remote };
    Kind kind = Kind::Sqlite;
    QString location; // file path, postgresql:// URL, or server base URL

    // The location without any password, for titles and lists.
    QString displayName() const;
    // One line for settings ("sqlite:/path", "postgres:URL without password", "remote:URL").
    QString serialized() const;
    static std::optional<Connection> fromSerialized(const QString &text);
    // From a command-line or typed location: postgresql:// URLs, http(s):// servers, else a file.
    static Connection guess(const QString &location);

    friend bool operator==(const Connection &, const Connection &) = default;
};

// The most recent first, at most eight, never with a key or password.
class RecentConnections final
{
public:
    static QList<Connection> load();
    static void remember(const Connection &connection);
};

// Opens the backend for a connection. Embedded ones also migrate the database
// (and load the demo when asked and empty); `ready` reports the outcome, and
// `loadDemo` (embedded only) fills an empty workspace with the demo.
struct OpenedBackend
{
    enum class Workspace { Ready, Empty };
    std::unique_ptr<backend::BillingBackend> backend;
    QFuture<api::Result<Workspace>> ready;
    std::function<QFuture<api::Result<Workspace>>()> loadDemo;
    // Embedded only: price calls with another models.dev catalogue file
    // (validated first). A server prices with its own; empty for remote.
    using CatalogueLoader =
        std::function<QFuture<api::Result<api::CatalogueInfo>>(const QString &)>;
    CatalogueLoader loadCatalogue;
};
OpenedBackend openBackend(const Connection &connection, const QString &apiKey,
                          bool loadDemoIfEmpty);

} // namespace md::models
