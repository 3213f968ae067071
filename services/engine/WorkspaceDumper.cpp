#include "services/engine/WorkspaceDumper.h"

#include "services/api/Decimal.h"
#include "services/engine/Scope.h"
#include "services/engine/Sql.h"
#include "services/engine/WorkspaceLoader.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

QJsonValue nullableInteger(const QVariant &value)
{
    return value.isNull() ? QJsonValue(QJsonValue::Null) : QJsonValue(value.toLongLong());
}

QJsonValue nullableText(const QVariant &value)
{
    return value.isNull() ? QJsonValue(QJsonValue::Null) : QJsonValue(value.toString());
}

QJsonValue amount(const QVariant &value)
{
    return api::Decimal::parse(value.toString()).value_or(api::Decimal()).toJson();
}

QJsonValue storedJson(const QVariant &value)
{
    if (value.isNull())
        return QJsonValue::Null;
    const QJsonDocument document = QJsonDocument::fromJson(value.toString().toUtf8());
    return document.isArray() ? QJsonValue(document.array()) : QJsonValue(document.object());
}

// Runs a query and hands each row to `row`; stops at the first error.
template <typename F>
api::Result<api::Done> eachRow(const QSqlDatabase &db, const QString &sql,
                               const QVariantList &binds, F &&row)
{
    auto query = runSql(db, sql, binds);
    if (!query)
        return query.error();
    while (query.value().next())
        row(query.value());
    return api::Done{};
}

#define MD_TRY(expression)                                                                         \
    if (auto result = (expression); !result)                                                       \
        return result.error();

