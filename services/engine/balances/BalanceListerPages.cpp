// BalanceLister::pages (docs/api.md, "balances.pages"): the filter's row
// count and the cursor that starts each of its pages.
#include "services/engine/balances/BalanceLister.h"

#include "services/engine/balances/BalanceCursor.h"
#include "services/engine/balances/BalanceCustomerRows.h"
#include "services/engine/balances/BalanceScan.h"
#include "services/engine/balances/BalanceSums.h"
#include "services/engine/balances/BalanceWhere.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/sql/SqliteStatement.h"

#include <QSqlQuery>

#include <algorithm>
#include <vector>

namespace md::engine {

using namespace Qt::StringLiterals;

api::Result<api::BalancePages> BalanceLister::pages(const QSqlDatabase &db, const Scope &scope,
                                                    const api::BalancePagesRequest &request,
                                                    qint64 nowMs, const StopCheck &stop)
{
    const bool sqlite = SqliteStatement::available(db);
    const Dialect dialect = sqlite ? Dialect::Sqlite : Dialect::Postgres;
    const auto seal = BalanceCursor::seal(db, scope, request.filter);
    if (!seal)
        return seal.error();
    // SQLite: one snapshot for the probe, the maps and the pass.
    QSqlDatabase connection = db;
    if (sqlite && !connection.transaction())
        return api::ApiError::internal(u"starting a read transaction failed"_s);
    const auto done = [&](auto answer) {
        if (sqlite) {
            connection.rollback(); // read only
            BalanceScan::releaseCache(db);
        }
        return answer;
    };
    // In customer order, filtered by feature and status at most: the keys
    // straight from an index of the kept states (migration 18), once the
    // clock has applied every state due (docs/performance.md, "Totals from
    // kept sums"); a status of both needs no states.
    bool keptStates = false;
    const api::ListBalancesRequest &asked = request.filter;
    if (asked.orderBy == api::BalanceOrder::Customer && !asked.planId &&
        BalanceSums::answers(asked)) {
        if (asked.includes(api::BalanceStatus::Active) !=
            asked.includes(api::BalanceStatus::Expired)) {
            auto kept = BalanceSums::statesKept(db, scope, nowMs);
            if (!kept)
                return done(api::Result<api::BalancePages>(kept.error()));
            keptStates = kept.value();
        } else {
            keptStates = true;
        }
    }
    const BalanceWhere filter = BalanceWhere::of(scope, asked, nowMs, dialect, keptStates);
    api::BalancePages pages;
    pages.cursors.append(QString());
    // The key of the last row of each full page starts the next one.
    const auto lastOfPage = [&](qint64 position, const BalanceCursor &at) {
        if ((position + 1) % request.pageSize == 0)
            pages.cursors.append(at.encode(seal.value()));
    };
    // Below this page size a hop per page costs more than a pass.
    constexpr qint64 HopFrom = 16;
    if (sqlite && keptStates && request.pageSize >= HopFrom) {
        // Page to page on a covering index: each start is the row a page
        // after the last one, which SQLite steps to inside one statement
        // (OFFSET) without handing the rows in between out: 0.1 s for
        // 1,740,000 keys where reading each took 0.4 (docs/performance.md).
        const QString select = u"SELECT b.customer_pk, b.pk FROM balances b WHERE "_s + filter.sql;
        const QString after =
            u" AND (b.customer_pk, b.pk) %1 (?, ?)"_s.arg(filter.descending ? u"<"_s : u">"_s);
        const QString order = u" ORDER BY "_s + filter.order + u" LIMIT 1 OFFSET ?"_s;
        const QString first = select + order;
        const QString next = select + after + order;
        // The filter's binds, then the last start's keys, then the offset.
        QVariantList binds = filter.binds;
        binds << request.pageSize - 1;
        std::optional<BalanceCursor> last;
        for (;;) {
            if (stop && stop())
                return done(api::Result<api::BalancePages>(stoppedError()));
            auto hop = SqliteStatement::run(db, last ? next : first, binds);
            if (!hop)
                return done(api::Result<api::BalancePages>(hop.error()));
            SqliteStatement &row = *hop.value();
            auto found = row.next();
            if (!found)
                return done(api::Result<api::BalancePages>(found.error()));
            if (!found.value()) { // fewer than a page left: count them
                binds.last() = request.pageSize;
                auto rest = SqliteStatement::run(db,
                                                 u"SELECT count(*) FROM ("_s + select +
                                                     (last ? after : QString()) + u" LIMIT ?)"_s,
                                                 binds);
                if (!rest)
                    return done(api::Result<api::BalancePages>(rest.error()));
                auto counted = rest.value()->next();
                if (!counted)
                    return done(api::Result<api::BalancePages>(counted.error()));
                pages.count += rest.value()->integer(0);
                rest.value()->finish();
                break;
            }
            if (!last)
                binds.insert(binds.size() - 1, 2, QVariant(qint64(0)));
            last = BalanceCursor{row.integer(0), row.integer(1)};
            row.finish();
            binds[binds.size() - 3] = last->key;
            binds[binds.size() - 2] = last->balancePk;
            pages.count += request.pageSize;
            lastOfPage(pages.count - 1, *last);
        }
    } else if (sqlite) {
        // One pass over the table in storage order (BalanceScan: no join, no
        // index walk), keys only, then sorted into the listing's order.
        auto scan = BalanceScan::open(
            db, scope, asked, nowMs,
            filter.byCustomer ? QStringList() : QStringList{filter.sortKey}, stop);
        if (!scan)
            return done(api::Result<api::BalancePages>(scan.error()));
        // (customer key or the sort value's bits, balance key), sorted as listed.
        std::vector<std::pair<qint64, qint64>> customerKeys;
        std::vector<std::pair<double, qint64>> sortKeys;
        for (;;) {
            auto more = scan.value().next();
            if (!more)
                return done(api::Result<api::BalancePages>(more.error()));
            if (!more.value())
                break;
            const SqliteStatement &row = scan.value().row();
            if (filter.byCustomer)
                customerKeys.emplace_back(row.integer(BalanceScan::CustomerColumn),
                                          row.integer(BalanceScan::KeyColumn));
            else
                sortKeys.emplace_back(row.value(BalanceScan::ExtraColumn).toDouble(),
                                      row.integer(BalanceScan::KeyColumn));
        }
        const auto number = [&](auto &keys, auto cursorOf) {
            if (filter.descending)
                std::sort(keys.begin(), keys.end(), std::greater<>());
            else
                std::sort(keys.begin(), keys.end());
            for (const auto &[key, balancePk] : keys)
                lastOfPage(pages.count++, cursorOf(key, balancePk));
        };
        number(customerKeys, [](qint64 customerPk, qint64 balancePk) {
            return BalanceCursor{customerPk, balancePk};
        });
        number(sortKeys, &BalanceCursor::ofValue);
    } else if (keptStates && request.pageSize >= HopFrom &&
               asked.includes(api::BalanceStatus::Active) !=
                   asked.includes(api::BalanceStatus::Expired)) {
        // PostgreSQL, one state: from each customer's kept row count
        // (BalanceCustomerRows).
        auto walk = BalanceCustomerRows::walk(db, scope, asked.featureId,
                                              asked.includes(api::BalanceStatus::Expired),
                                              filter.descending, request.pageSize);
        if (!walk)
            return walk.error();
        pages.count = walk.value().count;
        for (const BalanceCursor &end : std::as_const(walk.value().pageEnds))
            pages.cursors.append(end.encode(seal.value()));
    } else if (keptStates && request.pageSize >= HopFrom) {
        // PostgreSQL, both states: the same hops in one recursive statement (one
        // snapshot), then the rows after the last start counted, in order:
        // unordered, the planner read the table from its start to find them.
        const QString rows = u"SELECT b.customer_pk, b.pk FROM balances b WHERE "_s + filter.sql;
        const QString order = u" ORDER BY "_s + filter.order;
        const QString after = u" AND (b.customer_pk, b.pk) %1 (%2.k, %2.pk)"_s;
        const QString cmp = filter.descending ? u"<"_s : u">"_s;
        const QString sql =
            u"WITH RECURSIVE hops (n, k, pk) AS (SELECT 1, s.customer_pk, s.pk FROM ("_s + rows +
            order +
            u" LIMIT 1 OFFSET ?) s UNION ALL SELECT h.n + 1, s.customer_pk, s.pk FROM hops h"
            " CROSS JOIN LATERAL ("_s +
            rows + after.arg(cmp, u"h"_s) + order +
            u" LIMIT 1 OFFSET ?) s), last AS (SELECT k, pk FROM hops ORDER BY n DESC LIMIT 1)"
            " SELECT n, k, pk FROM hops UNION ALL SELECT NULL, (SELECT count(*) FROM ("_s +
            rows + u" AND NOT EXISTS (SELECT 1 FROM last)"_s + order +
            u" LIMIT ?) everything) + (SELECT count(*) FROM last CROSS JOIN LATERAL ("_s + rows +
            after.arg(cmp, u"last"_s) + order + u" LIMIT ?) rest), NULL ORDER BY 1"_s;
        const QVariantList binds = filter.binds + QVariantList{request.pageSize - 1} +
                                   filter.binds + QVariantList{request.pageSize - 1} +
                                   filter.binds + QVariantList{request.pageSize} + filter.binds +
                                   QVariantList{request.pageSize};
        auto hops = runSql(db, sql, binds);
        if (!hops)
            return hops.error();
        QSqlQuery &q = hops.value();
        while (q.next()) {
            if (q.value(0).isNull()) { // the rows after the last start
                pages.count += q.value(1).toLongLong();
                continue;
            }
            pages.count += request.pageSize;
            lastOfPage(pages.count - 1,
                       BalanceCursor{q.value(1).toLongLong(), q.value(2).toLongLong()});
        }
    } else {
        // PostgreSQL numbers the rows itself and sends one key per page.
        auto rows =
            runSql(db,
                   u"SELECT k, pk, n, total FROM (SELECT "_s + filter.sortKey +
                       u" AS k, b.pk, row_number() OVER (ORDER BY "_s + filter.order +
                       u") AS n, count(*) OVER () AS total FROM "_s + filter.from + u" WHERE "_s +
                       filter.sql + u") numbered WHERE n % ? = 0 OR n = 1 ORDER BY n"_s,
                   filter.binds + QVariantList{request.pageSize});
        if (!rows)
            return rows.error();
        QSqlQuery &q = rows.value();
        while (q.next()) {
            pages.count = q.value(3).toLongLong();
            const qint64 balancePk = q.value(1).toLongLong();
            lastOfPage(q.value(2).toLongLong() - 1,
                       filter.byCustomer
                           ? BalanceCursor{q.value(0).toLongLong(), balancePk}
                           : BalanceCursor::ofValue(q.value(0).toDouble(), balancePk));
        }
    }
    // A last page that would start after the last row is no page.
    if (!pages.cursors.isEmpty() && (pages.cursors.size() - 1) * request.pageSize >= pages.count)
        pages.cursors.removeLast();
    if (pages.count == 0)
        if (auto named = filter.checkNamedIds(db); !named)
            return done(api::Result<api::BalancePages>(named.error()));
    return done(api::Result<api::BalancePages>(pages));
}

} // namespace md::engine
