#include "services/engine/balances/BalanceSums.h"

#include "services/engine/balances/BalanceWhere.h"
#include "services/engine/sql/Sql.h"

#include <QHash>

#include <map>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;
using api::Decimal;
using api::Int128;
using api::TotalsGroupBy;

namespace {

constexpr qint64 Any = -1; // a feature, plan or state left open (balance_customers)

// The balances with their customer products, for each row's plan key (0 for
// a standalone row).
const QString RowsWithPlans =
    u"balances b LEFT JOIN customer_products cp ON cp.pk = b.customer_product_pk"_s;

// 1 when something in the scope is due that the clock has not applied, so
// balances.expired may not be every row's state yet. Binds: org, env, now,
// now, org, env. Each asks for the soonest due row, so that both databases
// walk their due indexes to the first entry (ClockApplier::anyDue); plans
// first, then each one's customer (SQLite keeps a CROSS JOIN's order:
// through the customers it read every plan of the organization, 440 ms at
// 190,000 customers).
const QString DueProbe =
    u"CASE WHEN (SELECT b.due_at FROM balances b WHERE b.org_pk = ? AND b.env = ?"
    " AND b.due_at <= ? ORDER BY b.due_at LIMIT 1) IS NOT NULL OR (SELECT cp.expires_at"
    " FROM customer_products cp CROSS JOIN customers c WHERE c.pk = cp.customer_pk"
    " AND cp.status <> 'expired' AND cp.expires_at <= ? AND c.org_pk = ? AND c.env = ?"
    " ORDER BY cp.expires_at LIMIT 1) IS NOT NULL THEN 1 ELSE 0 END"_s;

QVariantList dueBinds(const Scope &scope, qint64 nowMs)
{
    return {scope.orgPk, scope.envWord(), nowMs, nowMs, scope.orgPk, scope.envWord()};
}

QString scopeWhere(const std::optional<Scope> &scope, const QString &table)
{
    return scope ? u" WHERE %1.org_pk = ? AND %1.env = ?"_s.arg(table) : QString();
}

QVariantList scopeBinds(const std::optional<Scope> &scope)
{
    return scope ? QVariantList{scope->orgPk, scope->envWord()} : QVariantList{};
}

// balance_sums as the balances make it.
QString expectedSums(Dialect dialect, const QString &where)
{
    const QString sum =
        dialect == Dialect::Sqlite ? u"md_decimal_sum(b.%1)"_s : u"SUM(b.%1::numeric)"_s;
    return u"SELECT b.org_pk, b.env, b.feature_pk, COALESCE(cp.plan_pk, 0) AS plan_pk,"
           " b.expired, b.customer_pk % 8 AS stripe, count(*) AS balances, "_s +
           sum.arg(u"included_grant"_s) + u" AS included, "_s + sum.arg(u"prepaid_grant"_s) +
           u" AS prepaid, "_s + sum.arg(u"remaining"_s) + u" AS remaining, "_s +
           sum.arg(u"usage"_s) + u" AS usage FROM "_s + RowsWithPlans + where +
           u" GROUP BY b.org_pk, b.env, b.feature_pk, COALESCE(cp.plan_pk, 0), b.expired,"
           " b.customer_pk % 8"_s;
}

// balance_customers as the balances make it: each customer's kinds of rows
// once, then counted at each of the eight levels.
QString expectedCustomers(const QString &where)
{
    return u"SELECT org_pk, env, f AS feature_pk, p AS plan_pk, e AS expired, customer_pk % 8 AS"
           " stripe, count(*) AS customers FROM (SELECT DISTINCT k.org_pk, k.env, k.customer_pk,"
           " CASE WHEN l.by_feature = 1 THEN k.feature_pk ELSE -1 END AS f,"
           " CASE WHEN l.by_plan = 1 THEN k.plan_pk ELSE -1 END AS p,"
           " CASE WHEN l.by_state = 1 THEN k.expired ELSE -1 END AS e"
           " FROM (SELECT DISTINCT b.org_pk, b.env, b.customer_pk, b.feature_pk,"
           " COALESCE(cp.plan_pk, 0) AS plan_pk, b.expired FROM "_s +
           RowsWithPlans + where +
           u") k CROSS JOIN balance_levels l) kinds"
           " GROUP BY org_pk, env, f, p, e, customer_pk % 8"_s;
}

// The clock's state of a row, as balances.expired keeps it.
QString derivedState(Dialect dialect)
{
    const QString state = u"CASE WHEN b.customer_product_pk IS NULL THEN b.expired_at IS NOT NULL"
                          " ELSE cp.status = 'expired' END"_s;
    return dialect == Dialect::Postgres ? u"(%1)::int"_s.arg(state) : state;
}

struct Figures
{
    qint64 balances = 0;
    qint64 customers = 0;
    Int128 granted = 0;
    Int128 remaining = 0;
    Int128 usage = 0;