api::Result<QJsonObject> environment(const QSqlDatabase &db, qint64 orgPk, const QString &env)
{
    const QVariantList scope{orgPk, env};
    QJsonArray features;
    QHash<qint64, qsizetype> featureIndex;
    MD_TRY(eachRow(db,
                   u"SELECT pk, id, name, type, default_markup, created_at FROM features"
                   " WHERE org_pk = ? AND env = ? ORDER BY pk"_s,
                   scope, [&](const QSqlQuery &q) {
                       QJsonObject feature{{u"id"_s, q.value(1).toString()},
                                           {u"name"_s, q.value(2).toString()},
                                           {u"type"_s, q.value(3).toString()},
                                           {u"created_at"_s, q.value(5).toLongLong()}};
                       if (q.value(3).toString() == "credit_system"_L1)
                           feature.insert(
                               u"credit_system"_s,
                               QJsonObject{{u"default_markup"_s, q.value(4).isNull()
                                                                     ? QJsonValue(QJsonValue::Null)
                                                                     : amount(q.value(4))},
                                           {u"markups"_s, QJsonArray()}});
                       featureIndex.insert(q.value(0).toLongLong(), features.size());
                       features.append(feature);
                   }))
    MD_TRY(eachRow(db,
                   u"SELECT m.feature_pk, m.provider, m.model, m.markup FROM credit_markups m"
                   " JOIN features f ON f.pk = m.feature_pk WHERE f.org_pk = ? AND f.env = ?"
                   " ORDER BY m.feature_pk, m.provider, m.model"_s,
                   scope, [&](const QSqlQuery &q) {
                       const qsizetype index = featureIndex.value(q.value(0).toLongLong());
                       QJsonObject feature = features.at(index).toObject();
                       QJsonObject credit = feature.value(u"credit_system"_s).toObject();
                       QJsonArray markups = credit.value(u"markups"_s).toArray();
                       markups.append(
                           QJsonObject{{u"provider"_s, q.value(1).toString()},
                                       {u"model"_s, q.value(2).toString().isEmpty()
                                                        ? QJsonValue(QJsonValue::Null)
                                                        : QJsonValue(q.value(2).toString())},
                                       {u"markup"_s, amount(q.value(3))}});
                       credit.insert(u"markups"_s, markups);
                       feature.insert(u"credit_system"_s, credit);
                       features[index] = feature;
                   }))

    QJsonArray products;
    MD_TRY(
        eachRow(db,
                u"SELECT id, version, name, group_name, is_add_on, is_default, archived, items,"
                " free_trial, created_at FROM products WHERE org_pk = ? AND env = ? ORDER BY pk"_s,
                scope, [&](const QSqlQuery &q) {
                    products.append(QJsonObject{{u"id"_s, q.value(0).toString()},
                                                {u"version"_s, q.value(1).toLongLong()},
                                                {u"name"_s, q.value(2).toString()},
                                                {u"group"_s, nullableText(q.value(3))},
                                                {u"is_add_on"_s, q.value(4).toInt() != 0},
                                                {u"is_default"_s, q.value(5).toInt() != 0},
                                                {u"archived"_s, q.value(6).toInt() != 0},
                                                {u"items"_s, storedJson(q.value(7))},
                                                {u"free_trial"_s, storedJson(q.value(8))},
                                                {u"created_at"_s, q.value(9).toLongLong()}});
                }))

    // Children of customers are read per table in one pass each, then attached.
    QHash<qint64, QJsonArray> processors, entities, customerProducts, balances, events;
    const QString customerJoin =
        u" JOIN customers c ON c.pk = x.customer_pk WHERE c.org_pk = ? AND c.env = ?"_s;
    MD_TRY(eachRow(db,
                   u"SELECT x.customer_pk, x.type, x.external_id FROM customer_processors x"_s +
                       customerJoin + u" ORDER BY x.customer_pk, x.type"_s,
                   scope, [&](const QSqlQuery &q) {
                       processors[q.value(0).toLongLong()].append(QJsonObject{
                           {u"type"_s, q.value(1).toString()}, {u"id"_s, q.value(2).toString()}});
                   }))
    MD_TRY(eachRow(
        db,
        u"SELECT x.customer_pk, x.id, x.feature_id, x.name, x.created_at FROM entities x"_s +
            customerJoin + u" ORDER BY x.pk"_s,
        scope, [&](const QSqlQuery &q) {
            entities[q.value(0).toLongLong()].append(
                QJsonObject{{u"id"_s, q.value(1).toString()},
                            {u"feature_id"_s, nullableText(q.value(2))},
                            {u"name"_s, q.value(3).toString()},
                            {u"created_at"_s, q.value(4).toLongLong()}});
        }))
    MD_TRY(eachRow(
        db,
        u"SELECT x.customer_pk, x.id, p.id, p.version, x.processor, x.subscription_id, "
        u"x.schedule_id,"
        " x.status, x.quantity, x.started_at, x.current_period_start, x.current_period_end,"
        " x.trial_ends_at, x.canceled_at, x.expires_at, x.created_at FROM customer_products x"
        " JOIN products p ON p.pk = x.product_pk"_s +
            customerJoin + u" ORDER BY x.pk"_s,
        scope, [&](const QSqlQuery &q) {
            customerProducts[q.value(0).toLongLong()].append(
                QJsonObject{{u"id"_s, q.value(1).toString()},
                            {u"plan_id"_s, q.value(2).toString()},
                            {u"version"_s, q.value(3).toLongLong()},
                            {u"processor"_s, nullableText(q.value(4))},
                            {u"subscription_id"_s, nullableText(q.value(5))},
                            {u"schedule_id"_s, nullableText(q.value(6))},
                            {u"status"_s, q.value(7).toString()},
                            {u"quantity"_s, q.value(8).toLongLong()},
                            {u"started_at"_s, q.value(9).toLongLong()},
                            {u"current_period_start"_s, nullableInteger(q.value(10))},
                            {u"current_period_end"_s, nullableInteger(q.value(11))},
                            {u"trial_ends_at"_s, nullableInteger(q.value(12))},
                            {u"canceled_at"_s, nullableInteger(q.value(13))},
                            {u"expires_at"_s, nullableInteger(q.value(14))},
                            {u"created_at"_s, q.value(15).toLongLong()}});
        }))
    QHash<qint64, QJsonArray> rollovers;
    MD_TRY(eachRow(
        db,
        u"SELECT r.balance_pk, r.granted, r.balance, r.expires_at FROM rollovers r"
        " JOIN balances b ON b.pk = r.balance_pk WHERE b.org_pk = ? AND b.env = ? ORDER BY r.pk"_s,
        scope, [&](const QSqlQuery &q) {
            rollovers[q.value(0).toLongLong()].append(
                QJsonObject{{u"granted"_s, amount(q.value(1))},
                            {u"balance"_s, amount(q.value(2))},
                            {u"expires_at"_s, q.value(3).toLongLong()}});
        }))
    MD_TRY(eachRow(
        db,
        u"SELECT b.customer_pk, b.pk, b.id, f.id, cp.id, e.id, b.included_grant, b.prepaid_grant,"
        " b.remaining, b.usage, b.unlimited, b.overage_allowed, b.reset_interval,"
        " b.reset_interval_count, b.resets_at, b.price, b.expires_at, b.created_at"
        " FROM balances b JOIN features f ON f.pk = b.feature_pk"
        " LEFT JOIN customer_products cp ON cp.pk = b.customer_product_pk"
        " LEFT JOIN entities e ON e.pk = b.entity_pk"
        " WHERE b.org_pk = ? AND b.env = ? ORDER BY b.customer_pk, b.pk DESC"_s,
        scope, [&](const QSqlQuery &q) {
            QJsonValue reset = QJsonValue::Null;
            if (!q.value(12).isNull()) {
                QJsonObject r{{u"interval"_s, q.value(12).toString()},
                              {u"resets_at"_s, nullableInteger(q.value(14))}};
                if (!q.value(13).isNull())
                    r.insert(u"interval_count"_s, q.value(13).toLongLong());
                reset = r;
            }
            balances[q.value(0).toLongLong()].append(
                QJsonObject{{u"id"_s, q.value(2).toString()},
                            {u"feature_id"_s, q.value(3).toString()},
                            {u"customer_product_id"_s, nullableText(q.value(4))},
                            {u"entity_id"_s, nullableText(q.value(5))},
                            {u"included_grant"_s, amount(q.value(6))},
                            {u"prepaid_grant"_s, amount(q.value(7))},
                            {u"remaining"_s, amount(q.value(8))},
                            {u"usage"_s, amount(q.value(9))},
                            {u"unlimited"_s, q.value(10).toInt() != 0},
                            {u"overage_allowed"_s, q.value(11).toInt() != 0},
                            {u"reset"_s, reset},
                            {u"price"_s, storedJson(q.value(15))},
                            {u"expires_at"_s, nullableInteger(q.value(16))},
                            {u"created_at"_s, q.value(17).toLongLong()},
                            {u"rollovers"_s, rollovers.value(q.value(1).toLongLong())}});
        }))
    MD_TRY(
        eachRow(db,
                u"SELECT x.customer_pk, f.id, e.id, x.model_id, x.tokens, x.value, x.properties,"
                " x.timestamp, x.idempotency_key, x.created_at FROM usage_events x"
                " JOIN features f ON f.pk = x.feature_pk LEFT JOIN entities e ON e.pk = x.entity_pk"
                " WHERE x.org_pk = ? AND x.env = ? ORDER BY x.pk"_s,
                scope, [&](const QSqlQuery &q) {
                    events[q.value(0).toLongLong()].append(
                        QJsonObject{{u"feature_id"_s, q.value(1).toString()},
                                    {u"entity_id"_s, nullableText(q.value(2))},
                                    {u"model_id"_s, nullableText(q.value(3))},
                                    {u"tokens"_s, storedJson(q.value(4))},
                                    {u"value"_s, amount(q.value(5))},
                                    {u"properties"_s, storedJson(q.value(6))},
                                    {u"timestamp"_s, q.value(7).toLongLong()},
                                    {u"idempotency_key"_s, nullableText(q.value(8))},
                                    {u"created_at"_s, q.value(9).toLongLong()}});
                }))

    QJsonArray customers;
    MD_TRY(eachRow(
        db,
        u"SELECT pk, id, name, email, fingerprint, metadata, send_email_receipts,"
        " disable_pooled_balance, disable_overage_billing, created_at FROM customers"
        " WHERE org_pk = ? AND env = ? ORDER BY pk"_s,
        scope, [&](const QSqlQuery &q) {
            const qint64 pk = q.value(0).toLongLong();
            customers.append(QJsonObject{
                {u"id"_s, q.value(1).toString()},
                {u"name"_s, q.value(2).toString()},
                {u"email"_s, q.value(3).toString()},
                {u"fingerprint"_s, nullableText(q.value(4))},
                {u"metadata"_s, storedJson(q.value(5))},
                {u"send_email_receipts"_s, q.value(6).toInt() != 0},
                {u"config"_s, QJsonObject{{u"disable_pooled_balance"_s, q.value(7).toInt() != 0},
                                          {u"disable_overage_billing"_s, q.value(8).toInt() != 0}}},
                {u"created_at"_s, q.value(9).toLongLong()},
                {u"processors"_s, processors.value(pk)},
                {u"entities"_s, entities.value(pk)},
                {u"products"_s, customerProducts.value(pk)},
                {u"balances"_s, balances.value(pk)},
                {u"usage_events"_s, events.value(pk)}});
        }))

    QJsonArray rewards;
    MD_TRY(eachRow(db,
                   u"SELECT kind, record FROM rewards WHERE org_pk = ? AND env = ? ORDER BY pk"_s,
                   scope, [&](const QSqlQuery &q) {
                       rewards.append(QJsonObject{{q.value(0).toString(), storedJson(q.value(1))}});
                   }))
    return QJsonObject{{u"features"_s, features},
                       {u"products"_s, products},
                       {u"customers"_s, customers},
                       {u"rewards"_s, rewards}};
}

} // namespace

