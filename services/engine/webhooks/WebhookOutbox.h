// The webhook outbox (docs/api.md, "Webhooks"): an event is stored in the
// transaction of the change it reports, with one delivery per enabled
// endpoint of its environment subscribed to its type, so a change rolled
// back sends nothing and a committed one is sent even after a crash. An
// event no endpoint wants is not stored at all.
#pragma once

#include "services/api/JsonValue.h"
#include "services/api/Result.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/KeyAllocator.h"
#include "services/engine/sql/Scope.h"
#include "services/engine/sql/Sql.h"

#include <QSqlDatabase>

#include <functional>
#include <optional>

namespace md::engine {

class WebhookOutbox final
{
public:
    // Events of `scope` happening at `nowMs` (a sandbox's now, maybe moved
    // on), inside the caller's transaction. Their deliveries are due at once.
    // `keys`: the caller's, when it has one (on PostgreSQL each allocator
    // fetches a block of keys per table).
    WebhookOutbox(QSqlDatabase db, Dialect dialect, const Scope &scope, qint64 nowMs,
                  KeyAllocator *keys = nullptr);

    // True when some enabled endpoint wants `type`: a producer whose data
    // costs a read asks first.
    api::Result<bool> wants(const QString &type);
    // Stores the event `{type, timestamp, data}` and its deliveries; the
    // new event's key, or nullopt when no endpoint wants it.
    api::Result<std::optional<qint64>> add(const QString &type, const api::JsonValue &data);
    // add(), reading the data only when some endpoint wants the type.
    api::Result<api::Done> addIfWanted(const QString &type,
                                       const std::function<api::Result<api::JsonValue>()> &data);
    // The same for one endpoint only (webhook_endpoints.send_test), wanted or not.
    api::Result<qint64> addFor(qint64 endpointPk, const QString &type, const api::JsonValue &data);

    // Which endpoints want which events is read once a second at most per
    // environment and process (the usage path meets alerts and resets
    // often, endpoints change seldom); a change here is seen at once, one
    // made on another server within EndpointsKeptMs.
    static constexpr qint64 EndpointsKeptMs = 1000;
    static void forget(const QSqlDatabase &db, const Scope &scope);

    // One event, for a producer that has only this one.
    static api::Result<api::Done> record(const QSqlDatabase &db, Dialect dialect,
                                         const Scope &scope, qint64 nowMs, const QString &type,
                                         const api::JsonValue &data);
    // The bytes sent and signed.
    static QByteArray body(const QString &type, qint64 atMs, const api::JsonValue &data);

private:
    struct Endpoint
    {
        qint64 pk = 0;
        QStringList events;
    };
    api::Result<api::Done> loadEndpoints();
    api::Result<qint64> store(const QString &type, const api::JsonValue &data,
                              const QList<qint64> &endpointPks);

    QSqlDatabase m_db;
    Scope m_scope;
    qint64 m_now = 0;
    std::optional<KeyAllocator> m_ownKeys;
    KeyAllocator *m_keys;
    std::optional<QList<Endpoint>> m_endpoints;
};

} // namespace md::engine
