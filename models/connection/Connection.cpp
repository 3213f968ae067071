#include "models/connection/Connection.h"

#include "services/embedded/EngineBackend.h"
#include "services/remote/RemoteBackend.h"
#include "services/server/PortalServer.h"
#include "services/server/WebhookSender.h"

#include <QFileInfo>
#include <QSettings>
#include <QUrl>

namespace md::models {

using namespace Qt::StringLiterals;

QString Connection::displayName() const
{
    if (kind == Kind::Sqlite)
        return QFileInfo(location).absoluteFilePath();
    QUrl url(location);
    url.setPassword(QString());
    return url.toString();
}

QString Connection::serialized() const
{
    switch (kind) {
    case Kind::Sqlite:
        return u"sqlite:"_s + QFileInfo(location).absoluteFilePath();
    case Kind::Postgres:
        return u"postgres:"_s + displayName();
    case Kind::Remote:
        return u"remote:"_s + displayName();
    }
    return {};
}

std::optional<Connection> Connection::fromSerialized(const QString &text)
{
    const qsizetype colon = text.indexOf(u':');
    if (colon < 0)
        return std::nullopt;
    const QString kind = text.left(colon);
    const QString location = text.mid(colon + 1);
    if (location.isEmpty())
        return std::nullopt;
    if (kind == "sqlite"_L1)
        return Connection{Kind::Sqlite, location};
    if (kind == "postgres"_L1)
        return Connection{Kind::Postgres, location};
    if (kind == "remote"_L1)
        return Connection{Kind::Remote, location};
    return std::nullopt;
}

Connection Connection::guess(const QString &location)
{
    if (location.startsWith("postgresql://"_L1) || location.startsWith("postgres://"_L1))
        return {Kind::Postgres, location};
    if (location.startsWith("http://"_L1) || location.startsWith("https://"_L1))
        return {Kind::Remote, location};
    return {Kind::Sqlite, location};
}

QList<Connection> RecentConnections::load()
{
    QList<Connection> list;
    const QStringList stored = QSettings().value(u"connections/recent"_s).toStringList();
    for (const QString &line : stored)
        if (const auto connection = Connection::fromSerialized(line))
            list.append(*connection);
    return list;
}

void RecentConnections::remember(const Connection &connection)
{
    QStringList stored = QSettings().value(u"connections/recent"_s).toStringList();
    stored.removeAll(connection.serialized());
    stored.prepend(connection.serialized());
    while (stored.size() > 8)
        stored.removeLast();
    QSettings().setValue(u"connections/recent"_s, stored);
}

OpenedBackend openBackend(const Connection &connection, const QString &apiKey, bool loadDemoIfEmpty)
{
    using Workspace = OpenedBackend::Workspace;
    if (connection.kind == Connection::Kind::Remote) {
        auto remote = std::make_unique<remote::RemoteBackend>(QUrl(connection.location), apiKey);
        return {std::move(remote),
                QtFuture::makeReadyFuture(api::Result<Workspace>(Workspace::Ready)),
                {},
                {}};
    }
    auto engine = std::make_unique<embedded::EngineBackend>(
        connection.location, engine::Clock(), std::nullopt, server::PortalServer::starter(),
        server::WebhookSender::starter());
    const auto outcome =
        [](const api::Result<embedded::EngineBackend::Workspace> &state) -> api::Result<Workspace> {
        if (!state)
            return state.error();
        return state.value() == embedded::EngineBackend::Workspace::Empty ? Workspace::Empty
                                                                          : Workspace::Ready;
    };
    auto ready = engine->prepare(loadDemoIfEmpty).then(outcome);
    embedded::EngineBackend *raw = engine.get();
    return {std::move(engine), std::move(ready),
            [raw, outcome] { return raw->loadDemo().then(outcome); },
            [raw](const QString &path) { return raw->loadCatalogue(path); }};
}

} // namespace md::models
