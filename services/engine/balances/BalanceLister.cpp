#include "services/engine/balances/BalanceLister.h"

#include "services/api/WireCodec.h"
#include "services/engine/balances/BalanceCursor.h"
#include "services/engine/balances/BalanceRowReader.h"
#include "services/engine/balances/BalanceWhere.h"
#include "services/engine/sql/PostgresArray.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/sql/SqliteStatement.h"
#include "services/engine/sql/StoredJson.h"

namespace md::engine {

using namespace Qt::StringLiterals;
using api::Decimal;

namespace {

// The list's sort key follows the columns every reader reads.
constexpr int SortKeyColumn = 25;

// A page of at most `limit` balances from `rows`; `last` is the position of
// the last one taken.
template <typename Rows>
api::Result<api::ListBalancesResponse> collect(Rows &rows, const api::ListBalancesRequest &request,
                                               BalanceCursor &last)
{
    const qsizetype limit = request.limit;
    const bool byCustomer = request.orderBy == api::BalanceOrder::Customer;
    api::ListBalancesResponse response;
    BalanceRowReader reader;
    auto more = reader.readAll(
        rows, limit, [&](const Rows &at, api::BalanceRow &&row) -> api::BalanceRow & {
            last = byCustomer ? BalanceCursor{BalanceRowReader::customerKey(at),
                                              BalanceRowReader::balanceKey(at)}
                              : BalanceCursor::ofValue(at.value(SortKeyColumn).toDouble(),
                                                       BalanceRowReader::balanceKey(at));
            response.list.append(std::move(row));
            return response.list.last();
        });
    if (!more)
        return more.error();
    response.hasMore = more.value();
    // SQLite took the rows whose amounts might pass (BalanceWhere): only
    // those that do stay. The page may hold fewer rows; the cursor is the
    // last one read (docs/api.md, balances.list).
    response.list.removeIf([&request](const api::BalanceRow &row) {
        return !request.amountsPass(row.remaining, row.includedGrant, row.prepaidGrant,
                                    row.unlimited);
    });
    return response;
}

} // namespace

api::Result<QList<BalanceLister::Owned>> BalanceLister::activeRows(const QSqlDatabase &db,
                                                                   const Scope &scope,
                                                                   const QList<qint64> &customerPks,
                                                                   const QList<qint64> &featurePks,
                                                                   qint64 nowMs)
{
    QList<Owned> rows;
    if (customerPks.isEmpty() || featurePks.isEmpty())
        return rows;
    const QString sql = BalanceRowReader::columns() +
                        u" FROM (SELECT b.*, cp.product_pk AS product_pk, 0 AS listed_expired"
                        // Each customer's rows by its key: as `customer_pk = ANY(…)` the
                        // planner walked the organization's index in order instead of sorting
                        // a few rows (tst_queryplans).
                        " FROM unnest(?::bigint[]) AS k (customer_pk) JOIN balances b"
                        " ON b.org_pk = ? AND b.env = ? AND b.customer_pk = k.customer_pk"
                        " LEFT JOIN customer_products cp ON cp.pk = b.customer_product_pk"
                        " WHERE b.feature_pk = ANY(?::bigint[]) AND NOT "_s +
                        BalanceWhere::ExpiredCondition +
                        u") b LEFT JOIN rollovers r ON r.balance_pk = b.pk"
                        " ORDER BY b.customer_pk, b.pk, r.expires_at, r.pk"_s;
    auto query = runPrepared(db, sql,
                             {PostgresArray::of(customerPks), scope.orgPk, scope.envWord(),
                              PostgresArray::of(featurePks), nowMs, nowMs});
    if (!query)
        return query.error();
    QtRows q(*query.value());
    BalanceRowReader reader;
    auto read = reader.readAll(q, std::numeric_limits<qsizetype>::max(),
                               [&](const QtRows &at, api::BalanceRow &&row) -> api::BalanceRow & {
                                   rows.append({BalanceRowReader::customerKey(at),
                                                BalanceRowReader::entityKey(at),
                                                BalanceRowReader::featureKey(at), std::move(row)});
                                   return rows.last().row;
                               });
    if (!read)
        return read.error();
    return rows;
}

api::Result<BalanceLister::Held> BalanceLister::held(const QSqlDatabase &db, const Scope &scope,
                                                     qint64 customerPk,
                                                     std::optional<qint64> entityPk,
                                                     qint64 featurePk, qint64 nowMs)
{
    // The plan's end follows the columns every reader reads (PlanExpiry).
    static const QString of = u", b.plan_expires_at FROM (SELECT b.*, cp.product_pk AS product_pk,"
                              " cp.expires_at AS plan_expires_at, 0 AS listed_expired"
                              " FROM balances b LEFT JOIN customer_products cp"
                              " ON cp.pk = b.customer_product_pk WHERE b.org_pk = ? AND b.env = ?"
                              " AND b.customer_pk = ? AND b.feature_pk = ? AND %1 AND NOT "_s +
                              BalanceWhere::ExpiredCondition +
                              u") b LEFT JOIN rollovers r ON r.balance_pk = b.pk"
                              " ORDER BY b.pk, r.expires_at, r.pk"_s;
    static const QString ownRows = BalanceRowReader::columns() + of.arg(u"b.entity_pk IS NULL"_s);
    static const QString entityRows = BalanceRowReader::columns() + of.arg(u"b.entity_pk = ?"_s);
    constexpr int PlanExpiry = 25;
    QVariantList binds{scope.orgPk, scope.envWord(), customerPk, featurePk};
    if (entityPk)
        binds.append(*entityPk);
    binds << nowMs << nowMs;
    const QString &sql = entityPk ? entityRows : ownRows;
    Held held;
    const auto expires = [&](std::optional<qint64> at) {
        if (at && *at > nowMs)
            held.nextExpiry = std::min(held.nextExpiry, *at);
    };
    const auto keep = [&](const auto &at, api::BalanceRow &&row) -> api::BalanceRow & {
        expires(row.expiresAt);
        expires(at.isNull(PlanExpiry) ? std::nullopt : std::optional(at.integer(PlanExpiry)));
        held.rows.append(std::move(row));
        return held.rows.last();
    };
    BalanceRowReader reader;
    const auto readRows = [&]() -> api::Result<bool> {
        if (SqliteStatement::available(db)) {
            auto statement = SqliteStatement::run(db, sql, binds);
            if (!statement)
                return statement.error();
            return reader.readAll(*statement.value(), std::numeric_limits<qsizetype>::max(), keep);
        }
        auto query = runPrepared(db, sql, binds);
        if (!query)
            return query.error();
        QtRows q(*query.value());
        return reader.readAll(q, std::numeric_limits<qsizetype>::max(), keep);
    };
    if (const auto read = readRows(); !read)
        return read.error();
    return held;
}

namespace {

// The key of the last row a page start into a customer's rows (from
// balances.pages on PostgreSQL) has taken, under the listing's filter.
api::Result<qint64> lastTakenOf(const QSqlDatabase &db, const BalanceWhere &filter,
                                const BalanceCursor &cursor)
{
    if (!filter.byCustomer)
        return api::ApiError::invalidCursor(
            u"start_cursor is a page start of the customer order; pass it with order_by customer"_s);
    const QString direction = filter.descending ? u" DESC"_s : QString();
    auto found = runSql(db,
                        u"SELECT b.pk FROM "_s + filter.from + u" WHERE "_s + filter.sql +
                            u" AND "_s + filter.customerColumn + u" = ? ORDER BY b.pk"_s +
                            direction + u" LIMIT 1 OFFSET ?"_s,
                        filter.binds + QVariantList{cursor.key, cursor.rowsOfCustomer - 1});
    if (!found)
        return found.error();
    if (found.value().next())
        return found.value().value(0).toLongLong();
    // Fewer rows there now than when the pages were counted: after them all.
    return filter.descending ? std::numeric_limits<qint64>::min()
                             : std::numeric_limits<qint64>::max();
}

} // namespace

api::Result<api::ListBalancesResponse> BalanceLister::list(const QSqlDatabase &db,
                                                           const Scope &scope,
                                                           const api::ListBalancesRequest &request,
                                                           qint64 nowMs)
{
    const bool sqlite = SqliteStatement::available(db);
    const BalanceWhere filter =
        BalanceWhere::of(scope, request, nowMs, sqlite ? Dialect::Sqlite : Dialect::Postgres);
    QString where = filter.sql;
    QVariantList binds = filter.binds;
    const auto seal = BalanceCursor::seal(db, scope, request);
    if (!seal)
        return seal.error();
    if (!request.startCursor.isEmpty()) {
        const auto cursor = BalanceCursor::decode(seal.value(), request.startCursor);
        if (!cursor)
            return api::ApiError::invalidCursor(
                u"start_cursor is not a cursor this server issued for this order; pass the next_cursor of a previous page asked in the same order_by and order, or an empty string"_s);
        qint64 balancePk = cursor->balancePk;
        if (cursor->rowsOfCustomer > 0) {
            auto last = lastTakenOf(db, filter, *cursor);
            if (!last)
                return last.error();
            balancePk = last.value();
        }
        // The first term lets the index that orders the rows start there.
        const QString after = filter.descending ? u"<"_s : u">"_s;
        where += u" AND %1 %2= ? AND (%1, b.pk) %2 (?, ?)"_s.arg(filter.sortKey, after);
        const QVariant key = filter.byCustomer ? QVariant(cursor->key) : QVariant(cursor->value());
        binds << key << key << balancePk;
    }

    // The inner query walks one index in key order and stops after limit+1
    // rows; the outer one adds ids by key (one index probe each, whatever the
    // planner thinks of the tables' sizes) and the rollovers, one row each.
    // PostgreSQL, planning for any limit, would rather hash every rollover
    // (tst_queryplans): there they are a LATERAL subquery, looked up per row.
    const QString rollovers =
        sqlite ? u" LEFT JOIN rollovers r ON r.balance_pk = b.pk"_s
               : u" LEFT JOIN LATERAL (SELECT r.* FROM rollovers r WHERE r.balance_pk = b.pk"
                 " ORDER BY r.expires_at, r.pk) r ON true"_s;
    const QString sql = BalanceRowReader::columns() +
                        u", b.sort_key FROM (SELECT b.*, cp.product_pk AS product_pk, "_s +
                        BalanceWhere::ExpiredCondition + u" AS listed_expired, "_s +
                        filter.sortKey + u" AS sort_key FROM "_s + filter.from + u" WHERE "_s +
                        where + u" ORDER BY "_s + filter.order + u" LIMIT ?) b"_s + rollovers +
                        u" ORDER BY b.sort_key%1, b.pk%1, r.expires_at, r.pk"_s.arg(
                            filter.descending ? u" DESC"_s : QString());
    QVariantList allBinds{nowMs, nowMs};
    allBinds.append(binds);
    allBinds.append(request.limit + 1);
    // SQLite: straight through its own API, reading only what is used. (On
    // PostgreSQL libpq measured 7 % faster than QPSQL here: the time is the
    // server's, docs/performance.md.)
    api::Result<api::ListBalancesResponse> page = api::ListBalancesResponse();
    BalanceCursor last;
    if (sqlite) {
        auto statement = SqliteStatement::run(db, sql, allBinds);
        if (!statement)
            return statement.error();
        page = collect(*statement.value(), request, last);
    } else {
        auto query = runPrepared(db, sql, allBinds);
        if (!query)
            return query.error();
        QtRows rows(*query.value());
        page = collect(rows, request, last);
    }
    if (!page)
        return page.error();
    api::ListBalancesResponse &response = page.value();
    if (response.hasMore)
        response.nextCursor = last.encode(seal.value());
    if (response.list.isEmpty()) {
        if (auto named = filter.checkNamedIds(db); !named)
            return named.error();
    }
    return response;
}

} // namespace md::engine
