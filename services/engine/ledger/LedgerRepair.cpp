#include "services/engine/ledger/LedgerRepair.h"

#include "services/engine/ledger/BalanceLedger.h"
#include "services/engine/sql/Sql.h"

namespace md::engine {

using namespace Qt::StringLiterals;
using api::Decimal;

api::Result<LedgerRepair::Report> LedgerRepair::repair(const QSqlDatabase &db, Dialect dialect,
                                                       qint64 nowMs)
{
    WriteTransaction transaction(db, dialect);
    if (auto begun = transaction.begin(); !begun)
        return begun.error();
    // Balances whose plan a write expired: their ledger ends with an expiry
    // entry at zero, so whatever their entries add up to came after it.
    auto expired =
        queryRows(db,
                  u"SELECT b.pk, b.id, b.org_pk, b.env, b.customer_pk, b.feature_pk, b.remaining"
                  " FROM balances b JOIN customer_products cp ON cp.pk = b.customer_product_pk"
                  " WHERE cp.status = 'expired' ORDER BY b.pk"_s,
                  {});
    if (!expired)
        return expired.error();
    Report report;
    QList<BalanceLedger::Entry> entries;
    for (const QVariantList &row : std::as_const(expired.value())) {
        const QString id = row.at(1).toString();
        auto amounts = queryRows(
            db, u"SELECT amount FROM ledger WHERE customer_pk = ? AND balance_id = ? ORDER BY pk"_s,
            {row.at(4), id});
        if (!amounts)
            return amounts.error();
        Decimal held;
        for (const QVariantList &amount : std::as_const(amounts.value()))
            held = held.sum(decimalOf(amount.first())).value_or(held);
        if (held.isZero())
            continue;
        const Decimal remaining = decimalOf(row.at(6));
        const auto restored = remaining.minus(held);
        if (!restored)
            return api::ApiError::internal(
                u"balance %1 cannot be repaired: its remaining %2 less %3 is not an amount"_s.arg(
                    id, remaining.toString(), held.toString()));
        if (auto updated = execute(db, u"UPDATE balances SET remaining = ? WHERE pk = ?"_s,
                                   {restored->toString(), row.at(0)});
            !updated)
            return updated.error();
        const Scope scope{row.at(2).toLongLong(),
                          environmentFromWord(row.at(3).toString()).value_or(Environment::Sandbox)};
        entries.append({scope, row.at(4).toLongLong(), row.at(5).toLongLong(), id, u"adjustment"_s,
                        held.negated(), Decimal(), Decimal(), std::nullopt, std::nullopt});
        report.repaired.append(
            u"balance %1: %2 added after its plan expired taken back to zero; remaining %3 → %4"_s
                .arg(id, held.toString(), remaining.toString(), restored->toString()));
    }
    if (!entries.isEmpty())
        if (auto written = BalanceLedger::write(db, dialect, Route, nowMs, entries); !written)
            return written.error();
    if (auto committed = transaction.commit(); !committed)
        return committed.error();
    return report;
}

} // namespace md::engine
