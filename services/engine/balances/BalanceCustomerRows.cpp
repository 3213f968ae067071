#include "services/engine/balances/BalanceCustomerRows.h"

#include "services/engine/sql/Sql.h"

#include <QSqlQuery>

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

// balance_customer_rows as the balances make it: each customer's rows per
// state, of each feature and of any (-1).
QString expectedRows(const QString &where)
{
    return u"SELECT b.org_pk, b.env, f.f AS feature_pk, b.expired, b.customer_pk, count(*) AS"
           " balances FROM balances b CROSS JOIN LATERAL (VALUES (b.feature_pk), (-1)) AS f(f)"_s +
           where + u" GROUP BY b.org_pk, b.env, f.f, b.expired, b.customer_pk"_s;
}

} // namespace

api::Result<BalanceCustomerRows::Walk>
BalanceCustomerRows::walk(const QSqlDatabase &db, const Scope &scope,
                          const std::optional<QString> &featureId, bool expired, bool descending,
                          qint64 pageSize)
{
    // The customers in order with their rows and the rows up to them
    // (`upto`, one window sum); a page ends at positions pageSize·k − 1, so a
    // customer holds the ends of pages k = (upto − rows) / pageSize + 1 …
    // upto / pageSize, the end of page k after pageSize·k − (upto − rows) of
    // its rows. Only those customers meet generate_series. No row is read:
    // balances.list finds a page's start row when it is asked for
    // (BalanceCursor::rowsOfCustomer). The count is the kept sums'.
    const QString direction = descending ? u" DESC"_s : QString();
    QString feature = u"-1"_s;
    QString sumsFeature;
    QVariantList featureBinds;
    if (featureId) {
        feature = u"(SELECT pk FROM features WHERE org_pk = ? AND env = ? AND id = ?)"_s;
        sumsFeature = u" AND feature_pk = "_s + feature;
        featureBinds = {scope.orgPk, scope.envWord(), *featureId};
    }
    const QVariantList state{scope.orgPk, scope.envWord()};
    const QVariantList binds = QVariantList{pageSize} + state + featureBinds +
                               QVariantList{int(expired), pageSize, pageSize, pageSize, pageSize} +
                               state + QVariantList{int(expired)} + featureBinds;
    const QString sql =
        u"SELECT k, c.customer_pk, k * ? - (c.upto - c.balances) FROM (SELECT r.customer_pk,"
        " r.balances, (sum(r.balances) OVER (ORDER BY r.customer_pk%1 ROWS UNBOUNDED"
        " PRECEDING))::bigint AS upto FROM balance_customer_rows r WHERE r.org_pk = ?"
        " AND r.env = ? AND r.feature_pk = %2 AND r.expired = ?) c CROSS JOIN LATERAL"
        " generate_series((c.upto - c.balances) / ? + 1, c.upto / ?) AS k"
        " WHERE c.upto / ? > (c.upto - c.balances) / ?"
        " UNION ALL SELECT NULL, (SELECT COALESCE(sum(balances), 0) FROM balance_sums"
        " WHERE org_pk = ? AND env = ? AND expired = ?%3)::bigint, NULL ORDER BY 1"_s.arg(
            direction, feature, sumsFeature);
    auto rows = runSql(db, sql, binds);
    if (!rows)
        return rows.error();
    Walk walk;
    QSqlQuery &q = rows.value();
    while (q.next()) {
        if (q.value(0).isNull())
            walk.count = q.value(1).toLongLong();
        else
            walk.pageEnds.append(
                BalanceCursor{q.value(1).toLongLong(), 0, q.value(2).toLongLong()});
    }
    return walk;
}

api::Result<api::Done> BalanceCustomerRows::rebuild(const QSqlDatabase &db,
                                                    const std::optional<Scope> &scope)
{
    const QVariantList binds =
        scope ? QVariantList{scope->orgPk, scope->envWord()} : QVariantList{};
    const auto where = [&](const QString &table) {
        return scope ? u" WHERE %1.org_pk = ? AND %1.env = ?"_s.arg(table) : QString();
    };
    if (auto cleared = runSql(db, u"DELETE FROM balance_customer_rows r"_s + where(u"r"_s), binds);
        !cleared)
        return cleared.error();
    if (auto made = runSql(db,
                           u"INSERT INTO balance_customer_rows (org_pk, env, feature_pk, expired,"
                           " customer_pk, balances) "_s +
                               expectedRows(where(u"b"_s)),
                           binds);
        !made)
        return made.error();
    return api::Done{};
}

api::Result<QStringList> BalanceCustomerRows::differences(const QSqlDatabase &db)
{
    // A count kept at zero (every row of the kind moved away) is no row.
    auto rows = runSql(
        db, u"SELECT COALESCE(k.org_pk, e.org_pk), COALESCE(k.feature_pk, e.feature_pk),"
            " COALESCE(k.expired, e.expired), COALESCE(k.customer_pk, e.customer_pk),"
            " COALESCE(k.balances, 0), COALESCE(e.balances, 0) FROM balance_customer_rows k"
            " FULL JOIN ("_s +
                expectedRows(QString()) +
                u") e ON k.org_pk = e.org_pk AND k.env = e.env AND k.feature_pk = e.feature_pk"
                " AND k.expired = e.expired AND k.customer_pk = e.customer_pk"
                " WHERE COALESCE(k.balances, 0) <> COALESCE(e.balances, 0) LIMIT 20"_s);
    if (!rows)
        return rows.error();
    QStringList found;
    while (rows.value().next()) {
        const QSqlQuery &q = rows.value();
        found.append(u"balance_customer_rows of organization key %1, feature key %2, state %3,"
                     " customer key %4 counts %5 rows, but the balances are %6"_s.arg(
                         q.value(0).toString(), q.value(1).toString(), q.value(2).toString(),
                         q.value(3).toString(), q.value(4).toString(), q.value(5).toString()));
    }
    return found;
}

} // namespace md::engine
