#include "services/engine/customers/PlanClock.h"

#include "services/api/BillingPeriod.h"
#include "services/engine/clock/ClockApplier.h"
#include "services/engine/customers/StoredPlan.h"
#include "services/engine/ledger/BalanceLedger.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/sql/StoredJson.h"

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

// A subscription in force whose period ended, and that has not ended by
// then itself (its end is the expiry's).
const QString PeriodDue =
    u"cp.status IN ('active', 'trialing', 'past_due') AND cp.current_period_end <= ?"
    " AND (cp.expires_at IS NULL OR cp.expires_at > ?)"_s;

// The plans of `due` matching `condition` (bound to `untilMs`), at most
// `limit` (0: all) in the order of `order`.
api::Result<QList<QVariantList>> plans(const QSqlDatabase &db, Dialect dialect,
                                       const QString &columns, const QString &condition,
                                       const QString &order, const ClockApplier::Due &due,
                                       qint64 untilMs, qsizetype limit)
{
    QVariantList binds(condition.count(u'?'), untilMs);
    const QString where = condition + ClockApplier::customersOf(dialect, due, {}, binds);
    // One customer's plans through the customer; otherwise the due plans
    // first, through their partial indexes (SQLite keeps a CROSS JOIN's
    // order), then each one's customer by key.
    QString sql =
        (due.someCustomers() ? u"SELECT %1 FROM customers c JOIN customer_products cp"
                               " ON cp.customer_pk = c.pk WHERE %2"_s
                             : u"SELECT %1 FROM customer_products cp CROSS JOIN customers c"
                               " WHERE c.pk = cp.customer_pk AND %2"_s)
            .arg(columns, where);
    if (!order.isEmpty())
        sql += u" ORDER BY "_s + order;
    if (limit > 0) {
        sql += u" LIMIT ?"_s;
        binds.append(limit);
    }
    return queryRows(db, sql, binds);
}

// Plans whose end came: expired once (the UPDATE's condition says whether
// this call is the one), each balance's expiry entry with it.
api::Result<qint64> expirePlans(const QSqlDatabase &db, Dialect dialect,
                                const ClockApplier::Due &which, qint64 nowMs, const QString &route)
{
    const qint64 keyPk = which.scope ? which.scope->keyPk : 0;
    auto due = plans(db, dialect, u"cp.pk, cp.customer_pk, c.org_pk, c.env"_s,
                     u"cp.status <> 'expired' AND cp.expires_at <= ?"_s, u"cp.expires_at"_s, which,
                     nowMs, ClockApplier::MaxRows);
    if (!due)
        return due.error();
    QList<qint64> customers;
    for (const QVariantList &row : std::as_const(due.value()))
        customers.append(row.at(1).toLongLong());
    if (auto locked = ClockApplier::lockCustomers(db, dialect, customers); !locked)
        return locked.error();
    qint64 expired = 0;
    for (const QVariantList &row : std::as_const(due.value())) {
        auto changed = runSql(db,
                              u"UPDATE customer_products SET status = 'expired'"
                              " WHERE pk = ? AND status <> 'expired'"_s,
                              {row.at(0)});
        if (!changed)
            return changed.error();
        if (changed.value().numRowsAffected() != 1)
            continue; // another server expired it first
        const Scope owner{row.at(2).toLongLong(),
                          environmentFromWord(row.at(3).toString()).value_or(Environment::Sandbox),
                          keyPk};
        auto entries = BalanceLedger::expiriesOf(db, owner, row.at(1).toLongLong(), row.at(0));
        if (!entries)
            return entries.error();
        if (auto written = BalanceLedger::write(db, dialect, route, nowMs, entries.value());
            !written)
            return written.error();
        // Nothing falls due for them any more.
        if (auto cleared = execute(db,
                                   u"UPDATE balances SET due_at = NULL"
                                   " WHERE customer_product_pk = ?"_s,
                                   {row.at(0)});
            !cleared)
            return cleared.error();
        ++expired;
    }
    return expired;
}

// Subscriptions whose period ended: to the period holding `nowMs`, counted
// from the anchor. Moving one twice gives the same period, so this needs no lock.
api::Result<qint64> movePeriods(const QSqlDatabase &db, Dialect dialect,
                                const ClockApplier::Due &which, qint64 nowMs, bool write)
{
    auto due = plans(
        db, dialect,
        u"cp.pk, COALESCE(cp.period_anchor, cp.current_period_start, cp.started_at),"
        " (SELECT items FROM products WHERE pk = cp.product_pk), cp.current_period_end"_s,
        PeriodDue, u"cp.current_period_end"_s, which, nowMs, write ? ClockApplier::MaxRows : 0);
    if (!due)
        return due.error();
    qint64 moved = 0;
    for (const QVariantList &row : std::as_const(due.value())) {
        auto items =
            decodeStored(row.at(2), u"items of a plan"_s, &api::readList<api::ProductItem>);
        if (!items)
            return items.error();
        const auto [start, end] = api::BillingPeriod::containing(
            StoredPlan::renewalInterval(items.value()), row.at(1).toLongLong(), nowMs);
        ++moved;
        if (!write)
            continue;
        if (auto updated =
                execute(db,
                        u"UPDATE customer_products SET current_period_start = ?,"
                        " current_period_end = ? WHERE pk = ? AND current_period_end <= ?"_s,
                        {start, end, row.at(0), nowMs});
            !updated)
            return updated.error();
    }
    return moved;
}

} // namespace

api::Result<PlanClock::Tally> PlanClock::apply(const QSqlDatabase &db, Dialect dialect,
                                               const ClockApplier::Due &due, qint64 nowMs,
                                               const QString &route)
{
    auto expired = expirePlans(db, dialect, due, nowMs, route);
    if (!expired)
        return expired.error();
    auto moved = movePeriods(db, dialect, due, nowMs, true);
    if (!moved)
        return moved.error();
    return Tally{expired.value(), moved.value()};
}

api::Result<bool> PlanClock::anyDue(const QSqlDatabase &db, Dialect dialect,
                                    const ClockApplier::Due &due, qint64 nowMs)
{
    const QStringList conditions{u"cp.status <> 'expired' AND cp.expires_at <= ?"_s, PeriodDue};
    for (const QString &condition : conditions) {
        auto found = plans(db, dialect, u"1"_s, condition, QString(), due, nowMs, 1);
        if (!found)
            return found.error();
        if (!found.value().isEmpty())
            return true;
    }
    return false;
}

api::Result<PlanClock::Tally> PlanClock::preview(const QSqlDatabase &db, Dialect dialect,
                                                 const Scope &scope, qint64 untilMs)
{
    const ClockApplier::Due due{scope, {}, {}, {}, {}};
    auto ending =
        plans(db, dialect, u"COUNT(*)"_s, u"cp.status <> 'expired' AND cp.expires_at <= ?"_s,
              QString(), due, untilMs, 0);
    if (!ending)
        return ending.error();
    auto moved = movePeriods(db, dialect, due, untilMs, false);
    if (!moved)
        return moved.error();
    return Tally{ending.value().first().first().toLongLong(), moved.value()};
}

} // namespace md::engine
