#include "services/engine/clock/ClockApplier.h"

#include "services/engine/clock/ClockEvents.h"
#include "services/engine/clock/ResetCharges.h"

#include "services/engine/ledger/BalanceLedger.h"
#include "services/engine/sql/KeyAllocator.h"
#include "services/engine/sql/PostgresArray.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/sql/StoredJson.h"

namespace md::engine {

using namespace Qt::StringLiterals;
using api::Decimal;

namespace {

// The balances of `due` whose due_at has come.
QString dueWhere(Dialect dialect, const ClockApplier::Due &due, qint64 nowMs, QVariantList &binds)
{
    // Some customers' balances are found through the customers; the rest
    // through the due index, soonest first.
    QString where =
        due.someCustomers() ? ClockApplier::dueThroughCustomer(u"b"_s) : u"b.due_at <= ?"_s;
    binds.append(nowMs);
    if (due.scope) {
        where += u" AND b.org_pk = ? AND b.env = ?"_s;
        binds << due.scope->orgPk << due.scope->envWord();
    }
    if (!due.customerPks.isEmpty())
        where += u" AND "_s + inKeys(dialect, u"b.customer_pk"_s, due.customerPks, binds);
    if (!due.featurePks.isEmpty())
        where += u" AND "_s + inKeys(dialect, u"b.feature_pk"_s, due.featurePks, binds);
    if (due.customerId && due.scope) {
        where += u" AND b.customer_pk = (SELECT pk FROM customers WHERE org_pk = ? AND env = ?"
                 " AND id = ?)"_s;
        binds << due.scope->orgPk << due.scope->envWord() << *due.customerId;
    }
    if (due.balanceId && due.scope) {
        where += u" AND b.customer_pk = (SELECT customer_pk FROM balances WHERE org_pk = ?"
                 " AND env = ? AND id = ?)"_s;
        binds << due.scope->orgPk << due.scope->envWord() << *due.balanceId;
    }
    return where;
}

struct Stored
{
    qint64 pk = 0;
    QString id;
    Scope scope;
    qint64 customerPk = 0;
    qint64 featurePk = 0;
    QString featureId;
    ClockedBalance balance;
    ResetCharges::Row billing; // what its resets bill
};

// The balances `where` picks, each with its rollovers (one row per
// rollover, as the listing reads them).
api::Result<QList<Stored>> readStored(const QSqlDatabase &db, const QString &where,
                                      const QVariantList &binds)
{
    auto rows = runPrepared(
        db,
        u"SELECT b.pk, b.id, b.org_pk, b.env, b.customer_pk, b.feature_pk, f.id,"
        " b.included_grant, b.prepaid_grant, b.remaining, b.usage, b.unlimited,"
        " b.reset_interval, b.reset_interval_count, b.resets_at, b.reset_anchor,"
        " b.customer_product_pk, b.expires_at, b.expired_at, b.rollover, cp.expires_at, cp.status,"
        " r.granted, r.balance, r.expires_at, b.price, e.id, p.id, f.type, cp.trial_ends_at, "
        "o.currency"
        " FROM balances b JOIN features f ON f.pk = b.feature_pk"
        " JOIN organizations o ON o.pk = b.org_pk"
        " LEFT JOIN customer_products cp ON cp.pk = b.customer_product_pk"
        " LEFT JOIN products p ON p.pk = cp.product_pk"
        " LEFT JOIN entities e ON e.pk = b.entity_pk"
        " LEFT JOIN rollovers r ON r.balance_pk = b.pk"
        " WHERE %1 ORDER BY b.pk, r.expires_at, r.pk"_s.arg(where),
        binds);
    if (!rows)
        return rows.error();
    QList<Stored> stored;
    QSqlQuery &q = *rows.value();
    while (q.next()) {
        const qint64 pk = q.value(0).toLongLong();
        if (!stored.isEmpty() && stored.last().pk == pk) {
            stored.last().balance.rollovers.append(
                {decimalOf(q.value(22)), decimalOf(q.value(23)), q.value(24).toLongLong()});
            continue;
        }
        Stored s;
        s.pk = pk;
        s.id = q.value(1).toString();
        s.scope = {q.value(2).toLongLong(),
                   environmentFromWord(q.value(3).toString()).value_or(Environment::Sandbox)};
        s.customerPk = q.value(4).toLongLong();
        s.featurePk = q.value(5).toLongLong();
        s.featureId = q.value(6).toString();
        ClockedBalance &b = s.balance;
        b.includedGrant = decimalOf(q.value(7));
        b.prepaidGrant = decimalOf(q.value(8));
        b.remaining = decimalOf(q.value(9));
        b.usage = decimalOf(q.value(10));
        b.unlimited = q.value(11).toInt() != 0;
        b.interval =
            api::resetIntervalFromWire(q.value(12).toString()).value_or(api::ResetInterval::OneOff);
        b.intervalCount = q.value(13).isNull() ? 1 : std::max<qint64>(1, q.value(13).toLongLong());
        if (!q.value(14).isNull())
            b.resetsAt = q.value(14).toLongLong();
        b.anchor = q.value(15).isNull() ? b.resetsAt.value_or(0) : q.value(15).toLongLong();
        b.standalone = q.value(16).isNull();
        if (!q.value(17).isNull())
            b.expiresAt = q.value(17).toLongLong();
        b.expired = !q.value(18).isNull();
        if (!q.value(19).isNull()) {
            auto rule = decodeStored<api::RolloverRule>(q.value(19),
                                                        u"rollover rule of balance %1"_s.arg(s.id));
            if (!rule)
                return rule.error();
            b.rollover = rule.value();
        }
        if (!q.value(20).isNull())
            b.planEndsAt = q.value(20).toLongLong();
        if (q.value(21).toString() == "expired"_L1) // its expiry entry took everything
            b.planEndsAt = std::numeric_limits<qint64>::min();
        if (!q.value(22).isNull())
            b.rollovers.append(
                {decimalOf(q.value(22)), decimalOf(q.value(23)), q.value(24).toLongLong()});
        s.billing = {s.scope,
                     s.customerPk,
                     s.id,
                     s.featureId,
                     optionalText(q.value(27)),
                     optionalText(q.value(26)),
                     q.value(25),
                     b.includedGrant.plus(b.prepaidGrant).value_or(api::Decimal()),
                     b.prepaidGrant,
                     b.unlimited,
                     q.value(28).toString() == "credit_system"_L1,
                     optionalInteger(q.value(29)),
                     Money::of(q.value(30).toString()).value_or(Money())};
        stored.append(std::move(s));
    }
    q.finish();
    return stored;
}

// The balances with these keys that are still due.
api::Result<QList<Stored>> readDue(const QSqlDatabase &db, Dialect dialect,
                                   const QList<qint64> &pks, qint64 nowMs)
{
    QVariantList binds;
    const QString keys = inKeys(dialect, u"b.pk"_s, pks, binds);
    binds.append(nowMs);
    return readStored(db, keys + u" AND b.due_at <= ?"_s, binds);
}

// The clock run on each stored balance: what to write, its entries (from
// the key `keyPk`), the charge lines of its resets and, when asked, the tally.
api::Result<MovedBalances> advanceAll(const QList<Stored> &stored, qint64 nowMs, qint64 keyPk,
                                      QList<BalanceLedger::Entry> &entries, ClockTally *tally)
{
    MovedBalances moved;
    for (const Stored &s : stored) {
        BalanceClock::Outcome outcome = BalanceClock::advance(s.balance, nowMs);
        Scope scope = s.scope;
        scope.keyPk = keyPk;
        for (const ClockEvent &event : std::as_const(outcome.events))
            entries.append({scope, s.customerPk, s.featurePk, s.id, event.kind, event.amount,
                            event.balanceAfter, event.usage, std::nullopt, event.at});
        auto billed = ResetCharges::of(s.billing, outcome.events, s.balance, outcome.balance);
        if (!billed)
            return billed.error();
        moved.billed += billed.value();
        if (tally)
            tally->add(s.featureId, outcome);
        const bool rolloversChanged = outcome.balance.rollovers != s.balance.rollovers;
        moved.list.append({s.pk, s.id, std::move(outcome.balance), rolloversChanged,
                           !s.balance.rollovers.isEmpty()});
    }
    return moved;
}

} // namespace

void ClockTally::add(const QString &featureId, const BalanceClock::Outcome &outcome)
{
    ++balances;
    resets += outcome.resets;
    rollovers += outcome.rollovers;
    expiries += outcome.expiries;
    Feature &feature = byFeature[featureId];
    feature.resets += outcome.resets;
    feature.rollovers += outcome.rollovers;
    feature.expiries += outcome.expiries;
    for (const ClockEvent &event : outcome.events) {
        if (event.kind == "reset"_L1)
            feature.restored = feature.restored.runningSum(event.amount);
        else if (event.kind == "expiry"_L1)
            feature.expired = feature.expired.runningSum(event.amount.negated());
        else
            feature.rolledOver = feature.rolledOver.runningSum(event.carried);
    }
}

ClockTally &ClockTally::operator+=(const ClockTally &other)
{
    balances += other.balances;
    resets += other.resets;
    rollovers += other.rollovers;
    expiries += other.expiries;
    for (const auto &[id, theirs] : other.byFeature) {
        Feature &mine = byFeature[id];
        mine.resets += theirs.resets;
        mine.rollovers += theirs.rollovers;
        mine.expiries += theirs.expiries;
        mine.restored = mine.restored.runningSum(theirs.restored);
        mine.rolledOver = mine.rolledOver.runningSum(theirs.rolledOver);
        mine.expired = mine.expired.runningSum(theirs.expired);
    }
    return *this;
}

QString ClockApplier::customersOf(Dialect dialect, const Due &due, const QList<Scope> &except,
                                  QVariantList &binds)
{
    QString where;
    if (due.scope) {
        where += u" AND c.org_pk = ? AND c.env = ?"_s;
        binds << due.scope->orgPk << due.scope->envWord();
        if (due.customerId) {
            where += u" AND c.id = ?"_s;
            binds << *due.customerId;
        }
        if (due.balanceId) {
            where += u" AND c.pk = (SELECT customer_pk FROM balances WHERE org_pk = ?"
                     " AND env = ? AND id = ?)"_s;
            binds << due.scope->orgPk << due.scope->envWord() << *due.balanceId;
        }
    }
    if (!due.customerPks.isEmpty())
        where += u" AND "_s + inKeys(dialect, u"c.pk"_s, due.customerPks, binds);
    for (const Scope &scope : except) {
        where += u" AND NOT (c.org_pk = ? AND c.env = ?)"_s;
        binds << scope.orgPk << scope.envWord();
    }
    return where;
}

api::Result<api::Done> ClockApplier::lockCustomers(const QSqlDatabase &db, Dialect dialect,
                                                   QList<qint64> customerPks)
{
    if (dialect != Dialect::Postgres || customerPks.isEmpty())
        return api::Done{};
    std::sort(customerPks.begin(), customerPks.end());
    customerPks.erase(std::unique(customerPks.begin(), customerPks.end()), customerPks.end());
    auto locked = queryRows(
        db, u"SELECT pk FROM customers WHERE pk = ANY(?::bigint[]) ORDER BY pk FOR UPDATE"_s,
        {PostgresArray::of(customerPks)});
    if (!locked)
        return locked.error();
    return api::Done{};
}

api::Result<bool> ClockApplier::anyDue(const QSqlDatabase &db, Dialect dialect, const Due &due,
                                       qint64 nowMs)
{
    QVariantList binds;
    const QString where = dueWhere(dialect, due, nowMs, binds);
    // Over a whole scope, soonest first: PostgreSQL's generic plan guesses a
    // third of the rows are due and reads the table until it finds one,
    // which, when none is, is all of it (16 ms a read at 80,000 balances, 60
    // at 400,000; tst_queryplans). In due order it walks
    // balances_due_by_scope to its first entry.
    const QString order = due.someCustomers() ? QString() : u" ORDER BY b.due_at"_s;
    auto found =
        queryRows(db, u"SELECT 1 FROM balances b WHERE "_s + where + order + u" LIMIT 1"_s, binds);
    if (!found)
        return found.error();
    return !found.value().isEmpty();
}

QString ClockApplier::dueThroughCustomer(const QString &table)
{
    // With a unary + PostgreSQL still proved "due_at IS NOT NULL" and walked
    // the partial balances_due_by_scope: 62 ms a call on 200,000 due rows.
    return u"COALESCE(%1.due_at, 9223372036854775807) <= ?"_s.arg(table);
}

api::Result<ClockTally> ClockApplier::apply(const QSqlDatabase &db, Dialect dialect, const Due &due,
                                            qint64 nowMs, const QString &route)
{
    const qint64 keyPk = due.scope ? due.scope->keyPk : 0;
    QVariantList binds;
    const QString where = dueWhere(dialect, due, nowMs, binds);
    binds.append(MaxRows);
    auto picked =
        queryRows(db,
                  u"SELECT b.pk, b.customer_pk FROM balances b WHERE "_s + where +
                      (due.someCustomers() ? u" LIMIT ?"_s : u" ORDER BY b.due_at LIMIT ?"_s),
                  binds);
    if (!picked)
        return picked.error();
    ClockTally tally;
    if (picked.value().isEmpty())
        return tally;
    QList<qint64> pks;
    QList<qint64> customers;
    for (const QVariantList &row : std::as_const(picked.value())) {
        pks.append(row.at(0).toLongLong());
        customers.append(row.at(1).toLongLong());
    }
    if (auto locked = lockCustomers(db, dialect, customers); !locked)
        return locked.error();
    // Read again after the lock: what another server applied is not due now.
    auto stored = readDue(db, dialect, pks, nowMs);
    if (!stored)
        return stored.error();
    QList<BalanceLedger::Entry> entries;
    auto moved = advanceAll(stored.value(), nowMs, keyPk, entries, &tally);
    if (!moved)
        return moved.error();
    KeyAllocator keys(db, dialect);
    if (auto written = moved.value().write(db, dialect, keys); !written)
        return written.error();
    if (auto noted = BalanceLedger::write(db, dialect, route, nowMs, entries); !noted)
        return noted.error();
    if (auto told = ClockEvents::tell(db, dialect, entries, nowMs, &keys); !told)
        return told.error();
    if (auto billed = ResetCharges::write(db, moved.value().billed, keys); !billed)
        return billed.error();
    return tally;
}

api::Result<MovedBalances> ClockApplier::advance(const QSqlDatabase &db, Dialect dialect,
                                                 const Due &due, qint64 nowMs,
                                                 QList<BalanceLedger::Entry> &entries)
{
    QVariantList binds;
    const QString where = dueWhere(dialect, due, nowMs, binds);
    auto stored = readStored(db, where, binds);
    if (!stored)
        return stored.error();
    return advanceAll(stored.value(), nowMs, due.scope ? due.scope->keyPk : 0, entries, nullptr);
}

api::Result<ClockTally> ClockApplier::preview(const QSqlDatabase &db, Dialect dialect,
                                              const Scope &scope, qint64 untilMs)
{
    ClockTally tally;
    qint64 after = std::numeric_limits<qint64>::min();
    for (;;) {
        auto picked = queryRows(db,
                                u"SELECT b.pk FROM balances b WHERE b.due_at <= ?"
                                " AND b.org_pk = ? AND b.env = ? AND b.pk > ?"
                                " ORDER BY b.pk LIMIT ?"_s,
                                {untilMs, scope.orgPk, scope.envWord(), after, MaxRows});
        if (!picked)
            return picked.error();
        if (picked.value().isEmpty())
            return tally;
        QList<qint64> pks;
        for (const QVariantList &row : std::as_const(picked.value()))
            pks.append(row.at(0).toLongLong());
        after = pks.last();
        auto stored = readDue(db, dialect, pks, untilMs);
        if (!stored)
            return stored.error();
        for (const Stored &s : std::as_const(stored.value()))
            tally.add(s.featureId, BalanceClock::advance(s.balance, untilMs));
    }
}

} // namespace md::engine
