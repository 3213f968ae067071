#include "models/connection/WorkspaceStatus.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QUrl>

namespace md::models {

using namespace Qt::StringLiterals;

QString WorkspaceStatus::inWords(const backend::ConnectionInfo &connection)
{
    const auto tr = [](const char *text) {
        return QCoreApplication::translate("WorkspaceStatus", text);
    };
    const QUrl url(connection.location);
    if (connection.kind == QLatin1StringView("remote")) {
        const QString host =
            url.port() > 0 ? u"%1:%2"_s.arg(url.host()).arg(url.port()) : url.host();
        return tr("Server %1").arg(host);
    }
    if (url.scheme().startsWith(QLatin1StringView("postgres")))
        return tr("PostgreSQL database %1 on %2")
            .arg(url.path().mid(1), url.host().isEmpty() ? u"localhost"_s : url.host());
    return tr("Workspace %1 on this computer").arg(QFileInfo(connection.location).fileName());
}

QString WorkspaceStatus::journalTarget(const api::Result<backend::ConnectionInfo> &connection)
{
    if (!connection)
        return QCoreApplication::translate("WorkspaceStatus",
                                           "this connection (who it is could not be read: %1)")
            .arg(connection.error().message);
    const backend::ConnectionInfo &c = connection.value();
    return u"%1 %2 (%3, %4)"_s.arg(c.kind, c.location, c.orgSlug, c.environment);
}

} // namespace md::models
