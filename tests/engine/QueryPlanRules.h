// What tst_queryplans counts as a walk of an organization (issue 35;
// docs/performance.md, "Flat at any size"), read from the database's own
// plan of a statement: SQLite's EXPLAIN QUERY PLAN, PostgreSQL's
// EXPLAIN (FORMAT JSON) of the generic plan.
//
// A statement walks when, on a table that grows with the organization, it
//   - scans the table;
//   - searches an index bounded by nothing but org_pk and env, unless the
//     index is partial (it holds only the rows asked for, so a page read in
//     its order reads no row it does not return) and nothing is sorted;
//   - searches an index bounded by a group of rows (a feature, a plan, a
//     time range) but by no customer or row key, and sorts what it found:
//     such a page must come in the index's order and stop at its limit.
// (PostgreSQL may instead walk the listing's own index in order, filtered
// by the group and stopped by the limit: that reads limit / share rows
// whatever the organization's size, and counts as a page too.)
#pragma once

#include <QSqlDatabase>
#include <QStringList>

namespace md::test {

class QueryPlanRules final
{
public:
    // The steps of `sql`'s plan that walk an organization, as sentences;
    // "cannot explain: …" when the database would not plan it.
    static QStringList walks(const QSqlDatabase &db, const QString &sql);
    // PostgreSQL: the generic plan of `sql` as the planner chooses it, every
    // kind of scan allowed, as text (a prepared statement's plan after its
    // fifth run).
    static QString postgresGenericPlan(const QSqlDatabase &db, const QString &sql);

private:
    static QStringList sqliteWalks(const QSqlDatabase &db, const QString &sql);
    static QStringList postgresWalks(const QSqlDatabase &db, const QString &sql);
};

} // namespace md::test
