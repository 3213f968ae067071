#include "services/engine/ledger/LedgerVerifier.h"

#include "services/engine/balances/BalanceCustomerRows.h"
#include "services/engine/balances/BalanceSums.h"
#include "services/engine/ledger/BalanceLedger.h"
#include "services/engine/ledger/LedgerRepair.h"
#include "services/engine/ledger/RevenueMonths.h"
#include "services/engine/ledger/UsageDays.h"
#include "services/engine/sql/Sql.h"

#include <QDateTime>
#include <QHash>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::Decimal;

namespace {

// What each balance holds now, and what its ledger must add up to.
struct Stored
{
    Scope scope;
    qint64 customerPk = 0;
    qint64 featurePk = 0;
    Decimal held; // remaining plus rollovers
    Decimal usage;
    bool expired = false; // its plan, or the clock, expired it: the ledger ends at zero
};

// Every balance with its rollovers gathered, in key order.
// `schema`: the migration running (6 opens the ledger), for the columns
// that came after it.
api::Result<QList<std::pair<QString, Stored>>> storedBalances(const QSqlDatabase &db,
                                                              int schema = 0)
{
    const QString expiredAt = schema && schema < 10 ? u"NULL"_s : u"b.expired_at"_s;
    auto query =
        runSql(db, u"SELECT b.id, b.org_pk, b.env, b.customer_pk, b.feature_pk,"
                   " b.remaining, b.usage, cp.status, r.balance, "_s +
                       expiredAt +
                       u" FROM balances b"
                       " LEFT JOIN customer_products cp ON cp.pk = b.customer_product_pk"
                       " LEFT JOIN rollovers r ON r.balance_pk = b.pk ORDER BY b.pk, r.pk"_s);
    if (!query)
        return query.error();
    QList<std::pair<QString, Stored>> balances;
    QSqlQuery &q = query.value();
    q.setForwardOnly(true);
    while (q.next()) {
        const QString id = q.value(0).toString();
        if (balances.isEmpty() || balances.last().first != id) {
            Stored stored;
            stored.scope = {
                q.value(1).toLongLong(),
                environmentFromWord(q.value(2).toString()).value_or(Environment::Sandbox)};
            stored.customerPk = q.value(3).toLongLong();
            stored.featurePk = q.value(4).toLongLong();
            stored.held = decimalOf(q.value(5));
            stored.usage = decimalOf(q.value(6));
            // Its plan expired by a write, or the clock expired it.
            stored.expired = q.value(7).toString() == "expired"_L1 || !q.value(9).isNull();
            balances.append({id, stored});
        }
        if (!q.value(8).isNull())
            balances.last().second.held =
                balances.last().second.held.runningSum(decimalOf(q.value(8)));
    }
    return balances;
}

// Usage events whose customer, entity, feature or organization is missing:
// on PostgreSQL no foreign key keeps them (migration 13), so verify does.
api::Result<QStringList> orphanEvents(const QSqlDatabase &db)
{
    auto query = runSql(
        db, u"SELECT e.pk, e.customer_pk, e.entity_pk, e.feature_pk, e.org_pk FROM usage_events e"
            " WHERE NOT EXISTS (SELECT 1 FROM customers c WHERE c.pk = e.customer_pk)"
            " OR NOT EXISTS (SELECT 1 FROM features f WHERE f.pk = e.feature_pk)"
            " OR (e.entity_pk IS NOT NULL AND NOT EXISTS (SELECT 1 FROM entities n"
            " WHERE n.pk = e.entity_pk))"
            " OR NOT EXISTS (SELECT 1 FROM organizations o WHERE o.pk = e.org_pk) ORDER BY e.pk"_s);
    if (!query)
        return query.error();
    QStringList found;
    QSqlQuery &q = query.value();
    while (q.next())
        found.append(
            u"usage event %1 names customer key %2, entity key %3, feature key %4 and organization key %5; one of them does not exist"_s
                .arg(q.value(0).toString(), q.value(1).toString(),
                     q.value(2).isNull() ? u"none"_s : q.value(2).toString(), q.value(3).toString(),
                     q.value(4).toString()));
    return found;
}

} // namespace

