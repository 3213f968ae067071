#include "services/engine/access/PortalLinks.h"

#include "services/engine/ids/SameBytes.h"
#include "services/engine/sql/Sql.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageAuthenticationCode>
#include <QRandomGenerator>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;

namespace {

constexpr auto Base64Url = QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals;

api::Result<QByteArray> secret(const QSqlDatabase &db, Dialect dialect)
{
    auto stored = queryRows(db, u"SELECT secret FROM portal_secret WHERE id = 1"_s, {});
    if (!stored)
        return stored.error();
    if (stored.value().isEmpty()) {
        QByteArray fresh(32, Qt::Uninitialized);
        QRandomGenerator::system()->generate(fresh.begin(), fresh.end());
        WriteTransaction transaction(db, dialect);
        if (auto begun = transaction.begin(); !begun)
            return begun.error();
        // Another server may have made one meanwhile: the first one stays.
        if (auto added = execute(db,
                                 u"INSERT INTO portal_secret (id, secret) VALUES (1, ?)"
                                 " ON CONFLICT (id) DO NOTHING"_s,
                                 {QString::fromLatin1(fresh.toBase64())});
            !added)
            return added.error();
        if (auto committed = transaction.commit(); !committed)
            return committed.error();
        stored = queryRows(db, u"SELECT secret FROM portal_secret WHERE id = 1"_s, {});
        if (!stored)
            return stored.error();
    }
    return QByteArray::fromBase64(stored.value().first().first().toString().toLatin1());
}

QByteArray signature(const QByteArray &key, const QByteArray &payload)
{
    return QMessageAuthenticationCode::hash(payload, key, QCryptographicHash::Sha256)
        .toBase64(Base64Url);
}

ApiError forged()
{
    return ApiError{403, api::ErrorCode::Forbidden,
                    u"This portal link is not valid. Ask for a new link."_s};
}

} // namespace

api::Result<QString> PortalLinks::sign(const QSqlDatabase &db, Dialect dialect, const Link &link)
{
    auto key = secret(db, dialect);
    if (!key)
        return key.error();
    const QByteArray payload = QJsonDocument(QJsonObject{{u"o"_s, link.scope.orgPk},
                                                         {u"e"_s, link.scope.envWord()},
                                                         {u"c"_s, link.customerId},
                                                         {u"x"_s, double(link.expiresAt)},
                                                         {u"r"_s, link.returnUrl}})
                                   .toJson(QJsonDocument::Compact)
                                   .toBase64(Base64Url);
    return QString::fromLatin1(payload + '.' + signature(key.value(), payload));
}

api::Result<PortalLinks::Link> PortalLinks::verify(const QSqlDatabase &db, Dialect dialect,
                                                   const QString &token, qint64 nowMs)
{
    const QList<QByteArray> parts = token.toLatin1().split('.');
    if (parts.size() != 2)
        return forged();
    auto key = secret(db, dialect);
    if (!key)
        return key.error();
    if (!sameBytes(signature(key.value(), parts.at(0)), parts.at(1)))
        return forged();
    const QJsonObject payload =
        QJsonDocument::fromJson(QByteArray::fromBase64(parts.at(0), Base64Url)).object();
    Link link;
    link.scope.orgPk = qint64(payload.value(u"o"_s).toDouble());
    link.scope.env = payload.value(u"e"_s).toString() == "live"_L1 ? Environment::Production
                                                                   : Environment::Sandbox;
    link.customerId = payload.value(u"c"_s).toString();
    link.expiresAt = qint64(payload.value(u"x"_s).toDouble());
    link.returnUrl = payload.value(u"r"_s).toString();
    if (nowMs >= link.expiresAt)
        return ApiError{410, api::ErrorCode::Expired,
                        u"This portal link has expired. Ask for a new link."_s};
    return link;
}

} // namespace md::engine
