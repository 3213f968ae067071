// What tst_publicids and tst_idmigrations read of an engine: its public ids,
// and pages of an environment's audit log.
#pragma once

#include "services/api/AuditLog.h"
#include "services/engine/Engine.h"
#include "services/engine/ids/PublicIds.h"
#include "services/engine/ledger/AuditTrail.h"

namespace md::test {

inline engine::PublicIds idsOf(engine::Engine &engine)
{
    auto ids = engine::PublicIds::of(engine.database().connection().value());
    if (!ids)
        qFatal("no public ids: %s", qPrintable(ids.error().message));
    return ids.value();
}

inline api::Result<api::Page<api::AuditEntry>>
auditLog(engine::Engine &engine, const engine::Scope &scope, api::AuditLogRequest request)
{
    return engine.withConnection(
        [&](const QSqlDatabase &db) { return engine::AuditTrail::list(db, scope, request); });
}

inline api::AuditLogRequest firstPage(qint64 limit = 1)
{
    api::AuditLogRequest request;
    request.limit = limit;
    return request;
}

} // namespace md::test
