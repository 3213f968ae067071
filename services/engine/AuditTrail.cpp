#include "services/engine/AuditTrail.h"

#include "services/api/JsonReader.h"
#include "services/engine/Engine.h"
#include "services/engine/Sql.h"

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

QByteArray encodeCursor(qint64 pk)
{
    return QByteArray::number(pk).toBase64(QByteArray::Base64UrlEncoding |
                                           QByteArray::OmitTrailingEquals);
}

std::optional<qint64> decodeCursor(const QString &cursor)
{
    bool ok = false;
    const qint64 pk =
        QByteArray::fromBase64(cursor.toLatin1(), QByteArray::Base64UrlEncoding).toLongLong(&ok);
    return ok && pk > 0 ? std::optional(pk) : std::nullopt;
}

QVariant jsonText(const api::JsonValue &value)
{
    return value.isNull() ? QVariant() : QVariant(QString::fromUtf8(value.toJson()));
}

api::JsonValue storedJson(const QVariant &text)
{
    if (text.isNull())
        return api::JsonValue::null();
    auto parsed = api::JsonValue::parse(text.toString().toUtf8(), u"an audit entry"_s, 64);
    return parsed ? parsed.value() : api::JsonValue::string(text.toString());
}

} // namespace

api::AuditActor AuditTrail::actorOf(const KeyContext &key)
{
    if (key.scope.keyPk == 0)
        return consoleUser();
    return {u"key"_s, u"key_%1"_s.arg(key.scope.keyPk), key.keyName};
}

api::AuditActor AuditTrail::consoleUser()
{
    QString user = qEnvironmentVariable("USER");
    if (user.isEmpty())
        user = qEnvironmentVariable("USERNAME", u"unknown user"_s);
    return {u"console"_s, std::nullopt, user};
}

api::Result<api::Done> AuditTrail::record(const QSqlDatabase &db, Dialect dialect,
                                          const Scope &scope, const api::AuditActor &actor,
                                          const Change &change, qint64 at)
{
    KeyAllocator keys(db, dialect);
    auto pk = keys.next(u"audit_log"_s);
    if (!pk)
        return pk.error();
    return execute(db,
                   u"INSERT INTO audit_log (pk, org_pk, env, at, actor_kind, actor_key_id,"
                   " actor_name, action, resource_type, resource_id, before, after)"
                   " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s,
                   {pk.value(), scope.orgPk, scope.envWord(), at, actor.kind,
                    actor.keyId ? QVariant(*actor.keyId) : QVariant(), actor.name, change.action,
                    change.resourceType, change.resourceId, jsonText(change.before),
                    jsonText(change.after)});
}

api::Result<api::Page<api::AuditEntry>> AuditTrail::list(const QSqlDatabase &db, const Scope &scope,
                                                         const api::AuditLogRequest &request)
{
    QString where = u"org_pk = ? AND env = ?"_s;
    QVariantList binds{scope.orgPk, scope.envWord()};
    if (request.resourceType) {
        where += u" AND resource_type = ?"_s;
        binds << *request.resourceType;
    }
    if (request.resourceId) {
        where += u" AND resource_id = ?"_s;
        binds << *request.resourceId;
    }
    if (request.actor) {
        where += u" AND (actor_key_id = ? OR actor_name = ?)"_s;
        binds << *request.actor << *request.actor;
    }
    if (request.since) {
        where += u" AND at >= ?"_s;
        binds << *request.since;
    }
    if (!request.startCursor.isEmpty()) {
        const auto before = decodeCursor(request.startCursor);
        if (!before)
            return api::ApiError::invalidCursor(
                u"start_cursor is not a cursor this server issued; pass the next_cursor of a previous page or an empty string"_s);
        where += u" AND pk < ?"_s;
        binds << *before;
    }
    binds << request.limit + 1;
    auto rows = runSql(db,
                       u"SELECT pk, at, actor_kind, actor_key_id, actor_name, action,"
                       " resource_type, resource_id, before, after FROM audit_log WHERE "_s +
                           where + u" ORDER BY pk DESC LIMIT ?"_s,
                       binds);
    if (!rows)
        return rows.error();
    api::Page<api::AuditEntry> page;
    qint64 last = 0;
    QSqlQuery &q = rows.value();
    while (q.next()) {
        if (page.list.size() == request.limit) {
            page.hasMore = true;
            page.nextCursor = QString::fromLatin1(encodeCursor(last));
            break;
        }
        last = q.value(0).toLongLong();
        api::AuditEntry entry;
        entry.id = u"audit_%1"_s.arg(last);
        entry.at = q.value(1).toLongLong();
        entry.actor = {q.value(2).toString(),
                       q.value(3).isNull() ? std::nullopt : std::optional(q.value(3).toString()),
                       q.value(4).toString()};
        entry.action = q.value(5).toString();
        entry.resourceType = q.value(6).toString();
        entry.resourceId = q.value(7).toString();
        entry.before = storedJson(q.value(8));
        entry.after = storedJson(q.value(9));
        page.list.append(std::move(entry));
    }
    return page;
}

} // namespace md::engine
