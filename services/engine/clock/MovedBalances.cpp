#include "services/engine/clock/MovedBalances.h"

#include "services/engine/sql/KeyAllocator.h"
#include "services/engine/sql/PostgresArray.h"
#include "services/engine/sql/Sql.h"

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

QVariant orNull(const std::optional<qint64> &value)
{
    return value ? QVariant(*value) : QVariant();
}

// A balance's new columns: pk, remaining, usage, resets_at, due_at, expired_at.
QVariantList columnsOf(const MovedBalances::Balance &moved)
{
    const ClockedBalance &after = moved.after;
    return {moved.pk, after.remaining.toString(), after.usage.toString(), orNull(after.resetsAt),
            orNull(BalanceClock::dueAt(after)),
            // when the clock expired it, kept once
            after.expired ? orNull(after.expiresAt) : QVariant()};
}

// The rollovers that replace a balance's: balance_pk, granted, balance, expires_at.
QList<QVariantList> rolloversOf(const MovedBalances::Balance &moved)
{
    QList<QVariantList> rows;
    for (const api::Rollover &r : moved.after.rollovers)
        rows.append({moved.pk, r.granted.toString(), r.balance.toString(), r.expiresAt});
    return rows;
}

} // namespace

QString MovedBalances::postgresWith()
{
    // The DELETE does not see the INSERT's rows: one snapshot for the statement.
    return u"clock_rows AS (UPDATE balances b SET remaining = u.remaining, usage = u.usage,"
           " resets_at = u.resets_at, due_at = u.due_at,"
           " expired_at = COALESCE(b.expired_at, u.expired_at)"
           " FROM unnest(?::bigint[], ?::text[], ?::text[], ?::bigint[], ?::bigint[], ?::bigint[])"
           " AS u(pk, remaining, usage, resets_at, due_at, expired_at)"
           " WHERE b.pk = u.pk RETURNING 1),"
           " clock_gone AS (DELETE FROM rollovers WHERE balance_pk = ANY(?::bigint[]) RETURNING 1),"
           " clock_carried AS (INSERT INTO rollovers (pk, balance_pk, granted, balance, expires_at)"
           " SELECT nextval('rollovers_pk_seq'), r.* FROM unnest(?::bigint[], ?::text[],"
           " ?::text[], ?::bigint[]) AS r(balance_pk, granted, balance, expires_at) RETURNING 1)"_s;
}

QVariantList MovedBalances::postgresBinds() const
{
    QList<QVariantList> columns(6);
    QVariantList replaced;
    QList<QVariantList> carried(4);
    for (const Balance &moved : list) {
        const QVariantList row = columnsOf(moved);
        for (qsizetype c = 0; c < row.size(); ++c)
            columns[c].append(row.at(c));
        if (!moved.rolloversChanged)
            continue;
        if (moved.hadRollovers)
            replaced.append(moved.pk);
        for (const QVariantList &rollover : rolloversOf(moved))
            for (qsizetype c = 0; c < rollover.size(); ++c)
                carried[c].append(rollover.at(c));
    }
    QVariantList binds;
    for (const QVariantList &column : std::as_const(columns))
        binds.append(PostgresArray::of(column));
    binds.append(PostgresArray::of(replaced));
    for (const QVariantList &column : std::as_const(carried))
        binds.append(PostgresArray::of(column));
    return binds;
}

api::Result<api::Done> MovedBalances::write(const QSqlDatabase &db, Dialect dialect,
                                            KeyAllocator &keys) const
{
    if (list.isEmpty())
        return api::Done{};
    if (dialect == Dialect::Postgres)
        return execute(db, u"WITH "_s + postgresWith() + u" SELECT 1"_s, postgresBinds());
    QList<qint64> replaced;
    QList<QVariantList> carried;
    for (const Balance &moved : list) {
        const QVariantList c = columnsOf(moved);
        if (auto updated = execute(db,
                                   u"UPDATE balances SET remaining = ?, usage = ?, resets_at = ?,"
                                   " due_at = ?, expired_at = COALESCE(expired_at, ?)"
                                   " WHERE pk = ?"_s,
                                   {c.at(1), c.at(2), c.at(3), c.at(4), c.at(5), c.at(0)});
            !updated)
            return updated;
        if (moved.rolloversChanged && moved.hadRollovers)
            replaced.append(moved.pk);
        if (moved.rolloversChanged)
            carried += rolloversOf(moved);
    }
    QVariantList binds;
    if (!replaced.isEmpty())
        if (auto dropped = execute(db,
                                   u"DELETE FROM rollovers WHERE "_s +
                                       inKeys(dialect, u"balance_pk"_s, replaced, binds),
                                   binds);
            !dropped)
            return dropped;
    for (QVariantList &row : carried) {
        auto pk = keys.next(u"rollovers"_s);
        if (!pk)
            return pk.error();
        row.prepend(pk.value());
    }
    if (carried.isEmpty())
        return api::Done{};
    return insertRows(db, u"rollovers"_s,
                      {u"pk"_s, u"balance_pk"_s, u"granted"_s, u"balance"_s, u"expires_at"_s},
                      carried);
}

} // namespace md::engine
