#include "services/engine/ledger/BalanceLedger.h"

#include "services/engine/ids/KeysetPage.h"
#include "services/engine/ids/PublicIds.h"
#include "services/engine/sql/PostgresArray.h"
#include "services/engine/sql/SqliteStatement.h"

namespace md::engine {

using namespace Qt::StringLiterals;
using api::Decimal;

namespace {

QVariant keyOf(const Scope &scope)
{
    return scope.keyPk ? QVariant(scope.keyPk) : QVariant();
}

// An entry's columns but its event: org_pk, env, customer_pk, feature_pk,
// balance_id, at, kind, amount, balance_after, usage, route, key_pk.
QVariantList valuesOf(const BalanceLedger::Entry &entry, const QString &route, qint64 at)
{
    return {entry.scope.orgPk,
            entry.scope.envWord(),
            entry.customerPk,
            entry.featurePk,
            entry.balanceId,
            entry.at.value_or(at),
            entry.kind,
            entry.amount.toString(),
            entry.balanceAfter.toString(),
            entry.usage.toString(),
            route,
            keyOf(entry.scope)};
}

} // namespace

Decimal BalanceLedger::held(const api::BalanceRow &row)
{
    Decimal total = row.remaining;
    for (const api::Rollover &rollover : row.rollovers)
        total = total.runningSum(rollover.balance);
    return total;
}

BalanceLedger::Entry BalanceLedger::change(const Scope &scope, const QString &kind,
                                           qint64 customerPk, qint64 featurePk,
                                           const api::BalanceRow *before,
                                           const api::BalanceRow &after)
{
    const Decimal heldBefore = before ? held(*before) : Decimal();
    const Decimal usageBefore = before ? before->usage : Decimal();
    const Decimal heldAfter = held(after);
    return {scope,        customerPk,
            featurePk,    after.id,
            kind,         heldAfter.runningSum(heldBefore.negated()),
            heldAfter,    after.usage.runningSum(usageBefore.negated()),
            std::nullopt, std::nullopt};
}

QList<BalanceLedger::Entry> BalanceLedger::planGrant(const Scope &scope, qint64 customerPk,
                                                     qint64 featurePk, const QString &balanceId,
                                                     Decimal granted, Decimal remaining,
                                                     Decimal usage, bool expired)
{
    QList<Entry> entries;
    const auto note = [&](const QString &kind, Decimal amount, Decimal after, Decimal used) {
        entries.append(
            {scope, customerPk, featurePk, balanceId, kind, amount, after, used, {}, {}});
    };
    note(u"grant"_s, granted, granted, Decimal());
    if (remaining != granted || !usage.isZero())
        note(u"import"_s, remaining.runningSum(granted.negated()), remaining, usage);
    if (expired)
        note(u"expiry"_s, remaining.negated(), Decimal(), Decimal());
    return entries;
}

api::Result<QList<BalanceLedger::Entry>>
BalanceLedger::expiriesOf(const QSqlDatabase &db, const Scope &scope, qint64 customerPk,
                          const QVariant &customerProductPk)
{
    auto rows = queryRows(db,
                          u"SELECT b.id, b.feature_pk, b.remaining, r.balance FROM balances b"
                          " LEFT JOIN rollovers r ON r.balance_pk = b.pk"
                          " WHERE b.customer_product_pk = ? ORDER BY b.pk"_s,
                          {customerProductPk});
    if (!rows)
        return rows.error();
    QList<Entry> entries;
    // One row per rollover: the balance's entry gathers them all.
    for (const QVariantList &row : std::as_const(rows.value())) {
        const QString balanceId = row.at(0).toString();
        if (entries.isEmpty() || entries.last().balanceId != balanceId)
            entries.append({scope,
                            customerPk,
                            row.at(1).toLongLong(),
                            balanceId,
                            u"expiry"_s,
                            Decimal::parse(row.at(2).toString()).value_or(Decimal()).negated(),
                            Decimal(),
                            Decimal(),
                            {},
                            {}});
        if (!row.at(3).isNull())
            entries.last().amount = entries.last().amount.runningSum(
                Decimal::parse(row.at(3).toString()).value_or(Decimal()).negated());
    }
    return entries;
}

QVariantList BalanceLedger::arrays(const QList<Entry> &entries, const QString &route, qint64 at)
{
    return arrays(entries, QStringList(entries.size(), route), at);
}

QVariantList BalanceLedger::arrays(const QList<Entry> &entries, const QStringList &routes,
                                   qint64 at)
{
    QList<QVariantList> columns(12);
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const QVariantList row = valuesOf(entries.at(i), routes.at(i), at);
        for (qsizetype c = 0; c < columns.size(); ++c)
            columns[c].append(row.at(c));
    }
    QVariantList arrays;
    for (const QVariantList &column : std::as_const(columns))
        arrays.append(PostgresArray::of(column));
    return arrays;
}

