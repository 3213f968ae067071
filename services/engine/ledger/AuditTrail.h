// The audit log's store (docs/api.md, "audit_log.list"): entries are added
// inside the transaction of the write they record, so a write and its entry
// commit or vanish together; the schema refuses any change to a row once
// added (resources/migrations/0005_audit_log.sql).
#pragma once

#include "services/api/AuditLog.h"
#include "services/api/Page.h"
#include "services/api/Result.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

class AuditTrail final
{
public:
    // The console on its own workspace, or the command line: the
    // operating-system user.
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
};

} // namespace md::engine
