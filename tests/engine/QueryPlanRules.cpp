#include "tests/engine/QueryPlanRules.h"

#include "services/api/JsonValue.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/sql/SqliteStatement.h"

#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>

namespace md::test {

using namespace Qt::StringLiterals;

namespace {

// Tables whose rows grow with an organization's customers and usage.
const QSet<QString> Growing{u"balances"_s,         u"customers"_s,   u"customer_products"_s,
                            u"entities"_s,         u"ledger"_s,      u"usage_events"_s,
                            u"audit_log"_s,        u"track_queue"_s, u"rollovers"_s,
                            u"billing_controls"_s, u"usage_alerts"_s};

// Columns that bound a search to one customer or one row.
const QSet<QString> KeyColumns{u"pk"_s,          u"rowid"_s,       u"id"_s,
                               u"customer_pk"_s, u"balance_pk"_s,  u"customer_product_pk"_s,
                               u"entity_pk"_s,   u"event_pk"_s,    u"idempotency_key"_s,
                               u"key_hash"_s,    u"resource_id"_s, u"secret_hash"_s};

// Words of a condition that are not columns.
const QSet<QString> NotColumns{u"and"_s,     u"or"_s,    u"not"_s,   u"is"_s,   u"null"_s,
                               u"row"_s,     u"lower"_s, u"any"_s,   u"text"_s, u"bigint"_s,
                               u"numeric"_s, u"true"_s,  u"false"_s, u"array"_s};

// The columns a search's condition compares, org_pk and env aside.
QSet<QString> boundColumns(const QString &condition)
{
    static const QRegularExpression word(u"\\b([A-Za-z_][A-Za-z_0-9]*)\\b"_s);
    static const QRegularExpression quoted(u"'[^']*'"_s);
    QString text = condition;
    text.remove(quoted);
    QSet<QString> columns;
    for (auto it = word.globalMatch(text); it.hasNext();) {
        const QString name = it.next().captured(1);
        const QString lower = name.toLower();
        if (!NotColumns.contains(lower) && lower != "org_pk"_L1 && lower != "env"_L1)
            columns.insert(lower);
    }
    return columns;
}

enum class Bound { Organization, Group, Key };

Bound boundOf(const QString &condition)
{
    const QSet<QString> columns = boundColumns(condition);
    if (columns.isEmpty())
        return Bound::Organization;
    return columns.intersects(KeyColumns) ? Bound::Key : Bound::Group;
}

struct Search
{
    QString table;
    QString index;
    QString condition;   // empty: a scan
    QString step;        // the plan's own words, for the message
    bool sorted = false; // what it finds is all read and sorted, at its level of the plan
    QString pageFilter;  // PostgreSQL: the filter of a walk in order stopped by a Limit
};

// The walks among `searches`.
QStringList judge(const QList<Search> &searches, const QSet<QString> &partialIndexes)
{
    QStringList walks;
    for (const Search &search : searches) {
        if (!Growing.contains(search.table))
            continue;
        if (search.condition.isNull()) {
            walks.append(u"%1: a scan: %2"_s.arg(search.table, search.step));
            continue;
        }
        switch (boundOf(search.condition)) {
        case Bound::Organization:
            // A walk in the listing's order, filtered by a group and stopped
            // at the page's limit, reads about limit / share rows: PostgreSQL
            // chooses it over the group's index when the group is common.
            if (!search.sorted && !boundColumns(search.pageFilter).isEmpty())
                break;
            if (!partialIndexes.contains(search.index) || search.sorted)
                walks.append(
                    u"%1: bounded only by the organization: %2"_s.arg(search.table, search.step));
            break;
        case Bound::Group:
            if (search.sorted)
                walks.append(u"%1: a group's rows, all read to be sorted: %2"_s.arg(search.table,
                                                                                    search.step));
            break;
        case Bound::Key:
            break;
        }
    }
    return walks;
}

QSet<QString> partialIndexes(const QSqlDatabase &db, const QString &sql)
{
    QSet<QString> names;
    QSqlQuery query(db);
    if (!query.exec(sql))
        return names;
    while (query.next())
        names.insert(query.value(0).toString());
    return names;
}

// What `sql` calls each table: alias (or the name itself) to table.
QHash<QString, QString> tablesOf(const QString &sql)
{
    static const QRegularExpression named(
        u"\\b(?:FROM|JOIN)\\s+(\\w+)(?:\\s+(?:AS\\s+)?(?!ON\\b|WHERE\\b|LEFT\\b|JOIN\\b|ORDER\\b)(\\w+))?"_s,
        QRegularExpression::CaseInsensitiveOption);
    QHash<QString, QString> tables;
    for (auto it = named.globalMatch(sql); it.hasNext();) {
        const auto match = it.next();
        tables.insert(match.captured(1), match.captured(1));
        if (match.hasCaptured(2))
            tables.insert(match.captured(2), match.captured(1));
    }
    return tables;
}

// `?` placeholders as PostgreSQL's $1, $2, …; how many there are.
QString numbered(const QString &sql, int &count)
{
    QString out;
    bool inText = false;
    count = 0;
    for (const QChar c : sql) {
        if (c == u'\'')
            inText = !inText;
        if (c == u'?' && !inText)
            out += u'$' + QString::number(++count);
        else
            out += c;
    }
    return out;
}

// A sort sorts what its subtree finds, down to a Limit, whose rows are few.
void collectPostgres(const api::JsonValue &node, QList<Search> &searches, bool sorted,
                     bool limited = false, const QString &parentTable = {})
{
    const QString type = node.value("Node Type"_L1).toString();
    const QString table = node.value("Relation Name"_L1).toString();
    if (type == "Sort"_L1)
        sorted = true;
    if (type == "Limit"_L1) {
        sorted = false;
        limited = true;
    }
    // Below a join's inner side the walk restarts for each outer row.
    if (node.value("Parent Relationship"_L1).toString() == "Inner"_L1)
        limited = false;
    // An index walked whole has no condition: bounded by nothing.
    const QString condition = node.value("Index Cond"_L1).toString() + u""_s;
    const QString index = node.value("Index Name"_L1).toString();
    if (type == "Seq Scan"_L1)
        searches.append({table, {}, {}, type + u" on "_s + table, sorted, {}});
    if (type == "Index Scan"_L1 || type == "Index Only Scan"_L1)
        searches.append({table, index, condition, u"%1 using %2 (%3)"_s.arg(type, index, condition),
                         sorted, limited ? node.value("Filter"_L1).toString() : QString()});
    if (type == "Bitmap Index Scan"_L1)
        searches.append({parentTable,
                         index,
                         condition,
                         u"%1 on %2 using %3 (%4)"_s.arg(type, parentTable, index, condition),
                         sorted,
                         {}});
    const api::JsonValue children = node.value("Plans"_L1);
    for (qsizetype i = 0; i < children.size(); ++i)
        collectPostgres(children.at(i), searches, sorted, limited,
                        table.isEmpty() ? parentTable : table);
}

} // namespace

QStringList QueryPlanRules::walks(const QSqlDatabase &db, const QString &sql)
{
    // Savepoints, settings and the like read no rows.
    static const QRegularExpression reads(u"^\\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\\b"_s,
                                          QRegularExpression::CaseInsensitiveOption);
    if (!reads.match(sql).hasMatch())
        return {};
    return db.driverName() == "QPSQL"_L1 ? postgresWalks(db, sql) : sqliteWalks(db, sql);
}

QStringList QueryPlanRules::sqliteWalks(const QSqlDatabase &db, const QString &sql)
{
    auto plan = engine::SqliteStatement::run(db, u"EXPLAIN QUERY PLAN "_s + sql, {});
    if (!plan)
        return {u"cannot explain: "_s + plan.error().message};
    static const QRegularExpression step(
        u"^(SCAN|SEARCH) (\\w+)(?: USING (?:COVERING )?INDEX (\\w+)| USING INTEGER PRIMARY KEY)?"
        "(?: \\((.*)\\))?"_s);
    const QHash<QString, QString> tables = tablesOf(sql);
    struct Step
    {
        int id;
        int parent;
        QString detail;
    };
    QList<Step> steps;
    QHash<int, int> parents;
    QHash<QString, int> subqueries; // a FROM (SELECT …) x: its step, by the name x
    QSet<int> sortedLevels;         // a sort of the whole result at this level of the plan
    for (;;) {
        auto next = plan.value()->next();
        if (!next || !next.value())
            break;
        const Step row{int(plan.value()->integer(0)), int(plan.value()->integer(1)),
                       plan.value()->text(3)};
        steps.append(row);
        parents.insert(row.id, row.parent);
        for (const auto prefix : {"CO-ROUTINE "_L1, "MATERIALIZE "_L1})
            if (row.detail.startsWith(prefix))
                subqueries.insert(row.detail.mid(prefix.size()).section(u' ', 0, 0), row.id);
        // "RIGHT PART OF ORDER BY" sorts within each value of the leading
        // term, which its own search bounds.
        for (const auto what : {"ORDER BY"_L1, "GROUP BY"_L1, "DISTINCT"_L1})
            if (row.detail == u"USE TEMP B-TREE FOR "_s + what)
                sortedLevels.insert(row.parent);
    }
    // Inside subquery `id`'s own steps, its name may alias a table too.
    const auto inside = [&parents](int from, int id) {
        for (int at = from; at != 0; at = parents.value(at))
            if (at == id)
                return true;
        return false;
    };
    QList<Search> searches;
    for (const Step &row : std::as_const(steps)) {
        const auto match = step.match(row.detail);
        if (!match.hasMatch())
            continue;
        // Outside its own steps, scanning a subquery reads what it made.
        const auto subquery = subqueries.constFind(match.captured(2));
        if (subquery != subqueries.cend() && !inside(row.parent, *subquery))
            continue;
        const QString table = tables.value(match.captured(2), match.captured(2));
        const bool sorted = sortedLevels.contains(row.parent);
        if (match.captured(1) == "SCAN"_L1) {
            searches.append({table, {}, {}, row.detail, sorted, {}});
            continue;
        }
        // A bare SEARCH is SQLite's min/max of the rowid (a key's allocation).
        if (match.captured(4).isEmpty())
            continue;
        searches.append({table, match.captured(3), match.captured(4), row.detail, sorted, {}});
    }
    return judge(searches, partialIndexes(db, u"SELECT name FROM sqlite_master WHERE type = 'index'"
                                              " AND sql LIKE '%WHERE %'"_s));
}

// The generic plan, as a prepared statement gets it whatever its values, and
// with sequential scans priced out: a table this small is cheaper to scan,
// and the question is whether an index bounds the statement at all.
QStringList QueryPlanRules::postgresWalks(const QSqlDatabase &db, const QString &sql)
{
    int parameters = 0;
    const QString statement = numbered(sql, parameters);
    QSqlQuery query(db);
    for (const QString &setting :
         {u"SET plan_cache_mode = force_generic_plan"_s, u"SET enable_seqscan = off"_s}) {
        if (!query.exec(setting))
            return {u"cannot explain: "_s + query.lastError().text()};
    }
    if (!query.exec(u"PREPARE md_plan AS "_s + statement))
        return {u"cannot explain: "_s + query.lastError().text()};
    QStringList nulls;
    for (int i = 0; i < parameters; ++i)
        nulls.append(u"NULL"_s);
    const QString execute =
        parameters == 0 ? u"md_plan"_s : u"md_plan("_s + nulls.join(u", "_s) + u')';
    QStringList walks;
    if (!query.exec(u"EXPLAIN (FORMAT JSON) EXECUTE "_s + execute) || !query.next()) {
        walks.append(u"cannot explain: "_s + query.lastError().text());
    } else {
        const auto plan = api::JsonValue::parse(query.value(0).toString().toUtf8(), u"the plan"_s);
        QList<Search> searches;
        if (plan)
            collectPostgres(plan.value().at(0).value("Plan"_L1), searches, false);
        walks = judge(searches, partialIndexes(db, u"SELECT indexname FROM pg_indexes"
                                                   " WHERE indexdef LIKE '% WHERE %'"_s));
    }
    query.exec(u"DEALLOCATE md_plan"_s);
    query.exec(u"RESET enable_seqscan"_s);
    query.exec(u"RESET plan_cache_mode"_s);
    return walks;
}

QString QueryPlanRules::postgresGenericPlan(const QSqlDatabase &db, const QString &sql)
{
    int parameters = 0;
    const QString statement = numbered(sql, parameters);
    QSqlQuery query(db);
    if (!query.exec(u"SET plan_cache_mode = force_generic_plan"_s) ||
        !query.exec(u"PREPARE md_generic AS "_s + statement))
        return u"cannot explain: "_s + query.lastError().text();
    QStringList nulls(parameters, u"NULL"_s);
    QString plan;
    if (query.exec(u"EXPLAIN EXECUTE md_generic"_s +
                   (parameters == 0 ? QString() : u'(' + nulls.join(u", "_s) + u')')))
        while (query.next())
            plan += query.value(0).toString() + u'\n';
    else
        plan = u"cannot explain: "_s + query.lastError().text();
    query.exec(u"DEALLOCATE md_generic"_s);
    query.exec(u"RESET plan_cache_mode"_s);
    return plan;
}

} // namespace md::test