    api::Result<api::TotalsFigures> figures() const
    {
        for (Int128 raw : {granted, remaining, usage})
            if (raw >= Decimal::SumMaxRaw || raw <= -Decimal::SumMaxRaw)
                return ApiError::internal(
                    u"the totals leave the range of sums (below 10^29 in magnitude)"_s);
        return api::TotalsFigures{balances, customers, Decimal::fromRaw(granted),
                                  Decimal::fromRaw(remaining), Decimal::fromRaw(usage)};
    }
};

struct Read
{
    bool due = false; // the clock has a state change to apply: the sums may be behind
    Figures total;
    std::map<qint64, Figures> groups; // by feature or plan key
};

// One statement, so one snapshot on both databases: the filter's keys, the
// due probes, the scope's sums and its customer counts of the state asked;
// then added up here, exactly, for the filter and the grouping.
api::Result<Read> readSums(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
                           const api::ListBalancesRequest &filter,
                           std::optional<TotalsGroupBy> groupBy, qint64 nowMs)
{
    const bool active = filter.includes(api::BalanceStatus::Active);
    const bool expired = filter.includes(api::BalanceStatus::Expired);
    const qint64 state = active && expired ? Any : expired ? 1 : 0;
    const QString text = dialect == Dialect::Postgres ? u"::text"_s : QString();
    const QString none = dialect == Dialect::Postgres ? u"NULL::text"_s : u"NULL"_s;
    const QString sql =
        u"SELECT 0, (SELECT pk FROM features WHERE org_pk = ? AND env = ? AND id = ?),"
        " (SELECT pk FROM products WHERE org_pk = ? AND env = ? AND id = ? ORDER BY version"
        " LIMIT 1), %3, %2, %2, %2, %2"
        " UNION ALL SELECT 1, feature_pk, plan_pk, balances, included%1, prepaid%1,"
        " remaining%1, usage%1 FROM balance_sums WHERE org_pk = ? AND env = ? AND expired <> ?"
        " UNION ALL SELECT 2, feature_pk, plan_pk, customers, %2, %2, %2, %2"
        " FROM balance_customers WHERE org_pk = ? AND env = ? AND expired = ?"_s.arg(text, none,
                                                                                     DueProbe);
    const QString planId = filter.planId && *filter.planId ? **filter.planId : QString();
    QVariantList binds{scope.orgPk, scope.envWord(), filter.featureId.value_or(QStringLiteral("")),
                       scope.orgPk, scope.envWord(), planId.isNull() ? QStringLiteral("") : planId};
    binds += dueBinds(scope, nowMs);
    binds += QVariantList{scope.orgPk, scope.envWord(), state == Any ? qint64(2) : 1 - state,
                          scope.orgPk, scope.envWord(), state};
    auto rows = queryRows(db, sql, binds);
    if (!rows)
        return rows.error();

    Read read;
    // The filter's keys: nullopt for any; -2 for an id that names nothing,
    // which no kept row has; a plan key of 0 is "no plan".
    std::optional<qint64> featurePk;
    std::optional<qint64> planPk;
    for (const QVariantList &row : std::as_const(rows.value())) {
        if (row.at(0).toInt() != 0)
            continue;
        read.due = row.at(3).toInt() == 1;
        if (filter.featureId)
            featurePk = row.at(1).isNull() ? -2 : row.at(1).toLongLong();
        if (filter.planId)
            planPk = !*filter.planId ? 0 : row.at(2).isNull() ? -2 : row.at(2).toLongLong();
    }
    const auto raw = [](const QVariant &value) -> std::optional<Int128> {
        const auto parsed = Decimal::parseSum(value.toString().toLatin1());
        return parsed ? std::optional(parsed->raw()) : std::nullopt;
    };
    const bool byFeature = groupBy == TotalsGroupBy::Feature;
    const bool byPlan = groupBy == TotalsGroupBy::Plan;
    for (const QVariantList &row : std::as_const(rows.value())) {
        const int kind = row.at(0).toInt();
        const qint64 feature = row.at(1).toLongLong();
        const qint64 plan = row.at(2).toLongLong();
        const qint64 n = row.at(3).toLongLong();
        if (kind == 1) {
            if ((featurePk && feature != *featurePk) || (planPk && plan != *planPk))
                continue;
            const auto included = raw(row.at(4)), prepaid = raw(row.at(5)),
                       remaining = raw(row.at(6)), usage = raw(row.at(7));
            if (!included || !prepaid || !remaining || !usage)
                return ApiError::internal(u"a kept balance sum is not a decimal number"_s);
            const auto add = [&](Figures &into) {
                into.balances += n;
                into.granted += *included + *prepaid;
                into.remaining += *remaining;
                into.usage += *usage;
            };
            add(read.total);
            if (byFeature || byPlan)
                add(read.groups[byFeature ? feature : plan]);
        } else if (kind == 2) {
            // Customers do not add up across groups: each count is read at
            // the level the filter and the group name.
            const qint64 wantFeature = featurePk.value_or(Any);
            const qint64 wantPlan = planPk.value_or(Any);
            if (feature == wantFeature && plan == wantPlan)
                read.total.customers += n;
            if (byFeature && feature != Any && plan == wantPlan &&
                (!featurePk || feature == *featurePk))
                read.groups[feature].customers += n;
            if (byPlan && plan != Any && feature == wantFeature && (!planPk || plan == *planPk))
                read.groups[plan].customers += n;
        }
    }
    // Kinds a change emptied keep their rows at zero: no group.
    std::erase_if(read.groups, [](const auto &group) { return group.second.balances == 0; });
    return read;
}

bool filterAnswered(const api::ListBalancesRequest &filter)
{
    return !filter.customerId && !filter.entityId && !filter.resetsBefore &&
           !filter.filtersAmounts() && !filter.statuses.isEmpty();
}

} // namespace

