#include "services/engine/workspace/WorkspaceDumper.h"

#include "services/api/Decimal.h"
#include "services/engine/sql/Scope.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/sql/StoredJson.h"
#include "services/engine/workspace/DumpRows.h"
#include "services/engine/workspace/StatementDumper.h"
#include "services/engine/workspace/WorkspaceLoader.h"

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

using api::JsonValue;
using namespace dump;

api::Result<JsonValue> environment(const QSqlDatabase &db, qint64 orgPk, const QString &env)
{
    const QVariantList scope{orgPk, env};
    QHash<qint64, JsonValue> markups; // by feature
    MD_TRY(eachRow(db,
                   u"SELECT m.feature_pk, m.provider, m.model, m.markup FROM credit_markups m"
                   " JOIN features f ON f.pk = m.feature_pk WHERE f.org_pk = ? AND f.env = ?"
                   " ORDER BY m.feature_pk, m.provider, m.model"_s,
                   scope, [&](const QSqlQuery &q) {
                       JsonValue &list = markups[q.value(0).toLongLong()];
                       if (list.isUndefined())
                           list = JsonValue::array();
                       list.append(
                           JsonValue::object({{"provider"_L1, q.value(1).toString()},
                                              {"model"_L1, q.value(2).toString().isEmpty()
                                                               ? JsonValue::null()
                                                               : JsonValue(q.value(2).toString())},
                                              {"markup"_L1, amount(q.value(3))}}));
                   }))
    JsonValue features = JsonValue::array();
    MD_TRY(eachRow(
        db,
        u"SELECT pk, id, name, type, default_markup, created_at FROM features"
        " WHERE org_pk = ? AND env = ? ORDER BY pk"_s,
        scope, [&](const QSqlQuery &q) {
            JsonValue feature = JsonValue::object({{"id"_L1, q.value(1).toString()},
                                                   {"name"_L1, q.value(2).toString()},
                                                   {"type"_L1, q.value(3).toString()},
                                                   {"created_at"_L1, q.value(5).toLongLong()}});
            if (q.value(3).toString() == "credit_system"_L1)
                feature.insert(u"credit_system"_s,
                               JsonValue::object(
                                   {{"default_markup"_L1,
                                     q.value(4).isNull() ? JsonValue::null() : amount(q.value(4))},
                                    {"markups"_L1,
                                     markups.value(q.value(0).toLongLong(), JsonValue::array())}}));
            features.append(feature);
        }))

    JsonValue products = JsonValue::array();
    MD_TRY(eachRow(
        db,
        u"SELECT id, version, name, group_name, is_add_on, is_default, archived, items,"
        " free_trial, created_at FROM products WHERE org_pk = ? AND env = ? ORDER BY pk"_s,
        scope, [&](const QSqlQuery &q) {
            products.append(JsonValue::object({{"id"_L1, q.value(0).toString()},
                                               {"version"_L1, q.value(1).toLongLong()},
                                               {"name"_L1, q.value(2).toString()},
                                               {"group"_L1, nullableText(q.value(3))},
                                               {"is_add_on"_L1, q.value(4).toInt() != 0},
                                               {"is_default"_L1, q.value(5).toInt() != 0},
                                               {"archived"_L1, q.value(6).toInt() != 0},
                                               {"items"_L1, stored(q.value(7))},
                                               {"free_trial"_L1, stored(q.value(8))},
                                               {"created_at"_L1, q.value(9).toLongLong()}}));
        }))

    // Children of customers are read per table in one pass each, then attached.
    QHash<qint64, JsonValue> processors, entities, customerProducts, balances, events;
    QHash<qint64, JsonValue> statements, chargeLines; // billing history (docs/billing.md)
    const QString customerJoin =
        u" JOIN customers c ON c.pk = x.customer_pk WHERE c.org_pk = ? AND c.env = ?"_s;
    // Billing controls by customer_pk (the customer's own) and by entity_pk.
    QHash<qint64, JsonValue> customerControls, entityControls;
    MD_TRY(eachRow(
        db,
        u"SELECT x.customer_pk, x.entity_pk, x.controls FROM billing_controls x"_s + customerJoin,
        scope, [&](const QSqlQuery &q) {
            const qint64 entityPk = q.value(1).toLongLong();
            (entityPk == 0 ? customerControls[q.value(0).toLongLong()] : entityControls[entityPk]) =
                stored(q.value(2));
        }))
    MD_TRY(eachRow(db,
                   u"SELECT x.customer_pk, x.type, x.external_id FROM customer_processors x"_s +
                       customerJoin + u" ORDER BY x.customer_pk, x.type"_s,
                   scope, [&](const QSqlQuery &q) {
                       processors[q.value(0).toLongLong()].append(JsonValue::object(
                           {{"type"_L1, q.value(1).toString()}, {"id"_L1, q.value(2).toString()}}));
                   }))
    MD_TRY(eachRow(
        db,
        u"SELECT x.customer_pk, x.id, x.feature_id, x.name, x.created_at, x.pk FROM entities x"_s +
            customerJoin + u" ORDER BY x.pk"_s,
        scope, [&](const QSqlQuery &q) {
            JsonValue entity = JsonValue::object({{"id"_L1, q.value(1).toString()},
                                                  {"feature_id"_L1, nullableText(q.value(2))},
                                                  {"name"_L1, q.value(3).toString()},
                                                  {"created_at"_L1, q.value(4).toLongLong()}});
            if (const auto controls = entityControls.constFind(q.value(5).toLongLong());
                controls != entityControls.cend())
                entity.insert(u"billing_controls"_s, *controls);
            entities[q.value(0).toLongLong()].append(entity);
        }))
    MD_TRY(
        eachRow(db,
                u"SELECT x.customer_pk, x.id, p.id, p.version, x.processor, x.subscription_id, "
                u"x.schedule_id,"
                " x.status, x.quantity, x.started_at, x.current_period_start, x.current_period_end,"
                " x.trial_ends_at, x.canceled_at, x.expires_at, x.created_at, x.period_anchor"
                " FROM customer_products x"
                " JOIN products p ON p.pk = x.product_pk"_s +
                    customerJoin + u" ORDER BY x.pk"_s,
                scope, [&](const QSqlQuery &q) {
                    customerProducts[q.value(0).toLongLong()].append(JsonValue::object(
                        {{"id"_L1, q.value(1).toString()},
                         {"plan_id"_L1, q.value(2).toString()},
                         {"version"_L1, q.value(3).toLongLong()},
                         {"processor"_L1, nullableText(q.value(4))},
                         {"subscription_id"_L1, nullableText(q.value(5))},
                         {"schedule_id"_L1, nullableText(q.value(6))},
                         {"status"_L1, q.value(7).toString()},
                         {"quantity"_L1, q.value(8).toLongLong()},
                         {"started_at"_L1, q.value(9).toLongLong()},
                         {"current_period_start"_L1, nullableInteger(q.value(10))},
                         {"current_period_end"_L1, nullableInteger(q.value(11))},
                         {"trial_ends_at"_L1, nullableInteger(q.value(12))},
                         {"canceled_at"_L1, nullableInteger(q.value(13))},
                         {"expires_at"_L1, nullableInteger(q.value(14))},
                         {"created_at"_L1, q.value(15).toLongLong()},
                         {"period_anchor"_L1, nullableInteger(q.value(16))}}));
                }))
    QHash<qint64, JsonValue> rollovers;
    MD_TRY(eachRow(
        db,
        u"SELECT r.balance_pk, r.granted, r.balance, r.expires_at FROM rollovers r"
        " JOIN balances b ON b.pk = r.balance_pk WHERE b.org_pk = ? AND b.env = ? ORDER BY r.pk"_s,
        scope, [&](const QSqlQuery &q) {
            rollovers[q.value(0).toLongLong()].append(
                JsonValue::object({{"granted"_L1, amount(q.value(1))},
                                   {"balance"_L1, amount(q.value(2))},
                                   {"expires_at"_L1, q.value(3).toLongLong()}}));
        }))
    MD_TRY(eachRow(
        db,
        u"SELECT b.customer_pk, b.pk, b.id, f.id, cp.id, e.id, b.included_grant, b.prepaid_grant,"
        " b.remaining, b.usage, b.unlimited, b.overage_allowed, b.reset_interval,"
        " b.reset_interval_count, b.resets_at, b.price, b.expires_at, b.created_at,"
        " b.reset_anchor, b.rollover, b.expired_at"
        " FROM balances b JOIN features f ON f.pk = b.feature_pk"
        " LEFT JOIN customer_products cp ON cp.pk = b.customer_product_pk"
        " LEFT JOIN entities e ON e.pk = b.entity_pk"
        " WHERE b.org_pk = ? AND b.env = ? ORDER BY b.customer_pk, b.pk DESC"_s,
        scope, [&](const QSqlQuery &q) {
            JsonValue reset = JsonValue::null();
            if (!q.value(12).isNull()) {
                JsonValue r = JsonValue::object({{"interval"_L1, q.value(12).toString()},
                                                 {"resets_at"_L1, nullableInteger(q.value(14))}});
                if (!q.value(13).isNull())
                    r.insert(u"interval_count"_s, q.value(13).toLongLong());
                reset = r;
            }
            balances[q.value(0).toLongLong()].append(JsonValue::object(
                {{"id"_L1, q.value(2).toString()},
                 {"feature_id"_L1, q.value(3).toString()},
                 {"customer_product_id"_L1, nullableText(q.value(4))},
                 {"entity_id"_L1, nullableText(q.value(5))},
                 {"included_grant"_L1, amount(q.value(6))},
                 {"prepaid_grant"_L1, amount(q.value(7))},
                 {"remaining"_L1, amount(q.value(8))},
                 {"usage"_L1, amount(q.value(9))},
                 {"unlimited"_L1, q.value(10).toInt() != 0},
                 {"overage_allowed"_L1, q.value(11).toInt() != 0},
                 {"reset"_L1, reset},
                 {"price"_L1, stored(q.value(15))},
                 {"expires_at"_L1, nullableInteger(q.value(16))},
                 {"created_at"_L1, q.value(17).toLongLong()},
                 {"reset_anchor"_L1, nullableInteger(q.value(18))},
                 {"rollover"_L1, stored(q.value(19))},
                 {"expired_at"_L1, nullableInteger(q.value(20))},
                 {"rollovers"_L1, rollovers.value(q.value(1).toLongLong(), JsonValue::array())}}));
        }))
    MD_TRY(
        eachRow(db,
                u"SELECT x.customer_pk, f.id, e.id, x.model_id, x.tokens, x.value, x.properties,"
                " x.timestamp, x.idempotency_key, x.created_at FROM usage_events x"
                " JOIN features f ON f.pk = x.feature_pk LEFT JOIN entities e ON e.pk = x.entity_pk"
                " WHERE x.org_pk = ? AND x.env = ? ORDER BY x.pk"_s,
                scope, [&](const QSqlQuery &q) {
                    events[q.value(0).toLongLong()].append(
                        JsonValue::object({{"feature_id"_L1, q.value(1).toString()},
                                           {"entity_id"_L1, nullableText(q.value(2))},
                                           {"model_id"_L1, nullableText(q.value(3))},
                                           {"tokens"_L1, stored(q.value(4))},
                                           {"value"_L1, amount(q.value(5))},
                                           {"properties"_L1, stored(q.value(6))},
                                           {"timestamp"_L1, q.value(7).toLongLong()},
                                           {"idempotency_key"_L1, nullableText(q.value(8))},
                                           {"created_at"_L1, q.value(9).toLongLong()}}));
                }))

    MD_TRY(StatementDumper::dump(db, orgPk, env, statements, chargeLines))

    JsonValue customers = JsonValue::array();
    MD_TRY(eachRow(
        db,
        u"SELECT pk, id, name, email, fingerprint, metadata, send_email_receipts,"
        " disable_pooled_balance, disable_overage_billing, created_at, statement_from,"
        " statement_due_at FROM customers WHERE org_pk = ? AND env = ? ORDER BY pk"_s,
        scope, [&](const QSqlQuery &q) {
            const qint64 pk = q.value(0).toLongLong();
            const auto children = [&](const QHash<qint64, JsonValue> &byCustomer) {
                return byCustomer.value(pk, JsonValue::array());
            };
            JsonValue customer = JsonValue::object(
                {{"id"_L1, q.value(1).toString()},
                 {"name"_L1, q.value(2).toString()},
                 {"email"_L1, q.value(3).toString()},
                 {"fingerprint"_L1, nullableText(q.value(4))},
                 {"metadata"_L1, stored(q.value(5))},
                 {"send_email_receipts"_L1, q.value(6).toInt() != 0},
                 {"config"_L1,
                  JsonValue::object({{"disable_pooled_balance"_L1, q.value(7).toInt() != 0},
                                     {"disable_overage_billing"_L1, q.value(8).toInt() != 0}})},
                 {"created_at"_L1, q.value(9).toLongLong()},
                 {"processors"_L1, children(processors)},
                 {"entities"_L1, children(entities)},
                 {"products"_L1, children(customerProducts)},
                 {"balances"_L1, children(balances)},
                 {"usage_events"_L1, children(events)},
                 {"statements"_L1, children(statements)},
                 {"charge_lines"_L1, children(chargeLines)}});
            if (const auto controls = customerControls.constFind(pk);
                controls != customerControls.cend())
                customer.insert(u"billing_controls"_s, *controls);
            if (!q.value(10).isNull() && !q.value(11).isNull()) { // its open billing period
                customer.insert(u"statement_from"_s, JsonValue::number(q.value(10).toLongLong()));
                customer.insert(u"statement_due_at"_s, JsonValue::number(q.value(11).toLongLong()));
            }
            customers.append(customer);
        }))

    JsonValue rewards = JsonValue::array();
    MD_TRY(eachRow(db,
                   u"SELECT kind, record FROM rewards WHERE org_pk = ? AND env = ? ORDER BY pk"_s,
                   scope, [&](const QSqlQuery &q) {
                       JsonValue reward = JsonValue::object();
                       reward.insert(q.value(0).toString(), stored(q.value(1)));
                       rewards.append(reward);
                   }))
    return JsonValue::object({{"features"_L1, features},
                              {"products"_L1, products},
                              {"customers"_L1, customers},
                              {"rewards"_L1, rewards}});
}

} // namespace