api::Result<QJsonObject> WorkspaceDumper::dump(const QSqlDatabase &db)
{
    // One snapshot for the whole dump.
    QSqlQuery(db).exec(db.driverName() == "QPSQL"_L1 ? u"BEGIN ISOLATION LEVEL REPEATABLE READ"_s
                                                     : u"BEGIN"_s);
    struct EndRead
    {
        QSqlDatabase db;
        ~EndRead() { QSqlQuery(db).exec(u"ROLLBACK"_s); }
    } endRead{db};

    struct Org
    {
        qint64 pk;
        QJsonObject json;
    };
    QList<Org> orgs;
    MD_TRY(eachRow(
        db,
        u"SELECT o.pk, o.id, o.slug, o.name, m.slug, o.test_secret_connected,"
        " o.live_secret_connected, o.test_account_id, o.live_account_id, o.linked_at,"
        " o.created_at FROM organizations o LEFT JOIN organizations m ON m.pk = o.master_org_pk"
        " ORDER BY o.pk"_s,
        {}, [&](const QSqlQuery &q) {
            orgs.append(
                {q.value(0).toLongLong(),
                 QJsonObject{{u"id"_s, q.value(1).toString()},
                             {u"slug"_s, q.value(2).toString()},
                             {u"name"_s, q.value(3).toString()},
                             {u"master_org"_s, nullableText(q.value(4))},
                             {u"created_at"_s, q.value(10).toLongLong()},
                             {u"processor"_s,
                              QJsonObject{{u"test_secret_connected"_s, q.value(5).toInt() != 0},
                                          {u"live_secret_connected"_s, q.value(6).toInt() != 0},
                                          {u"test_account_id"_s, nullableText(q.value(7))},
                                          {u"live_account_id"_s, nullableText(q.value(8))},
                                          {u"linked_at"_s, nullableInteger(q.value(9))}}}}});
        }))
    QJsonArray organizations;
    for (Org &org : orgs) {
        QJsonObject access{{u"test"_s, QJsonArray()}, {u"live"_s, QJsonArray()}};
        MD_TRY(eachRow(
            db,
            u"SELECT env, account_id FROM processor_access WHERE org_pk = ? ORDER BY env, account_id"_s,
            {org.pk}, [&](const QSqlQuery &q) {
                QJsonArray list = access.value(q.value(0).toString()).toArray();
                list.append(q.value(1).toString());
                access.insert(q.value(0).toString(), list);
            }))
        QJsonObject processor = org.json.value(u"processor"_s).toObject();
        processor.insert(u"accessible_accounts"_s, access);
        org.json.insert(u"processor"_s, processor);
        QJsonArray keys;
        MD_TRY(eachRow(
            db,
            u"SELECT env, prefix, hash, scopes, name, created_at FROM api_keys WHERE org_pk = ? ORDER BY pk"_s,
            {org.pk}, [&](const QSqlQuery &q) {
                keys.append(QJsonObject{
                    {u"env"_s, q.value(0).toString()},
                    {u"prefix"_s, q.value(1).toString()},
                    {u"hash"_s, q.value(2).toString()},
                    {u"scopes"_s, QJsonArray::fromStringList(
                                      q.value(3).toString().split(u' ', Qt::SkipEmptyParts))},
                    {u"name"_s, q.value(4).toString()},
                    {u"created_at"_s, q.value(5).toLongLong()}});
            }))
        org.json.insert(u"api_keys"_s, keys);
        for (const QString &env : {u"test"_s, u"live"_s}) {
            auto content = environment(db, org.pk, env);
            if (!content)
                return content.error();
            org.json.insert(env, content.value());
        }
        organizations.append(org.json);
    }
    return QJsonObject{{u"format"_s, u"meterdesk-workspace"_s},
                       {u"version"_s, WorkspaceLoader::FormatVersion},
                       {u"organizations"_s, organizations}};
}

#undef MD_TRY

} // namespace md::engine
