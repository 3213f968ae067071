#include "services/engine/controls/BillingControlStore.h"

#include "services/api/BillingPeriod.h"
#include "services/engine/ids/KeysetPage.h"
#include "services/engine/ids/PublicIds.h"
#include "services/engine/sql/KeyAllocator.h"
#include "services/engine/sql/PostgresArray.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/sql/StoredJson.h"
#include "services/engine/webhooks/WebhookOutbox.h"

#include <QDateTime>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::Decimal;

namespace {

const QString AlertSelect =
    u"SELECT a.pk, c.id, e.id, f.id, a.name, a.threshold_type, a.threshold,"
    " a.value, a.triggered_at FROM usage_alert_events a"
    " JOIN customers c ON c.pk = a.customer_pk JOIN features f ON f.pk = a.feature_pk"
    " LEFT JOIN entities e ON e.pk = a.entity_pk"_s;

api::UsageAlertEvent alertOf(const PublicIds &ids, const QSqlQuery &q)
{
    api::UsageAlertEvent event;
    event.id = ids.make(PublicIds::Kind::UsageAlert, q.value(0).toLongLong());
    event.customerId = q.value(1).toString();
    event.entityId = optionalText(q.value(2));
    event.featureId = q.value(3).toString();
    event.name = optionalText(q.value(4));
    event.thresholdType =
        api::thresholdTypeFromWire(q.value(5).toString()).value_or(api::ThresholdType::Usage);
    event.threshold = api::Decimal::parse(q.value(6).toString()).value_or(api::Decimal());
    event.value = api::Decimal::parse(q.value(7).toString()).value_or(api::Decimal());
    event.triggeredAt = q.value(8).toLongLong();
    return event;
}

// Entity 0 is the customer's own row in the keyed tables.
qint64 ownerKey(std::optional<qint64> entityPk)
{
    return entityPk.value_or(0);
}

api::ResetInterval resetInterval(api::LimitInterval interval)
{
    switch (interval) {
    case api::LimitInterval::Day:
        return api::ResetInterval::Day;
    case api::LimitInterval::Week:
        return api::ResetInterval::Week;
    case api::LimitInterval::Month:
        return api::ResetInterval::Month;
    case api::LimitInterval::Year:
        break;
    }
    return api::ResetInterval::Year;
}

// The UTC calendar period's start: midnight, Monday, the 1st, 1 January.
qint64 calendarStart(api::LimitInterval interval, qint64 atMs)
{
    const QDate day = QDateTime::fromMSecsSinceEpoch(atMs, Qt::UTC).date();
    QDate start = day;
    switch (interval) {
    case api::LimitInterval::Day:
        break;
    case api::LimitInterval::Week:
        start = day.addDays(1 - day.dayOfWeek());
        break;
    case api::LimitInterval::Month:
        start = QDate(day.year(), day.month(), 1);
        break;
    case api::LimitInterval::Year:
        start = QDate(day.year(), 1, 1);
        break;
    }
    return QDateTime(start, QTime(0, 0), Qt::UTC).toMSecsSinceEpoch();
}

} // namespace

api::Result<std::optional<api::BillingControls>>
BillingControlStore::stored(const QSqlDatabase &db, qint64 customerPk,
                            std::optional<qint64> entityPk)
{
    auto rows = queryRows(
        db, u"SELECT controls FROM billing_controls WHERE customer_pk = ? AND entity_pk = ?"_s,
        {customerPk, ownerKey(entityPk)});
    if (!rows)
        return rows.error();
    if (rows.value().isEmpty())
        return std::optional<api::BillingControls>();
    auto controls =
        decodeStored<api::BillingControls>(rows.value().first().first(), u"billing controls"_s);
    if (!controls)
        return controls.error();
    return std::optional(controls.value());
}

api::Result<api::BillingControls> BillingControlStore::inForce(const QSqlDatabase &db,
                                                               qint64 customerPk,
                                                               std::optional<qint64> entityPk)
{
    if (entityPk) {
        auto own = stored(db, customerPk, entityPk);
        if (!own)
            return own.error();
        if (own.value())
            return *own.value();
    }
    auto customers = stored(db, customerPk, std::nullopt);
    if (!customers)
        return customers.error();
    return customers.value().value_or(api::BillingControls());
}