bool BalanceSums::answers(const api::ListBalancesRequest &filter)
{
    return filterAnswered(filter);
}

bool BalanceSums::answers(const api::BalanceTotalsRequest &request)
{
    return filterAnswered(request.filter) &&
           (request.groupBy == TotalsGroupBy::Feature || request.groupBy == TotalsGroupBy::Plan);
}

api::Result<std::optional<api::BalanceTotals>>
BalanceSums::totals(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
                    const api::BalanceTotalsRequest &request, qint64 nowMs)
{
    auto read = readSums(db, dialect, scope, request.filter, request.groupBy, nowMs);
    if (!read)
        return read.error();
    if (read.value().due)
        return std::optional<api::BalanceTotals>();
    api::BalanceTotals totals;
    auto total = read.value().total.figures();
    if (!total)
        return total.error();
    totals.total = total.value();
    if (totals.total.balances == 0) {
        if (auto named = BalanceWhere::of(scope, request.filter, nowMs, dialect).checkNamedIds(db);
            !named)
            return named.error();
        return std::optional(totals);
    }
    // Keys to ids; a plan by the id its versions share.
    const bool byFeature = request.groupBy == TotalsGroupBy::Feature;
    auto keys = runSql(db,
                       u"SELECT pk, id FROM "_s + (byFeature ? u"features"_s : u"products"_s) +
                           u" WHERE org_pk = ? AND env = ?"_s,
                       {scope.orgPk, scope.envWord()});
    if (!keys)
        return keys.error();
    QHash<qint64, QString> names;
    while (keys.value().next())
        names.insert(keys.value().value(0).toLongLong(), keys.value().value(1).toString());
    for (const auto &[key, sums] : read.value().groups) {
        auto group = sums.figures();
        if (!group)
            return group.error();
        const bool noPlan = !byFeature && key == 0;
        totals.groups.append(
            {noPlan ? std::nullopt : std::optional(names.value(key)), group.value()});
    }
    std::sort(totals.groups.begin(), totals.groups.end(),
              [](const api::TotalsGroup &a, const api::TotalsGroup &b) { return a.key < b.key; });
    return std::optional(totals);
}

