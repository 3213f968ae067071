#include "services/engine/webhooks/WebhookDeliveries.h"

#include "services/engine/ids/KeysetPage.h"
#include "services/engine/ids/PublicIds.h"
#include "services/engine/sql/Sql.h"

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

const QString Select =
    u"SELECT d.pk, d.event_pk, d.endpoint_pk, d.type, d.status, d.attempts, d.last_status,"
    " d.last_answer, d.last_error, d.last_attempt_at, d.next_attempt_at, d.created_at, ev.body"
    " FROM webhook_deliveries d JOIN webhook_events ev ON ev.pk = d.event_pk"_s;

api::WebhookDelivery deliveryOf(const PublicIds &ids, const QSqlQuery &q)
{
    api::WebhookDelivery delivery;
    delivery.id = ids.make(PublicIds::Kind::WebhookDelivery, q.value(0).toLongLong());
    delivery.eventId = ids.make(PublicIds::Kind::WebhookEvent, q.value(1).toLongLong());
    delivery.endpointId = ids.make(PublicIds::Kind::WebhookEndpoint, q.value(2).toLongLong());
    delivery.type = q.value(3).toString();
    delivery.status =
        api::deliveryStatusFromWire(q.value(4).toString()).value_or(api::DeliveryStatus::Pending);
    delivery.attempts = q.value(5).toLongLong();
    delivery.lastStatusCode = optionalInteger(q.value(6));
    delivery.lastAnswer = optionalText(q.value(7));
    delivery.lastError = optionalText(q.value(8));
    delivery.lastAttemptAt = optionalInteger(q.value(9));
    delivery.nextAttemptAt = delivery.status == api::DeliveryStatus::Pending
                                 ? optionalInteger(q.value(10))
                                 : std::nullopt;
    delivery.createdAt = q.value(11).toLongLong();
    auto payload = api::JsonValue::parse(q.value(12).toString().toUtf8(), u"a webhook event"_s);
    delivery.payload = payload ? payload.value() : api::JsonValue::null();
    return delivery;
}

} // namespace

WebhookDeliveries::WebhookDeliveries(QSqlDatabase db, const Scope &scope, qint64 nowMs)
    : m_db(std::move(db))
    , m_scope(scope)
    , m_now(nowMs)
{}

api::Result<api::Page<api::WebhookDelivery>>
WebhookDeliveries::list(const api::WebhookDeliveriesRequest &request)
{
    auto before = decodeCursor(m_db, m_scope, "w1", request.startCursor, 1);
    if (!before)
        return before.error();
    auto publicIds = PublicIds::of(m_db);
    if (!publicIds)
        return publicIds.error();
    QString where = u" WHERE d.org_pk = ? AND d.env = ?"_s;
    QVariantList binds{m_scope.orgPk, m_scope.envWord()};
    if (request.endpointId) {
        const auto endpoint =
            publicIds.value().parse(PublicIds::Kind::WebhookEndpoint, *request.endpointId);
        if (!endpoint)
            return api::ApiError::invalidInputs(
                u"endpoint_id"_s, u"is no webhook endpoint's id (they start with we_)"_s);
        where += u" AND d.endpoint_pk = ?"_s;
        binds << endpoint->pk;
    }
    if (request.status) {
        where += u" AND d.status = ?"_s;
        binds << QString(api::toWire(*request.status));
    }
    if (request.type) {
        where += u" AND d.type = ?"_s;
        binds << *request.type;
    }
    if (before.value()) {
        where += u" AND d.pk < ?"_s;
        binds << before.value()->first();
    }
    binds << request.limit + 1;
    auto rows = runSql(m_db, Select + where + u" ORDER BY d.pk DESC LIMIT ?"_s, binds);
    if (!rows)
        return rows.error();
    return page<api::WebhookDelivery>(
        m_db, m_scope, rows.value(), request.limit, "w1", 1,
        [&](const QSqlQuery &q) { return deliveryOf(publicIds.value(), q); });
}

api::Result<api::WebhookDelivery> WebhookDeliveries::read(qint64 pk)
{
    auto publicIds = PublicIds::of(m_db);
    if (!publicIds)
        return publicIds.error();
    auto rows = runSql(m_db, Select + u" WHERE d.pk = ? AND d.org_pk = ? AND d.env = ?"_s,
                       {pk, m_scope.orgPk, m_scope.envWord()});
    if (!rows)
        return rows.error();
    if (!rows.value().next())
        return api::ApiError::notFound(
            api::ErrorCode::WebhookDeliveryNotFound,
            u"that webhook delivery is not one of this environment's; webhook_deliveries.list"
            " shows them"_s);
    return deliveryOf(publicIds.value(), rows.value());
}

api::Result<api::WebhookDelivery> WebhookDeliveries::redeliver(const QString &id)
{
    auto publicIds = PublicIds::of(m_db);
    if (!publicIds)
        return publicIds.error();
    const auto row = publicIds.value().parse(PublicIds::Kind::WebhookDelivery, id);
    auto found = read(row ? row->pk : 0);
    if (!found)
        return found;
    if (auto again =
            execute(m_db,
                    found.value().status == api::DeliveryStatus::Pending
                        ? u"UPDATE webhook_deliveries SET next_attempt_at = ? WHERE pk = ?"_s
                        : u"UPDATE webhook_deliveries SET status = 'pending', attempts = 0,"
                          " next_attempt_at = ? WHERE pk = ?"_s,
                    {m_now, row->pk});
        !again)
        return again.error();
    return read(row->pk);
}

} // namespace md::engine