QString BalanceLedger::unnestSql(const QString &more, bool numbered)
{
    return u"unnest(?::bigint[], ?::text[], ?::bigint[], ?::bigint[], ?::text[], ?::bigint[],"
           " ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[]%1)%3"
           " AS l(org_pk, env, customer_pk, feature_pk, balance_id, at, kind, amount,"
           " balance_after, usage, route, key_pk%2%4)"_s.arg(
               more.isEmpty() ? QString() : u", "_s + more,
               more.isEmpty() ? QString() : u", event_ord"_s,
               numbered ? u" WITH ORDINALITY"_s : QString(), numbered ? u", n"_s : QString());
}

api::Result<api::Done> BalanceLedger::write(const QSqlDatabase &db, Dialect dialect,
                                            const QString &route, qint64 at,
                                            const QList<Entry> &entries)
{
    return write(db, dialect, QStringList(entries.size(), route), at, entries);
}

api::Result<api::LedgerEntry> BalanceLedger::writeOne(const QSqlDatabase &db, Dialect dialect,
                                                      const QString &route, qint64 at,
                                                      const Entry &entry, const QString &customerId,
                                                      const QString &featureId)
{
    if (auto written = write(db, dialect, route, at, {entry}); !written)
        return written.error();
    auto id =
        queryRows(db, u"SELECT MAX(pk) FROM ledger WHERE customer_pk = ?"_s, {entry.customerPk});
    if (!id)
        return id.error();
    const qint64 keyPk = entry.scope.keyPk;
    return api::LedgerEntry{
        PublicIds::idOf(db, PublicIds::Kind::LedgerEntry, id.value().first().first().toLongLong()),
        at,
        entry.kind,
        customerId,
        featureId,
        entry.balanceId,
        entry.amount,
        entry.balanceAfter,
        entry.usage,
        {route,
         keyPk ? std::optional(PublicIds::idOf(db, PublicIds::Kind::ApiKey, keyPk)) : std::nullopt,
         std::nullopt}};
}

api::Result<api::Done> BalanceLedger::write(const QSqlDatabase &db, Dialect dialect,
                                            const QStringList &routes, qint64 at,
                                            const QList<Entry> &entries)
{
    if (entries.isEmpty())
        return api::Done{};
    // The key is the database's: PostgreSQL's sequence; on SQLite the
    // largest rowid plus one, so no key is looked up first.
    const QString columns = u"org_pk, env, customer_pk, feature_pk, balance_id, at, kind, amount,"
                            " balance_after, usage, route, key_pk, event_pk"_s;
    if (dialect == Dialect::Postgres) {
        QList<QVariant> events;
        for (const Entry &entry : entries)
            events.append(entry.eventPk ? QVariant(*entry.eventPk) : QVariant());
        return execute(
            db,
            u"INSERT INTO ledger (pk, %1) SELECT nextval('ledger_pk_seq'), l.* FROM %2"_s.arg(
                columns, unnestSql(u"?::bigint[]"_s)),
            arrays(entries, routes, at) << PostgresArray::of(events));
    }
    // On the usage path: SQLite's own API, binding natively.
    const QString insert =
        u"INSERT INTO ledger (%1) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s.arg(columns);
    const bool native = SqliteStatement::available(db);
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const Entry &entry = entries.at(i);
        QVariantList row = valuesOf(entry, routes.at(i), at);
        row.append(entry.eventPk ? QVariant(*entry.eventPk) : QVariant());
        if (!native) {
            if (auto added = execute(db, insert, row); !added)
                return added;
            continue;
        }
        auto statement = SqliteStatement::run(db, insert, row);
        if (!statement)
            return statement.error();
        if (auto ran = statement.value()->next(); !ran)
            return ran.error();
    }
    return api::Done{};
}