api::Result<std::optional<qint64>> BalanceSums::count(const QSqlDatabase &db, Dialect dialect,
                                                      const Scope &scope,
                                                      const api::ListBalancesRequest &filter,
                                                      qint64 nowMs)
{
    auto read = readSums(db, dialect, scope, filter, std::nullopt, nowMs);
    if (!read)
        return read.error();
    if (read.value().due)
        return std::optional<qint64>();
    return std::optional(read.value().total.balances);
}

api::Result<bool> BalanceSums::statesKept(const QSqlDatabase &db, const Scope &scope, qint64 nowMs)
{
    auto due = queryRows(db, u"SELECT "_s + DueProbe, dueBinds(scope, nowMs));
    if (!due)
        return due.error();
    return due.value().first().first().toInt() == 0;
}

api::Result<api::Done> BalanceSums::rebuild(const QSqlDatabase &db, Dialect dialect,
                                            const std::optional<Scope> &scope)
{
    const QVariantList binds = scopeBinds(scope);
    for (const QString &table : {u"balance_sums"_s, u"balance_customers"_s})
        if (auto cleared = runSql(db, u"DELETE FROM "_s + table + scopeWhere(scope, table), binds);
            !cleared)
            return cleared.error();
    const QString where = scopeWhere(scope, u"b"_s);
    if (auto sums = runSql(db,
                           u"INSERT INTO balance_sums (org_pk, env, feature_pk, plan_pk, expired,"
                           " stripe, balances, included, prepaid, remaining, usage) "_s +
                               expectedSums(dialect, where),
                           binds);
        !sums)
        return sums.error();
    if (auto customers = runSql(db,
                                u"INSERT INTO balance_customers (org_pk, env, feature_pk, plan_pk,"
                                " expired, stripe, customers) "_s +
                                    expectedCustomers(where),
                                binds);
        !customers)
        return customers.error();
    return api::Done{};
}

