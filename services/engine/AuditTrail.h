// The audit log's store (docs/api.md, "audit_log.list"): entries are added
// inside the transaction of the write they record, so a write and its entry
// commit or vanish together; the schema refuses any change to a row once
// added (resources/migrations/0005_audit_log.sql).
#pragma once

#include "services/api/AuditLog.h"
#include "services/api/Result.h"
#include "services/engine/Database.h"
#include "services/engine/Engine.h"
#include "services/engine/Scope.h"
#include "services/engine/Sql.h"

#include <QSqlDatabase>

namespace md::engine {

class AuditTrail final
{
public:
    // Who acts: the calling key, or (no key: the console on its own
    // workspace, the command line) the operating-system user.
    static api::AuditActor actorOf(const KeyContext &key);
    static api::AuditActor consoleUser();

    struct Change
    {
        QString action;
        QString resourceType;
        QString resourceId;
        api::JsonValue before = api::JsonValue::null();
        api::JsonValue after = api::JsonValue::null();
    };
    static api::Result<api::Done> record(const QSqlDatabase &db, Dialect dialect,
                                         const Scope &scope, const api::AuditActor &actor,
                                         const Change &change, qint64 at);

    static api::Result<api::Page<api::AuditEntry>> list(const QSqlDatabase &db, const Scope &scope,
                                                        const api::AuditLogRequest &request);

    // A wire value as JSON, for before and after.
    template <typename T> static api::JsonValue jsonOf(const T &value)
    {
        auto parsed = api::JsonValue::parse(api::toJsonText(value), QString(), 64);
        return parsed ? parsed.value() : api::JsonValue::null();
    }

    // Runs `write` (db -> Result<T>) in a transaction that also records
    // `change`: `before` (db -> Result<JsonValue>) reads the resource first,
    // in the same transaction, and `after` (T -> JsonValue) describes the
    // answer. A failed write records nothing, and nor does one whose
    // `before` and `after` are the same.
    template <typename T, typename Before, typename Write, typename After>
    static api::Result<T> audited(Engine &engine, const KeyContext &key, Change change,
                                  Before before, Write write, After after)
    {
        return engine.withConnection([&](const QSqlDatabase &db) -> api::Result<T> {
            WriteTransaction transaction(db, engine.dialect());
            if (auto begun = transaction.begin(); !begun)
                return begun.error();
            api::Result<api::JsonValue> was = before(db);
            if (!was)
                return was.error();
            api::Result<T> result = write(db);
            if (!result)
                return result;
            change.before = std::move(was).value();
            change.after = after(result.value());
            // Only real changes: a write that leaves the resource as it was
            // (an update sending what is stored) answers it but records nothing.
            if (change.before != change.after)
                if (auto recorded =
                        record(db, engine.dialect(), key.scope, actorOf(key), change, engine.now());
                    !recorded)
                    return recorded.error();
            if (auto committed = transaction.commit(); !committed)
                return committed.error();
            return result;
        });
    }
};

} // namespace md::engine
