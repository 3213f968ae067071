// An organization's payment processor secret keys, one per environment
// (docs/processors.md, "Keys"). Connected from the command line
// (`meterdesk-server processors connect`); stored sealed with AES-256-GCM
// (OpenSSL) under a key drawn from the workspace secret and bound to the
// organization and environment, so a sealed key copied to another row or
// database does not open. Only the hint (sk_test_…1234) is ever shown.
#pragma once

#include "services/api/AuditLog.h"
#include "services/api/Result.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

#include <optional>

namespace md::engine {

class ProcessorKeys final
{
public:
    struct Connected
    {
        QString env; // test or live
        QString hint;
        qint64 connectedAt = 0;
    };

    // What may be shown of a key: its prefix and last four characters.
    static QString hintOf(const QString &secret);
    // Why `secret` cannot be the key of `env` (a Stripe secret or
    // restricted key of that mode, printable, without spaces); none when it can.
    static std::optional<QString> problemOf(const QString &secret, Environment env);

    // Stores `secret` for the organization's environment, replacing the key
    // it had, and records `processor_key.connected` with the hint only.
    // `actor` is who the audit log names: the console's user unless a key asked.
    static api::Result<Connected> connect(const QSqlDatabase &db, Dialect dialect,
                                          const Scope &scope, const QString &secret, qint64 nowMs,
                                          const std::optional<api::AuditActor> &actor = {});
    // Forgets it; 404 when none is connected.
    static api::Result<api::Done> disconnect(const QSqlDatabase &db, Dialect dialect,
                                             const Scope &scope, qint64 nowMs,
                                             const std::optional<api::AuditActor> &actor = {});
    static api::Result<QList<Connected>> list(const QSqlDatabase &db, qint64 orgPk);
    // The key itself, for a request to the processor; 404 naming the
    // command when none is connected.
    static api::Result<QString> secret(const QSqlDatabase &db, const Scope &scope);
};

} // namespace md::engine
