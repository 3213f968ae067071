#include "services/engine/webhooks/WebhookEndpoints.h"

#include "services/api/JsonWriter.h"
#include "services/engine/ids/PublicIds.h"
#include "services/engine/sql/KeyAllocator.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/webhooks/WebhookSignature.h"

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

const QString Columns =
    u"e.pk, e.url, e.events, e.description, e.disabled_at, e.disabled_reason, e.failing_since,"
    " e.created_at, e.updated_at, (SELECT COUNT(*) FROM webhook_deliveries d"
    " WHERE d.endpoint_pk = e.pk AND d.status = 'pending')"_s;

QString eventsText(const QStringList &events)
{
    api::JsonWriter writer;
    api::writeStrings(writer, events);
    return QString::fromUtf8(writer.take());
}

api::WebhookEndpoint endpointOf(const PublicIds &ids, const QVariantList &row)
{
    api::WebhookEndpoint endpoint;
    endpoint.id = ids.make(PublicIds::Kind::WebhookEndpoint, row.at(0).toLongLong());
    endpoint.url = row.at(1).toString();
    endpoint.events = api::readStringList(api::JsonReader::fromBody(row.at(2).toString().toUtf8()));
    endpoint.description = optionalText(row.at(3));
    endpoint.enabled = row.at(4).isNull();
    endpoint.disabledReason = optionalText(row.at(5));
    if (!row.at(6).isNull())
        endpoint.failingSince = row.at(6).toLongLong();
    endpoint.createdAt = row.at(7).toLongLong();
    endpoint.updatedAt = row.at(8).toLongLong();
    endpoint.pending = row.at(9).toLongLong();
    return endpoint;
}

api::ApiError notFound(const QString &id)
{
    return api::ApiError::notFound(
        api::ErrorCode::WebhookEndpointNotFound,
        u"webhook endpoint %1 is not one of this environment's; webhook_endpoints.list shows them"_s
            .arg(id));
}

} // namespace

WebhookEndpoints::WebhookEndpoints(QSqlDatabase db, Dialect dialect, const Scope &scope,
                                   qint64 nowMs)
    : m_db(std::move(db))
    , m_dialect(dialect)
    , m_scope(scope)
    , m_now(nowMs)
{}

api::Result<api::Page<api::WebhookEndpoint>> WebhookEndpoints::list()
{
    auto ids = PublicIds::of(m_db);
    if (!ids)
        return ids.error();
    auto rows = queryRows(m_db,
                          u"SELECT "_s + Columns +
                              u" FROM webhook_endpoints e WHERE e.org_pk = ? AND e.env = ?"
                              " ORDER BY e.pk"_s,
                          {m_scope.orgPk, m_scope.envWord()});
    if (!rows)
        return rows.error();
    api::Page<api::WebhookEndpoint> page;
    for (const QVariantList &row : std::as_const(rows.value()))
        page.list.append(endpointOf(ids.value(), row));
    return page;
}

api::Result<api::WebhookEndpoint> WebhookEndpoints::read(qint64 pk)
{
    auto ids = PublicIds::of(m_db);
    if (!ids)
        return ids.error();
    auto rows = queryRows(
        m_db, u"SELECT "_s + Columns + u" FROM webhook_endpoints e WHERE e.pk = ?"_s, {pk});
    if (!rows)
        return rows.error();
    if (rows.value().isEmpty())
        return api::ApiError::internal(u"webhook endpoint %1 vanished"_s.arg(pk));
    return endpointOf(ids.value(), rows.value().first());
}

api::Result<qint64> WebhookEndpoints::keyOf(const QString &id)
{
    auto pk = PublicIds::scopedKey(m_db, PublicIds::Kind::WebhookEndpoint, id, m_scope);
    if (!pk)
        return pk.error();
    if (!pk.value())
        return notFound(id);
    return *pk.value();
}

api::Result<api::WebhookEndpoint> WebhookEndpoints::get(const QString &id)
{
    auto pk = keyOf(id);
    if (!pk)
        return pk.error();
    return read(pk.value());
}

