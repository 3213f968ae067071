#include "services/engine/ids/WorkspaceSecret.h"

#include "services/engine/sql/Sql.h"

#include <QMessageAuthenticationCode>
#include <QRandomGenerator>
#include <QSqlDriver>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;

namespace {

// The driver property that keeps a connection's copy: secret, created_at.
constexpr char KeptProperty[] = "md.workspaceSecret";

} // namespace

api::Result<WorkspaceSecret> WorkspaceSecret::of(const QSqlDatabase &db)
{
    QSqlDriver *driver = db.driver();
    if (!driver)
        return ApiError::internal(u"reading the workspace secret: no database connection"_s);
    if (const QVariantList kept = driver->property(KeptProperty).toList(); kept.size() == 2)
        return WorkspaceSecret(kept.at(0).toByteArray(), kept.at(1).toLongLong());
    auto rows =
        queryRows(db, u"SELECT secret, created_at FROM workspace_secret WHERE id = 1"_s, {});
    if (!rows)
        return rows.error();
    if (rows.value().isEmpty())
        return ApiError::internal(
            u"the database has no workspace secret; open it with this Meterdesk to migrate it"_s);
    const QVariantList &row = rows.value().first();
    QByteArray secret = QByteArray::fromBase64(row.at(0).toString().toLatin1());
    if (secret.size() != Size)
        return ApiError::internal(u"the database's workspace secret is damaged"_s);
    const qint64 createdAt = row.at(1).toLongLong();
    driver->setProperty(KeptProperty, QVariantList{secret, createdAt});
    return WorkspaceSecret(std::move(secret), createdAt);
}

api::Result<api::Done> WorkspaceSecret::create(const QSqlDatabase &db, qint64 nowMs)
{
    QByteArray fresh(Size, Qt::Uninitialized);
    QRandomGenerator::system()->generate(fresh.begin(), fresh.end());
    return execute(db, u"INSERT INTO workspace_secret (id, secret, created_at) VALUES (1, ?, ?)"_s,
                   {QString::fromLatin1(fresh.toBase64()), nowMs});
}

QByteArray WorkspaceSecret::mac(const QByteArray &message) const
{
    return QMessageAuthenticationCode::hash(message, m_secret, QCryptographicHash::Sha256);
}

} // namespace md::engine