api::Result<std::map<std::pair<qint64, qint64>, api::BillingControls>>
BillingControlStore::inForceFor(const QSqlDatabase &db,
                                const QList<std::pair<qint64, qint64>> &owners)
{
    QList<qint64> customers;
    for (const auto &owner : owners)
        customers.append(owner.first);
    auto rows = queryRows(db,
                          u"SELECT customer_pk, entity_pk, controls FROM billing_controls"
                          " WHERE customer_pk = ANY(?::bigint[])"_s,
                          {PostgresArray::of(customers)});
    if (!rows)
        return rows.error();
    std::map<std::pair<qint64, qint64>, api::BillingControls> stored; // by customer, ownerKey
    for (const QVariantList &row : std::as_const(rows.value())) {
        auto controls = decodeStored<api::BillingControls>(row.at(2), u"billing controls"_s);
        if (!controls)
            return controls.error();
        stored.emplace(std::pair(row.at(0).toLongLong(), row.at(1).toLongLong()), controls.value());
    }
    std::map<std::pair<qint64, qint64>, api::BillingControls> inForce;
    for (const auto &[customer, entity] : owners) {
        // An entity's own controls replace the customer's (docs/billing-controls.md).
        auto own = entity < 0 ? stored.end() : stored.find({customer, entity});
        if (own == stored.end())
            own = stored.find({customer, ownerKey(std::nullopt)});
        inForce.emplace(std::pair(customer, entity),
                        own == stored.end() ? api::BillingControls() : own->second);
    }
    return inForce;
}

api::Result<api::Done> BillingControlStore::save(const QSqlDatabase &db, qint64 customerPk,
                                                 std::optional<qint64> entityPk,
                                                 const api::BillingControls &controls, qint64 nowMs)
{
    return execute(db,
                   u"INSERT INTO billing_controls (customer_pk, entity_pk, controls, updated_at)"
                   " VALUES (?, ?, ?, ?) ON CONFLICT (customer_pk, entity_pk) DO UPDATE"
                   " SET controls = excluded.controls, updated_at = excluded.updated_at"_s,
                   {customerPk, ownerKey(entityPk), storedText(controls), nowMs});
}

api::Result<qint64> BillingControlStore::windowStart(const QSqlDatabase &db, qint64 customerPk,
                                                     const api::UsageLimit &limit, qint64 atMs)
{
    if (limit.anchor == api::LimitAnchor::Utc)
        return calendarStart(limit.interval, atMs);
    auto cycle = queryRows(
        db,
        u"SELECT COALESCE(cp.current_period_start, cp.started_at), c.created_at FROM customers c"
        " LEFT JOIN customer_products cp ON cp.customer_pk = c.pk"
        " AND cp.status IN ('active', 'trialing', 'past_due')"
        " WHERE c.pk = ? ORDER BY cp.pk DESC LIMIT 1"_s,
        {customerPk});
    if (!cycle)
        return cycle.error();
    if (cycle.value().isEmpty())
        return calendarStart(limit.interval, atMs);
    const QVariantList &row = cycle.value().first();
    const qint64 anchor = row.at(0).isNull() ? row.at(1).toLongLong() : row.at(0).toLongLong();
    return api::BillingPeriod::containing(resetInterval(limit.interval), anchor, atMs).first;
}

api::Result<Decimal> BillingControlStore::windowUsage(const QSqlDatabase &db, qint64 customerPk,
                                                      std::optional<qint64> entityPk,
                                                      qint64 featurePk,
                                                      const api::UsageLimit &limit, qint64 start)
{
    auto rows =
        queryRows(db,
                  u"SELECT window_start, usage FROM usage_windows WHERE customer_pk = ?"
                  " AND entity_pk = ? AND feature_pk = ? AND window_interval = ?"
                  " AND anchor = ?"_s,
                  {customerPk, ownerKey(entityPk), featurePk, QString(api::toWire(limit.interval)),
                   QString(api::toWire(limit.anchor))});
    if (!rows)
        return rows.error();
    // A window that began earlier has run out: nothing counts yet in this one.
    if (rows.value().isEmpty() || rows.value().first().at(0).toLongLong() != start)
        return Decimal();
    return Decimal::parse(rows.value().first().at(1).toString()).value_or(Decimal());
}