api::Result<api::WebhookEndpoint>
WebhookEndpoints::create(const api::WebhookEndpointCreate &request, const WebhookPolicy &policy)
{
    if (const auto problem = WebhookUrlRule::urlProblem(request.url, policy))
        return api::ApiError::invalidInputs(u"url"_s, *problem);
    auto count =
        queryRows(m_db, u"SELECT COUNT(*) FROM webhook_endpoints WHERE org_pk = ? AND env = ?"_s,
                  {m_scope.orgPk, m_scope.envWord()});
    if (!count)
        return count.error();
    if (count.value().first().first().toLongLong() >= MaxPerEnvironment)
        return api::ApiError::invalidInputs(
            u"url"_s,
            u"cannot be added: this environment has %1 endpoints, the most it may have;"
            " delete one or subscribe an existing one to more events"_s.arg(MaxPerEnvironment));
    KeyAllocator keys(m_db, m_dialect);
    auto pk = keys.next(u"webhook_endpoints"_s);
    if (!pk)
        return pk.error();
    const QString secret = WebhookSignature::newSecret();
    if (auto inserted = execute(
            m_db,
            u"INSERT INTO webhook_endpoints (pk, org_pk, env, url, events, description, secret,"
            " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"_s,
            {pk.value(), m_scope.orgPk, m_scope.envWord(), request.url, eventsText(request.events),
             request.description ? QVariant(*request.description) : QVariant(), secret, m_now,
             m_now});
        !inserted)
        return inserted.error();
    auto created = read(pk.value());
    if (created)
        created.value().secret = secret;
    return created;
}

api::Result<api::WebhookEndpoint>
WebhookEndpoints::update(const api::WebhookEndpointUpdate &request, const WebhookPolicy &policy)
{
    auto pk = keyOf(request.id);
    if (!pk)
        return pk.error();
    auto was = read(pk.value());
    if (!was)
        return was;
    api::WebhookEndpoint next = was.value();
    if (request.url && *request.url != next.url) {
        if (const auto problem = WebhookUrlRule::urlProblem(*request.url, policy))
            return api::ApiError::invalidInputs(u"url"_s, *problem);
        next.url = *request.url;
    }
    if (request.events)
        next.events = *request.events;
    if (request.description)
        next.description = *request.description;
    if (request.enabled)
        next.enabled = *request.enabled;
    if (next == was.value())
        return was;
    const bool enabling = next.enabled && !was.value().enabled;
    const bool disabling = !next.enabled && was.value().enabled;
    QVariant disabledAt = disabling ? QVariant(m_now) : QVariant();
    QVariant reason =
        disabling ? QVariant(u"disabled through webhook_endpoints.update"_s) : QVariant();
    QString sql = u"UPDATE webhook_endpoints SET url = ?, events = ?, description = ?,"
                  " updated_at = ?"_s;
    QVariantList binds{next.url, eventsText(next.events),
                       next.description ? QVariant(*next.description) : QVariant(), m_now};
    if (enabling || disabling) {
        // Enabled again: its failures so far no longer count toward disabling it.
        sql += u", disabled_at = ?, disabled_reason = ?, failing_since = NULL"_s;
        binds << disabledAt << reason;
    }
    binds << pk.value();
    if (auto updated = execute(m_db, sql + u" WHERE pk = ?"_s, binds); !updated)
        return updated.error();
    return read(pk.value());
}

api::Result<api::WebhookEndpointDeleted> WebhookEndpoints::remove(const QString &id)
{
    auto pk = keyOf(id);
    if (!pk)
        return pk.error();
    if (auto gone =
            execute(m_db, u"DELETE FROM webhook_deliveries WHERE endpoint_pk = ?"_s, {pk.value()});
        !gone)
        return gone.error();
    if (auto gone = execute(m_db, u"DELETE FROM webhook_endpoints WHERE pk = ?"_s, {pk.value()});
        !gone)
        return gone.error();
    return api::WebhookEndpointDeleted{id, true};
}

api::Result<api::WebhookEndpoint> WebhookEndpoints::rotateSecret(const QString &id)
{
    auto pk = keyOf(id);
    if (!pk)
        return pk.error();
    const QString secret = WebhookSignature::newSecret();
    if (auto rotated = execute(m_db,
                               u"UPDATE webhook_endpoints SET previous_secret = secret, secret = ?,"
                               " previous_until = ?, updated_at = ? WHERE pk = ?"_s,
                               {secret, m_now + PreviousSecretLifetimeMs, m_now, pk.value()});
        !rotated)
        return rotated.error();
    auto endpoint = read(pk.value());
    if (endpoint)
        endpoint.value().secret = secret;
    return endpoint;
}

} // namespace md::engine