api::Result<JsonValue> WorkspaceDumper::dump(const QSqlDatabase &db)
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
        JsonValue json;
        JsonValue processor;
    };
    QList<Org> orgs;
    MD_TRY(eachRow(
        db,
        u"SELECT o.pk, o.id, o.slug, o.name, m.slug, o.test_secret_connected,"
        " o.live_secret_connected, o.test_account_id, o.live_account_id, o.linked_at,"
        " o.created_at, o.currency FROM organizations o LEFT JOIN organizations m ON m.pk = "
        "o.master_org_pk"
        " ORDER BY o.pk"_s,
        {}, [&](const QSqlQuery &q) {
            orgs.append({q.value(0).toLongLong(),
                         JsonValue::object({{"id"_L1, q.value(1).toString()},
                                            {"slug"_L1, q.value(2).toString()},
                                            {"name"_L1, q.value(3).toString()},
                                            {"master_org"_L1, nullableText(q.value(4))},
                                            {"created_at"_L1, q.value(10).toLongLong()},
                                            {"currency"_L1, q.value(11).toString()}}),
                         JsonValue::object({{"test_secret_connected"_L1, q.value(5).toInt() != 0},
                                            {"live_secret_connected"_L1, q.value(6).toInt() != 0},
                                            {"test_account_id"_L1, nullableText(q.value(7))},
                                            {"live_account_id"_L1, nullableText(q.value(8))},
                                            {"linked_at"_L1, nullableInteger(q.value(9))}})});
        }))
    JsonValue organizations = JsonValue::array();
    for (Org &org : orgs) {
        org.json.insert(u"processor"_s, org.processor);
        JsonValue keys = JsonValue::array();
        MD_TRY(eachRow(
            db,
            u"SELECT env, prefix, hash, scopes, name, created_at, expires_at, revoked_at,"
            " last_used_at, previous_hash, previous_until, rolled_at FROM api_keys WHERE org_pk = ? ORDER BY pk"_s,
            {org.pk}, [&](const QSqlQuery &q) {
                JsonValue scopes = JsonValue::array();
                for (const QString &scope : q.value(3).toString().split(u' ', Qt::SkipEmptyParts))
                    scopes.append(scope);
                JsonValue key = JsonValue::object({{"env"_L1, q.value(0).toString()},
                                                   {"prefix"_L1, q.value(1).toString()},
                                                   {"hash"_L1, q.value(2).toString()},
                                                   {"scopes"_L1, scopes},
                                                   {"name"_L1, q.value(4).toString()},
                                                   {"created_at"_L1, q.value(5).toLongLong()}});
                // A revoked, expiring or rolled key stays so where it is loaded.
                // Not last_used_at (empty here): a use is no change, and dumps
                // taken before and after one must be the same.
                static const QStringList Later{u"expires_at"_s,     u"revoked_at"_s,
                                               QString(),           u"previous_hash"_s,
                                               u"previous_until"_s, u"rolled_at"_s};
                for (int i = 0; i < Later.size(); ++i)
                    if (const QVariant value = q.value(6 + i);
                        !value.isNull() && !Later.at(i).isEmpty())
                        key.insert(Later.at(i), i == 3 ? JsonValue(value.toString())
                                                       : JsonValue(value.toLongLong()));
                keys.append(key);
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
    return JsonValue::object({{"format"_L1, u"meterdesk-workspace"_s},
                              {"version"_L1, WorkspaceLoader::FormatVersion},
                              {"organizations"_L1, organizations}});
}

#undef MD_TRY

} // namespace md::engine
