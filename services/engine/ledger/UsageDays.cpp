#include "services/engine/ledger/UsageDays.h"

#include "services/engine/sql/PostgresArray.h"
#include "services/engine/sql/Sql.h"

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

// The events added up by row, as usage_days holds them: exact on both
// databases (md_decimal_sum on SQLite, numeric on PostgreSQL).
QString fromEvents(Dialect dialect, const QString &where)
{
    const bool sqlite = dialect == Dialect::Sqlite;
    return u"SELECT org_pk, env, day, feature_pk, model_id, stripe, count(*) AS events,"
           " %1 AS value, sum(tokens) AS tokens"
           " FROM (SELECT org_pk, env, timestamp / %2 AS day, feature_pk,"
           " COALESCE(model_id, '') AS model_id, customer_pk % %3 AS stripe, %4 AS value, %5"
           " AS tokens FROM usage_events%6) e"
           " GROUP BY org_pk, env, day, feature_pk, model_id, stripe"_s
               .arg(sqlite ? u"md_decimal_sum(value)"_s : u"sum(value)::text"_s)
               .arg(UsageDays::DayMs)
               .arg(UsageDays::Stripes)
               .arg(sqlite ? u"value"_s : u"value::numeric"_s,
                    sqlite ? u"(SELECT coalesce(sum(t.value), 0) FROM json_each(tokens) t)"_s
                           : u"(SELECT coalesce(sum(t.value::bigint), 0)"
                             " FROM json_each_text(tokens::json) t)"_s,
                    where);
}

} // namespace

UsageDays::Key UsageDays::keyOf(const Scope &scope, qint64 timestamp, qint64 featurePk,
                                const std::optional<QString> &modelId, qint64 customerPk)
{
    // '' for no model, and not a null QString, which binds as NULL.
    return {scope.orgPk,
            scope.envWord(),
            timestamp / DayMs,
            featurePk,
            modelId.value_or(QStringLiteral("")),
            int(customerPk % Stripes)};
}

api::Result<api::Done> UsageDays::add(const QSqlDatabase &db, const std::map<Key, Sums> &sums)
{
    for (const auto &[key, added] : sums) {
        const auto &[orgPk, env, day, featurePk, modelId, stripe] = key;
        auto upserted = runPrepared(
            db,
            u"INSERT INTO usage_days (org_pk, env, day, feature_pk, model_id, stripe, events,"
            " value, tokens) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT"
            " (org_pk, env, day, feature_pk, model_id, stripe) DO UPDATE SET"
            " events = usage_days.events + excluded.events,"
            " value = md_decimal_add(usage_days.value, excluded.value),"
            " tokens = usage_days.tokens + excluded.tokens"_s,
            {orgPk, env, day, featurePk, modelId, stripe, added.events, added.value.toString(),
             added.tokens});
        if (!upserted)
            return upserted.error();
        upserted.value()->finish();
    }
    return api::Done{};
}

QString UsageDays::postgresAdd(const QString &name)
{
    return u"%1 AS (INSERT INTO usage_days (org_pk, env, day, feature_pk, model_id, stripe,"
           " events, value, tokens) SELECT * FROM unnest(?::bigint[], ?::text[], ?::bigint[],"
           " ?::bigint[], ?::text[], ?::int[], ?::bigint[], ?::text[], ?::bigint[])"
           " ORDER BY 1, 2, 3, 4, 5, 6 ON CONFLICT"
           " (org_pk, env, day, feature_pk, model_id, stripe) DO UPDATE SET"
           " events = usage_days.events + excluded.events,"
           " value = (usage_days.value::numeric + excluded.value::numeric)::text,"
           " tokens = usage_days.tokens + excluded.tokens RETURNING 1)"_s.arg(name);
}

QVariantList UsageDays::postgresBinds(const std::map<Key, Sums> &sums)
{
    QList<QVariantList> columns(9);
    for (const auto &[key, added] : sums) {
        const auto &[orgPk, env, day, featurePk, modelId, stripe] = key;
        const QVariantList row{orgPk,       env,    day,          featurePk,
                               modelId,     stripe, added.events, added.value.toString(),
                               added.tokens};
        for (qsizetype c = 0; c < row.size(); ++c)
            columns[c].append(row.at(c));
    }
    QVariantList binds;
    for (const QVariantList &column : std::as_const(columns))
        binds.append(PostgresArray::of(column));
    return binds;
}

api::Result<api::Done> UsageDays::rebuild(const QSqlDatabase &db, Dialect dialect,
                                          const std::optional<Scope> &scope)
{
    const QString where = scope ? u" WHERE org_pk = ? AND env = ?"_s : QString();
    const QVariantList binds =
        scope ? QVariantList{scope->orgPk, scope->envWord()} : QVariantList{};
    if (auto cleared = runSql(db, u"DELETE FROM usage_days"_s + where, binds); !cleared)
        return cleared.error();
    auto built = runSql(db,
                        u"INSERT INTO usage_days (org_pk, env, day, feature_pk, model_id, stripe,"
                        " events, value, tokens) "_s +
                            fromEvents(dialect, where),
                        binds);
    if (!built)
        return built.error();
    return api::Done{};
}

api::Result<QStringList> UsageDays::differences(const QSqlDatabase &db, Dialect dialect)
{
    // Both sides in one statement, joined on the row's key both ways. Sums
    // compare as numbers: PostgreSQL's numeric text keeps trailing zeros.
    const QString same = u"d.org_pk = e.org_pk AND d.env = e.env AND d.day = e.day AND"
                         " d.feature_pk = e.feature_pk AND d.model_id = e.model_id AND"
                         " d.stripe = e.stripe"_s;
    auto query = runSql(
        db, u"SELECT d.org_pk, d.env, d.day, d.feature_pk, d.model_id, d.stripe, d.events, d.value,"
            " d.tokens, e.events, e.value, e.tokens FROM usage_days d LEFT JOIN (%1) e ON %2"
            " WHERE e.events IS NULL OR e.events <> d.events OR e.tokens <> d.tokens OR %3"
            " UNION ALL SELECT e.org_pk, e.env, e.day, e.feature_pk, e.model_id, e.stripe, NULL,"
            " NULL, NULL, e.events, e.value, e.tokens FROM (%1) e"
            " WHERE NOT EXISTS (SELECT 1 FROM usage_days d WHERE %2)"_s.arg(
                fromEvents(dialect, QString()), same,
                dialect == Dialect::Sqlite ? u"e.value <> d.value"_s
                                           : u"e.value::numeric <> d.value::numeric"_s));
    if (!query)
        return query.error();
    QStringList found;
    QSqlQuery &q = query.value();
    while (q.next()) {
        const QString row =
            u"usage_days of organization key %1 (%2), day %3, feature key %4, model \"%5\","
            " stripe %6"_s.arg(q.value(0).toString(), q.value(1).toString(), q.value(2).toString(),
                               q.value(3).toString(), q.value(4).toString(), q.value(5).toString());
        const auto sums = [&](int at) {
            return q.value(at).isNull()
                       ? u"nothing"_s
                       : u"%1 events, %2, %3 tokens"_s.arg(q.value(at).toString(),
                                                           q.value(at + 1).toString(),
                                                           q.value(at + 2).toString());
        };
        found.append(u"%1 holds %2, but the events add up to %3"_s.arg(row, sums(6), sums(9)));
    }
    return found;
}

} // namespace md::engine
