#include "services/engine/ledger/AuditTrail.h"

#include "services/api/JsonReader.h"
#include "services/engine/ids/KeysetPage.h"
#include "services/engine/ids/PublicIds.h"
#include "services/engine/sql/KeyAllocator.h"
#include "services/engine/sql/Sql.h"

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

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
    std::optional<QString> keyId = actor.keyId;
    if (actor.kind == "key"_L1) {
        auto publicIds = PublicIds::of(db);
        if (!publicIds)
            return publicIds.error();
        keyId = publicIds.value().make(PublicIds::Kind::ApiKey, scope.keyPk);
    }
    KeyAllocator keys(db, dialect);
    auto pk = keys.next(u"audit_log"_s);
    if (!pk)
        return pk.error();
    return execute(db,
                   u"INSERT INTO audit_log (pk, org_pk, env, at, actor_kind, actor_key_id,"
                   " actor_name, action, resource_type, resource_id, before, after)"
                   " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s,
                   {pk.value(), scope.orgPk, scope.envWord(), at, actor.kind,
                    keyId ? QVariant(*keyId) : QVariant(), actor.name, change.action,
                    change.resourceType, change.resourceId, jsonText(change.before),
                    jsonText(change.after)});
}

api::Result<api::Page<api::AuditEntry>> AuditTrail::list(const QSqlDatabase &db, const Scope &scope,
                                                         const api::AuditLogRequest &request)
{
    auto before = decodeCursor(db, scope, "g1", request.startCursor, 1);
    if (!before)
        return before.error();
    auto publicIds = PublicIds::of(db);
    if (!publicIds)
        return publicIds.error();
    const PublicIds &ids = publicIds.value();
    // A key is found by either spelling of its id: entries written before
    // migration 8 hold its legacy id (docs/storage.md, "Ids and cursors").
    const auto keyIdSpellings = [&](const QString &id) {
        const auto key = ids.parse(PublicIds::Kind::ApiKey, id);
        return key ? ids.spellings(PublicIds::Kind::ApiKey, key->pk) : QStringList{id};
    };
    const auto marks = [](qsizetype count) { return QStringList(count, u"?"_s).join(u", "_s); };
    QString where = u"org_pk = ? AND env = ?"_s;
    QVariantList binds{scope.orgPk, scope.envWord()};
    if (request.resourceType) {
        where += u" AND resource_type = ?"_s;
        binds << *request.resourceType;
    }
    if (request.resourceId) {
        const QStringList names = request.resourceType == "api_key"_L1
                                      ? keyIdSpellings(*request.resourceId)
                                      : QStringList{*request.resourceId};
        where += u" AND resource_id IN ("_s + marks(names.size()) + u')';
        for (const QString &name : names)
            binds << name;
    }
    if (request.actor) {
        const QStringList keyIds = keyIdSpellings(*request.actor);
        where += u" AND (actor_key_id IN ("_s + marks(keyIds.size()) + u") OR actor_name = ?)"_s;
        for (const QString &keyId : keyIds)
            binds << keyId;
        binds << *request.actor;
    }
    if (request.since) {
        where += u" AND at >= ?"_s;
        binds << *request.since;
    }
    if (before.value()) {
        where += u" AND pk < ?"_s;
        binds << before.value()->first();
    }
    binds << request.limit + 1;
    auto rows = runSql(db,
                       u"SELECT pk, at, actor_kind, actor_key_id, actor_name, action,"
                       " resource_type, resource_id, before, after FROM audit_log WHERE "_s +
                           where + u" ORDER BY pk DESC LIMIT ?"_s,
                       binds);
    if (!rows)
        return rows.error();
    return page<api::AuditEntry>(
        db, scope, rows.value(), request.limit, "g1", 1, [&](const QSqlQuery &q) {
            api::AuditEntry entry;
            entry.id = ids.make(PublicIds::Kind::AuditEntry, q.value(0).toLongLong());
            entry.at = q.value(1).toLongLong();
            // Ids as issued now: a legacy key id stored then is shown in its new form.
            entry.actor = {q.value(2).toString(),
                           q.value(3).isNull() ? std::nullopt
                                               : std::optional(ids.current(PublicIds::Kind::ApiKey,
                                                                           q.value(3).toString())),
                           q.value(4).toString()};
            entry.action = q.value(5).toString();
            entry.resourceType = q.value(6).toString();
            entry.resourceId = entry.resourceType == "api_key"_L1
                                   ? ids.current(PublicIds::Kind::ApiKey, q.value(7).toString())
                                   : q.value(7).toString();
            entry.before = storedJson(q.value(8));
            entry.after = storedJson(q.value(9));
            return entry;
        });
}

} // namespace md::engine