api::Result<QStringList> BalanceSums::differences(const QSqlDatabase &db, Dialect dialect)
{
    QStringList found;
    // Rows kept at zero (every row of the kind moved away) are no row.
    const QString same = u"k.org_pk = e.org_pk AND k.env = e.env AND k.feature_pk = e.feature_pk"
                         " AND k.plan_pk = e.plan_pk AND k.expired = e.expired"
                         " AND k.stripe = e.stripe"_s;
    const QString amountsDiffer =
        dialect == Dialect::Sqlite
            ? u"md_decimal_shift(k.included, '0', e.included) <> '0' OR md_decimal_shift("
              "k.prepaid, '0', e.prepaid) <> '0' OR md_decimal_shift(k.remaining, '0',"
              " e.remaining) <> '0' OR md_decimal_shift(k.usage, '0', e.usage) <> '0'"_s
            : u"k.included <> e.included OR k.prepaid <> e.prepaid OR k.remaining <> e.remaining"
              " OR k.usage <> e.usage"_s;
    const QString text = dialect == Dialect::Postgres ? u"::text"_s : QString();
    auto sums = runSql(
        db, u"SELECT k.org_pk, k.feature_pk, k.plan_pk, k.expired, k.stripe, k.balances,"
            " k.remaining%4, e.balances, e.remaining%4 FROM balance_sums k LEFT JOIN (%1) e ON %2"
            " WHERE CASE WHEN e.balances IS NULL THEN k.balances <> 0 OR k.remaining%3 <> 0"
            " OR k.included%3 <> 0 OR k.prepaid%3 <> 0 OR k.usage%3 <> 0"
            " ELSE e.balances <> k.balances OR %5 END"
            " UNION ALL SELECT e.org_pk, e.feature_pk, e.plan_pk, e.expired, e.stripe, NULL, NULL,"
            " e.balances, e.remaining%4 FROM (%1) e"
            " WHERE NOT EXISTS (SELECT 1 FROM balance_sums k WHERE %2)"_s.arg(
                expectedSums(dialect, QString()), same,
                dialect == Dialect::Sqlite ? u"+0"_s : QString(), text, amountsDiffer));
    if (!sums)
        return sums.error();
    while (sums.value().next()) {
        const QSqlQuery &q = sums.value();
        found.append(
            u"balance_sums of organization key %1, feature key %2, plan key %3, state %4, stripe"
            " %5 holds %6 rows remaining %7, but the balances are %8 rows remaining %9"_s.arg(
                q.value(0).toString(), q.value(1).toString(), q.value(2).toString(),
                q.value(3).toString(), q.value(4).toString(),
                q.value(5).isNull() ? u"0"_s : q.value(5).toString(),
                q.value(6).isNull() ? u"0"_s : q.value(6).toString(),
                q.value(7).isNull() ? u"0"_s : q.value(7).toString(),
                q.value(8).isNull() ? u"0"_s : q.value(8).toString()));
    }
    auto customers =
        runSql(db, u"SELECT k.org_pk, k.feature_pk, k.plan_pk, k.expired, k.stripe, k.customers,"
                   " e.customers FROM balance_customers k LEFT JOIN (%1) e ON %2"
                   " WHERE COALESCE(e.customers, 0) <> k.customers"
                   " UNION ALL SELECT e.org_pk, e.feature_pk, e.plan_pk, e.expired, e.stripe, 0,"
                   " e.customers FROM (%1) e WHERE NOT EXISTS (SELECT 1 FROM balance_customers k"
                   " WHERE %2)"_s.arg(expectedCustomers(QString()), same));
    if (!customers)
        return customers.error();
    while (customers.value().next()) {
        const QSqlQuery &q = customers.value();
        found.append(u"balance_customers of organization key %1, feature key %2, plan key %3,"
                     " state %4, stripe %5 counts %6 customers, but the balances have %7"_s.arg(
                         q.value(0).toString(), q.value(1).toString(), q.value(2).toString(),
                         q.value(3).toString(), q.value(4).toString(), q.value(5).toString(),
                         q.value(6).isNull() ? u"0"_s : q.value(6).toString()));
    }
    auto states =
        runSql(db, u"SELECT b.id, b.expired FROM "_s + RowsWithPlans + u" WHERE b.expired <> "_s +
                       derivedState(dialect) + u" ORDER BY b.pk LIMIT 20"_s);
    if (!states)
        return states.error();
    while (states.value().next())
        found.append(u"balance %1 is kept as %2, but its clock says %3"_s.arg(
            states.value().value(0).toString(),
            states.value().value(1).toInt() == 1 ? u"expired"_s : u"active"_s,
            states.value().value(1).toInt() == 1 ? u"active"_s : u"expired"_s));
    return found;
}

} // namespace md::engine