api::Result<api::Page<api::LedgerEntry>>
BalanceLedger::list(const QSqlDatabase &db, const Scope &scope, const api::LedgerRequest &request)
{
    auto before = decodeCursor(db, scope, "l1", request.startCursor, 1);
    if (!before)
        return before.error();
    auto publicIds = PublicIds::of(db);
    if (!publicIds)
        return publicIds.error();
    auto customer =
        queryRows(db, u"SELECT pk FROM customers WHERE org_pk = ? AND env = ? AND id = ?"_s,
                  {scope.orgPk, scope.envWord(), request.customerId});
    if (!customer)
        return customer.error();
    if (customer.value().isEmpty())
        return api::ApiError::notFound(api::ErrorCode::CustomerNotFound,
                                       u"customer \"%1\" does not exist"_s.arg(request.customerId));
    QString sql = u"SELECT l.pk, l.at, l.kind, f.id, l.balance_id, l.amount, l.balance_after,"
                  " l.usage, l.route, l.key_pk, l.event_pk FROM ledger l"
                  " JOIN features f ON f.pk = l.feature_pk"
                  " WHERE l.customer_pk = ? AND l.org_pk = ? AND l.env = ?"_s;
    QVariantList binds{customer.value().first().first(), scope.orgPk, scope.envWord()};
    if (request.featureId) {
        auto feature =
            queryRows(db, u"SELECT pk FROM features WHERE org_pk = ? AND env = ? AND id = ?"_s,
                      {scope.orgPk, scope.envWord(), *request.featureId});
        if (!feature)
            return feature.error();
        if (feature.value().isEmpty())
            return api::ApiError::notFound(
                api::ErrorCode::FeatureNotFound,
                u"feature \"%1\" does not exist"_s.arg(*request.featureId));
        sql += u" AND l.feature_pk = ?"_s;
        binds << feature.value().first().first();
    }
    if (before.value()) {
        sql += u" AND l.pk < ?"_s;
        binds << before.value()->first();
    }
    sql += u" ORDER BY l.pk DESC LIMIT ?"_s;
    binds << request.limit + 1;
    auto query = runSql(db, sql, binds);
    if (!query)
        return query.error();
    // An id costs eight HMACs (PublicIds): a page's rows come from few keys.
    QHash<qint64, QString> keyIds;
    const auto idOf = [&](PublicIds::Kind kind, const QVariant &pk) -> std::optional<QString> {
        if (pk.isNull())
            return std::nullopt;
        if (kind != PublicIds::Kind::ApiKey)
            return publicIds.value().make(kind, pk.toLongLong());
        auto known = keyIds.constFind(pk.toLongLong());
        if (known == keyIds.cend())
            known = keyIds.insert(pk.toLongLong(), publicIds.value().make(kind, pk.toLongLong()));
        return *known;
    };
    return page<api::LedgerEntry>(
        db, scope, query.value(), request.limit, "l1", 1, [&](const QSqlQuery &q) {
            return api::LedgerEntry{
                publicIds.value().make(PublicIds::Kind::LedgerEntry, q.value(0).toLongLong()),
                q.value(1).toLongLong(),
                q.value(2).toString(),
                request.customerId,
                q.value(3).toString(),
                q.value(4).toString(),
                Decimal::parse(q.value(5).toString()).value_or(Decimal()),
                Decimal::parse(q.value(6).toString()).value_or(Decimal()),
                Decimal::parse(q.value(7).toString()).value_or(Decimal()),
                {q.value(8).toString(), idOf(PublicIds::Kind::ApiKey, q.value(9)),
                 idOf(PublicIds::Kind::UsageEvent, q.value(10))}};
        });
}

} // namespace md::engine
