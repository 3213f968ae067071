#include "services/engine/webhooks/WebhookOutbox.h"

#include "services/api/JsonWriter.h"
#include "services/api/WireCodec.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QHash>
#include <QMutex>

namespace md::engine {

using namespace Qt::StringLiterals;

WebhookOutbox::WebhookOutbox(QSqlDatabase db, Dialect dialect, const Scope &scope, qint64 nowMs,
                             KeyAllocator *keys)
    : m_db(std::move(db))
    , m_scope(scope)
    , m_now(nowMs)
    , m_keys(keys)
{
    if (!m_keys)
        m_keys = &m_ownKeys.emplace(m_db, dialect);
}

namespace {

// The endpoints each environment's events go to, kept a moment.
struct Kept
{
    QList<std::pair<qint64, QStringList>> endpoints;
    QDeadlineTimer expiry;
};
QMutex keptMutex;
QHash<QString, Kept> kept; // by database and scope

QString keptKey(const QSqlDatabase &db, const Scope &scope)
{
    return u"%1|%2|%3|%4|%5|%6"_s.arg(db.driverName(), db.hostName())
        .arg(db.port())
        .arg(db.databaseName())
        .arg(scope.orgPk)
        .arg(scope.envWord());
}

} // namespace

void WebhookOutbox::forget(const QSqlDatabase &db, const Scope &scope)
{
    const QMutexLocker lock(&keptMutex);
    kept.remove(keptKey(db, scope));
}

api::Result<api::Done> WebhookOutbox::loadEndpoints()
{
    if (m_endpoints)
        return api::Done{};
    const QString key = keptKey(m_db, m_scope);
    {
        const QMutexLocker lock(&keptMutex);
        if (const auto it = kept.constFind(key); it != kept.cend() && !it->expiry.hasExpired()) {
            m_endpoints.emplace();
            for (const auto &[pk, events] : it->endpoints)
                m_endpoints->append({pk, events});
            return api::Done{};
        }
    }
    auto rows = queryRows(m_db,
                          u"SELECT pk, events FROM webhook_endpoints WHERE org_pk = ? AND env = ?"
                          " AND disabled_at IS NULL ORDER BY pk"_s,
                          {m_scope.orgPk, m_scope.envWord()});
    if (!rows)
        return rows.error();
    Kept read{{}, QDeadlineTimer(EndpointsKeptMs)};
    m_endpoints.emplace();
    for (const QVariantList &row : std::as_const(rows.value())) {
        const auto events = api::JsonReader::fromBody(row.at(1).toString().toUtf8());
        m_endpoints->append({row.at(0).toLongLong(), api::readStringList(events)});
        read.endpoints.append({m_endpoints->last().pk, m_endpoints->last().events});
    }
    const QMutexLocker lock(&keptMutex);
    kept.insert(key, std::move(read));
    return api::Done{};
}

api::Result<bool> WebhookOutbox::wants(const QString &type)
{
    if (auto loaded = loadEndpoints(); !loaded)
        return loaded.error();
    for (const Endpoint &endpoint : std::as_const(*m_endpoints))
        if (endpoint.events.contains(type) || endpoint.events.contains(u"*"_s))
            return true;
    return false;
}

api::Result<std::optional<qint64>> WebhookOutbox::add(const QString &type,
                                                      const api::JsonValue &data)
{
    if (auto loaded = loadEndpoints(); !loaded)
        return loaded.error();
    QList<qint64> subscribed;
    for (const Endpoint &endpoint : std::as_const(*m_endpoints))
        if (endpoint.events.contains(type) || endpoint.events.contains(u"*"_s))
            subscribed.append(endpoint.pk);
    if (subscribed.isEmpty())
        return std::optional<qint64>();
    auto stored = store(type, data, subscribed);
    if (!stored)
        return stored.error();
    return std::optional(stored.value());
}

api::Result<api::Done>
WebhookOutbox::addIfWanted(const QString &type,
                           const std::function<api::Result<api::JsonValue>()> &data)
{
    auto wanted = wants(type);
    if (!wanted)
        return wanted.error();
    if (!wanted.value())
        return api::Done{};
    auto value = data();
    if (!value)
        return value.error();
    auto added = add(type, value.value());
    if (!added)
        return added.error();
    return api::Done{};
}

api::Result<qint64> WebhookOutbox::addFor(qint64 endpointPk, const QString &type,
                                          const api::JsonValue &data)
{
    return store(type, data, {endpointPk});
}

api::Result<qint64> WebhookOutbox::store(const QString &type, const api::JsonValue &data,
                                         const QList<qint64> &endpointPks)
{
    auto eventPk = m_keys->next(u"webhook_events"_s);
    if (!eventPk)
        return eventPk.error();
    if (auto inserted = execute(
            m_db,
            u"INSERT INTO webhook_events (pk, org_pk, env, type, at, body) VALUES (?, ?, ?, ?, ?, ?)"_s,
            {eventPk.value(), m_scope.orgPk, m_scope.envWord(), type, m_now,
             QString::fromUtf8(body(type, m_now, data))});
        !inserted)
        return inserted.error();
    for (const qint64 endpointPk : endpointPks) {
        auto pk = m_keys->next(u"webhook_deliveries"_s);
        if (!pk)
            return pk.error();
        // Only to an endpoint still there and enabled: the list may be a second old.
        if (auto inserted = execute(
                m_db,
                u"INSERT INTO webhook_deliveries (pk, event_pk, endpoint_pk, org_pk, env, type,"
                " status, attempts, next_attempt_at, created_at)"
                " SELECT ?, ?, pk, org_pk, env, ?, 'pending', 0, 0, ? FROM webhook_endpoints"
                " WHERE pk = ? AND disabled_at IS NULL"_s,
                {pk.value(), eventPk.value(), type, m_now, endpointPk});
            !inserted)
            return inserted.error();
    }
    return eventPk.value();
}

api::Result<api::Done> WebhookOutbox::record(const QSqlDatabase &db, Dialect dialect,
                                             const Scope &scope, qint64 nowMs, const QString &type,
                                             const api::JsonValue &data)
{
    WebhookOutbox outbox(db, dialect, scope, nowMs);
    auto added = outbox.add(type, data);
    if (!added)
        return added.error();
    return api::Done{};
}

QByteArray WebhookOutbox::body(const QString &type, qint64 atMs, const api::JsonValue &data)
{
    api::JsonWriter writer;
    writer.beginObject()
        .field("type"_L1, type)
        .field("timestamp"_L1,
               QDateTime::fromMSecsSinceEpoch(atMs, Qt::UTC).toString(Qt::ISODateWithMs))
        .key("data"_L1);
    data.write(writer);
    writer.endObject();
    return writer.take();
}

} // namespace md::engine
