#include "services/engine/ledger/BalanceAdjuster.h"

#include "services/engine/balances/BalanceWhere.h"
#include "services/engine/ledger/BalanceLedger.h"
#include "services/engine/sql/Sql.h"

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;
using api::Decimal;

namespace {

const QString Route = u"balances.adjust"_s;

struct Stored
{
    qint64 pk = 0;
    qint64 customerPk = 0;
    qint64 featurePk = 0;
    QString customerId;
    QString featureId;
    Decimal remaining;
    Decimal rollovers;
    bool unlimited = false;
    bool expired = false; // as balances.list says at `nowMs`
};

api::Result<Stored> find(const QSqlDatabase &db, const Scope &scope, const QString &balanceId,
                         qint64 nowMs)
{
    auto rows = queryRows(db,
                          u"SELECT b.pk, b.customer_pk, b.feature_pk, c.id, f.id, b.remaining,"
                          " b.unlimited, "_s +
                              BalanceWhere::ExpiredCondition +
                              u" FROM balances b JOIN customers c ON c.pk = b.customer_pk"
                              " JOIN features f ON f.pk = b.feature_pk"
                              " LEFT JOIN customer_products cp ON cp.pk = b.customer_product_pk"
                              " WHERE b.org_pk = ? AND b.env = ? AND b.id = ?"_s,
                          {nowMs, nowMs, scope.orgPk, scope.envWord(), balanceId});
    if (!rows)
        return rows.error();
    if (rows.value().isEmpty())
        return ApiError::notFound(api::ErrorCode::BalanceNotFound,
                                  u"balance \"%1\" does not exist"_s.arg(balanceId));
    const QVariantList &row = rows.value().first();
    Stored stored{row.at(0).toLongLong(),
                  row.at(1).toLongLong(),
                  row.at(2).toLongLong(),
                  row.at(3).toString(),
                  row.at(4).toString(),
                  decimalOf(row.at(5)),
                  Decimal(),
                  row.at(6).toBool(),
                  row.at(7).toBool()};
    auto rollovers =
        queryRows(db, u"SELECT balance FROM rollovers WHERE balance_pk = ?"_s, {stored.pk});
    if (!rollovers)
        return rollovers.error();
    for (const QVariantList &rollover : std::as_const(rollovers.value()))
        stored.rollovers =
            stored.rollovers.sum(decimalOf(rollover.first())).value_or(stored.rollovers);
    return stored;
}

} // namespace

api::Result<Decimal> BalanceAdjuster::remaining(const QSqlDatabase &db, const Scope &scope,
                                                const QString &balanceId)
{
    auto stored = find(db, scope, balanceId, 0);
    if (!stored)
        return stored.error();
    return stored.value().remaining;
}

api::Result<api::LedgerEntry> BalanceAdjuster::adjust(const QSqlDatabase &db, Dialect dialect,
                                                      const Scope &scope,
                                                      const api::BalanceAdjustment &request,
                                                      qint64 nowMs)
{
    auto located = find(db, scope, request.balanceId, nowMs);
    if (!located)
        return located.error();
    if (dialect == Dialect::Postgres) {
        // Track batches lock their customers first (TrackBatch); so does an
        // adjustment, then reads the balance again, as it is now.
        if (auto locked = queryRows(db, u"SELECT pk FROM customers WHERE pk = ? FOR UPDATE"_s,
                                    {located.value().customerPk});
            !locked)
            return locked.error();
        located = find(db, scope, request.balanceId, nowMs);
        if (!located)
            return located.error();
    }
    const Stored &stored = located.value();
    // An expired balance holds nothing: its ledger ended at zero with an
    // expiry entry, so an amount added now would hold nowhere
    // (docs/ledger.md, "Adjustments").
    if (stored.expired)
        return ApiError{409, api::ErrorCode::BalanceExpired,
                        u"balance \"%1\" has expired (its plan or its own expiry has passed): "
                        "an expired balance holds nothing to adjust"_s.arg(request.balanceId)};
    if (stored.unlimited)
        return ApiError::invalidInputs(
            u"balance_id"_s,
            u"balance \"%1\" is unlimited: it has no amount to adjust"_s.arg(request.balanceId));
    const auto after = stored.remaining.plus(request.amount);
    const auto heldAfter = after ? after->plus(stored.rollovers) : std::nullopt;
    if (!heldAfter)
        return ApiError::invalidInputs(u"amount"_s,
                                       u"takes the balance beyond what an amount can hold"_s);
    if (auto updated = execute(db, u"UPDATE balances SET remaining = ? WHERE pk = ?"_s,
                               {after->toString(), stored.pk});
        !updated)
        return updated.error();
    const BalanceLedger::Entry entry{
        scope,          stored.customerPk, stored.featurePk, request.balanceId, u"adjustment"_s,
        request.amount, *heldAfter,        Decimal(),        std::nullopt,      std::nullopt};
    return BalanceLedger::writeOne(db, dialect, Route, nowMs, entry, stored.customerId,
                                   stored.featureId);
}

} // namespace md::engine