api::Result<LedgerVerifier::Report> LedgerVerifier::verify(const QSqlDatabase &db, Dialect dialect)
{
    return onOneSnapshot(db, dialect, [&]() -> api::Result<Report> {
        auto balances = storedBalances(db);
        if (!balances)
            return balances.error();
        struct Derived
        {
            Decimal held;
            Decimal usage;
            qint64 entries = 0;
            bool expired = false; // an expiry entry came
            // Differences after the expiry, forgiven by a later repair (LedgerRepair.h).
            QStringList afterExpiry;
        };
        QHash<QString, Derived> derived;
        derived.reserve(balances.value().size());
        Report report;
        auto query = runSql(db, u"SELECT pk, balance_id, amount, balance_after, usage, kind, route"
                                " FROM ledger ORDER BY pk"_s);
        if (!query)
            return query.error();
        QSqlQuery &q = query.value();
        q.setForwardOnly(true);
        while (q.next()) {
            ++report.entries;
            Derived &running = derived[q.value(1).toString()];
            running.held = running.held.runningSum(decimalOf(q.value(2)));
            running.usage = running.usage.runningSum(decimalOf(q.value(4)));
            ++running.entries;
            if (const Decimal after = decimalOf(q.value(3)); after != running.held)
                (running.expired ? running.afterExpiry : report.differences)
                    .append(
                        u"balance %1: ledger_%2 says it holds %3 after it, but the entries up to it add up to %4"_s
                            .arg(q.value(1).toString(), q.value(0).toString(), after.toString(),
                                 running.held.toString()));
            if (q.value(5).toString() == "expiry"_L1)
                running.expired = true;
            if (q.value(6).toString() == LedgerRepair::Route)
                running.afterExpiry.clear();
        }
        for (const Derived &running : std::as_const(derived))
            report.differences += running.afterExpiry;
        for (const auto &[id, stored] : std::as_const(balances.value())) {
            ++report.balances;
            const auto found = derived.constFind(id);
            if (found == derived.cend()) {
                report.differences.append(u"balance %1 has no ledger entries"_s.arg(id));
                continue;
            }
            const Decimal expected = stored.expired ? Decimal() : stored.held;
            if (found->held != expected)
                report.differences.append(
                    u"balance %1 holds %2%3, but its %4 ledger entries add up to %5"_s.arg(
                        id, expected.toString(), stored.expired ? u" (expired)"_s : QString(),
                        QString::number(found->entries), found->held.toString()));
            if (found->usage != stored.usage)
                report.differences.append(
                    u"balance %1 has used %2, but its ledger entries add up to %3 used"_s.arg(
                        id, stored.usage.toString(), found->usage.toString()));
            derived.erase(found);
        }
        for (auto it = derived.cbegin(); it != derived.cend(); ++it)
            report.differences.append(
                u"ledger entries name balance %1, which does not exist"_s.arg(it.key()));
        if (auto orphans = orphanEvents(db); !orphans)
            return orphans.error();
        else
            report.differences += orphans.value();
        if (auto days = UsageDays::differences(db, dialect); !days)
            return days.error();
        else
            report.differences += days.value();
        if (auto sums = BalanceSums::differences(db, dialect); !sums)
            return sums.error();
        else
            report.differences += sums.value();
        if (auto revenue = RevenueMonths::differences(db); !revenue)
            return revenue.error();
        else
            report.differences += revenue.value();
        if (BalanceCustomerRows::kept(dialect)) {
            if (auto rows = BalanceCustomerRows::differences(db); !rows)
                return rows.error();
            else
                report.differences += rows.value();
        }
        return report;
    });
}

api::Result<api::Done> LedgerVerifier::openExisting(const QSqlDatabase &db, Dialect dialect)
{
    auto balances = storedBalances(db, 6);
    if (!balances)
        return balances.error();
    QList<BalanceLedger::Entry> entries;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const auto flush = [&]() -> api::Result<api::Done> {
        auto written = BalanceLedger::write(db, dialect, u"migration"_s, now, entries);
        entries.clear();
        return written;
    };
    for (const auto &[id, stored] : std::as_const(balances.value())) {
        entries.append({stored.scope, stored.customerPk, stored.featurePk, id, u"import"_s,
                        stored.held, stored.held, stored.usage, std::nullopt, std::nullopt});
        if (stored.expired)
            entries.append({stored.scope, stored.customerPk, stored.featurePk, id, u"expiry"_s,
                            stored.held.negated(), Decimal(), Decimal(), std::nullopt,
                            std::nullopt});
        if (entries.size() >= 10000)
            if (auto written = flush(); !written)
                return written;
    }
    return flush();
}

} // namespace md::engine