api::Result<api::Done>
BillingControlStore::addWindowUsage(const QSqlDatabase &db, Dialect, qint64 customerPk,
                                    std::optional<qint64> entityPk, qint64 featurePk,
                                    const api::UsageLimit &limit, qint64 start, Decimal amount)
{
    auto used = windowUsage(db, customerPk, entityPk, featurePk, limit, start);
    if (!used)
        return used.error();
    const auto total = used.value().plus(amount);
    if (!total)
        return api::ApiError::internal(u"the usage counted toward a limit left the range"_s);
    return execute(db,
                   u"INSERT INTO usage_windows (customer_pk, entity_pk, feature_pk,"
                   " window_interval, anchor, window_start, usage) VALUES (?, ?, ?, ?, ?, ?, ?)"
                   " ON CONFLICT (customer_pk, entity_pk, feature_pk, window_interval, anchor)"
                   " DO UPDATE SET window_start = excluded.window_start, usage = excluded.usage"_s,
                   {customerPk, ownerKey(entityPk), featurePk, QString(api::toWire(limit.interval)),
                    QString(api::toWire(limit.anchor)), start, total->toString()});
}

api::Result<api::BillingControls>
BillingControlStore::withUsage(const QSqlDatabase &db, qint64 customerPk,
                               std::optional<qint64> entityPk, const Scope &scope,
                               api::BillingControls controls, qint64 nowMs)
{
    for (api::UsageLimit &limit : controls.usageLimits) {
        auto feature =
            queryRows(db, u"SELECT pk FROM features WHERE org_pk = ? AND env = ? AND id = ?"_s,
                      {scope.orgPk, scope.envWord(), limit.featureId});
        if (!feature)
            return feature.error();
        if (feature.value().isEmpty()) {
            limit.usage = Decimal();
            continue;
        }
        auto start = windowStart(db, customerPk, limit, nowMs);
        if (!start)
            return start.error();
        auto used = windowUsage(db, customerPk, entityPk,
                                feature.value().first().first().toLongLong(), limit, start.value());
        if (!used)
            return used.error();
        limit.usage = used.value();
    }
    return controls;
}

api::Result<api::Done> BillingControlStore::recordAlert(const QSqlDatabase &db, Dialect dialect,
                                                        KeyAllocator &keys, const Scope &scope,
                                                        qint64 customerPk,
                                                        std::optional<qint64> entityPk,
                                                        const FiredAlert &fired, qint64 nowMs)
{
    auto pk = keys.next(u"usage_alert_events"_s);
    if (!pk)
        return pk.error();
    if (auto inserted =
            execute(db,
                    u"INSERT INTO usage_alert_events (pk, org_pk, env, customer_pk, entity_pk,"
                    " feature_pk, name, threshold_type, threshold, value, triggered_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s,
                    {pk.value(), scope.orgPk, scope.envWord(), customerPk,
                     entityPk ? QVariant(*entityPk) : QVariant(), fired.featurePk,
                     fired.alert.name ? QVariant(*fired.alert.name) : QVariant(),
                     QString(api::toWire(fired.alert.thresholdType)),
                     fired.alert.threshold.toString(), fired.value.toString(), nowMs});
        !inserted)
        return inserted;
    // Pushed as well as listed, when some endpoint wants it.
    return WebhookOutbox(db, dialect, scope, nowMs, &keys)
        .addIfWanted(u"balances.usage_alert_triggered"_s, [&]() -> api::Result<api::JsonValue> {
            auto publicIds = PublicIds::of(db);
            if (!publicIds)
                return publicIds.error();
            auto row = runSql(db, AlertSelect + u" WHERE a.pk = ?"_s, {pk.value()});
            if (!row)
                return row.error();
            if (!row.value().next())
                return api::ApiError::internal(u"the usage alert just recorded was not found"_s);
            return jsonOf(alertOf(publicIds.value(), row.value()));
        });
}

api::Result<api::Page<api::UsageAlertEvent>>
BillingControlStore::alerts(const QSqlDatabase &db, const Scope &scope,
                            const api::PageRequest &request)
{
    auto before = decodeCursor(db, scope, "a1", request.startCursor, 1);
    if (!before)
        return before.error();
    auto publicIds = PublicIds::of(db);
    if (!publicIds)
        return publicIds.error();
    QString sql = AlertSelect + u" WHERE a.org_pk = ? AND a.env = ?"_s;
    QVariantList binds{scope.orgPk, scope.envWord()};
    if (request.customerId) {
        sql += u" AND c.id = ?"_s;
        binds << *request.customerId;
    }
    if (before.value()) {
        sql += u" AND a.pk < ?"_s;
        binds << before.value()->first();
    }
    sql += u" ORDER BY a.pk DESC LIMIT ?"_s;
    binds << request.limit + 1;
    auto query = runSql(db, sql, binds);
    if (!query)
        return query.error();
    return page<api::UsageAlertEvent>(
        db, scope, query.value(), request.limit, "a1", 1,
        [&](const QSqlQuery &q) { return alertOf(publicIds.value(), q); });
}

} // namespace md::engine
