#include "services/engine/clock/ResetCharges.h"

#include "services/engine/charges/Money.h"
#include "services/engine/charges/UsageCharge.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/sql/StoredJson.h"

#include <map>

namespace md::engine {

using api::Decimal;
using namespace Qt::StringLiterals;

api::Result<QList<ResetCharges::Line>> ResetCharges::of(const Row &row,
                                                        const QList<ClockEvent> &events)
{
    QList<Line> lines;
    if (row.price.isNull() || row.unlimited)
        return lines; // most rows have no price: nothing is decoded for them
    // A reset is two events (usage back to zero, then the grant) at one
    // moment; the usage they give back is what the period used.
    std::map<qint64, Decimal> used;
    for (const ClockEvent &event : events)
        if (event.kind == "reset"_L1 && !event.usage.isZero())
            used[event.at] = used[event.at].runningSum(event.usage.negated());
    if (used.empty())
        return lines;
    auto price = decodeStored<api::Price>(row.price, u"price of balance %1"_s.arg(row.balanceId));
    if (!price)
        return price.error();
    if (price.value().billingMethod != api::BillingMethod::UsageBased)
        return lines;
    for (const auto &[at, usage] : used) {
        auto charge = UsageCharges::charge(price.value(), usage, row.grant, Money::MinorDigits);
        if (!charge)
            return api::ApiError::internal(
                u"balance %1's price: %2"_s.arg(row.balanceId, charge.error().message));
        if (charge.value().pastGrant.isZero())
            continue; // within the grant: nothing to bill
        lines.append({row.scope, row.customerPk, at, row.balanceId,
                      UsageCharges::line({row.balanceId, row.featureId, row.planId, row.entityId,
                                          usage, row.grant},
                                         charge.value())});
    }
    return lines;
}

api::Result<api::Done> ResetCharges::write(const QSqlDatabase &db, const QList<Line> &lines,
                                           KeyAllocator &keys)
{
    // Many rows a statement: one round trip for a sweep step's lines.
    constexpr qsizetype RowsPerInsert = 100;
    for (qsizetype from = 0; from < lines.size(); from += RowsPerInsert) {
        QVariantList binds;
        QStringList values;
        for (const Line &line : lines.mid(from, RowsPerInsert)) {
            auto pk = keys.next(u"charge_lines"_s);
            if (!pk)
                return pk.error();
            binds << pk.value() << line.scope.orgPk << line.scope.envWord() << line.customerPk
                  << line.at << line.balanceId << storedText(line.line);
            values.append(u"(?, ?, ?, ?, ?, ?, ?)"_s);
        }
        if (auto added = execute(db,
                                 u"INSERT INTO charge_lines (pk, org_pk, env, customer_pk, at,"
                                 " balance_id, line) VALUES "_s +
                                     values.join(u", "_s),
                                 binds);
            !added)
            return added.error();
    }
    return api::Done{};
}

api::Result<QList<ResetCharges::Line>> ResetCharges::read(const QSqlDatabase &db, Dialect dialect,
                                                          const QList<qint64> &customerPks,
                                                          qint64 afterMs, qint64 upToMs)
{
    QList<Line> lines;
    if (customerPks.isEmpty())
        return lines;
    QVariantList binds;
    const QString which = inKeys(dialect, u"customer_pk"_s, customerPks, binds);
    binds << afterMs << upToMs;
    auto rows =
        queryRows(db,
                  u"SELECT customer_pk, at, balance_id, line FROM charge_lines WHERE "_s + which +
                      u" AND at > ? AND at <= ? ORDER BY customer_pk, at, balance_id"_s,
                  binds);
    if (!rows)
        return rows.error();
    for (const QVariantList &row : std::as_const(rows.value())) {
        auto line = decodeStored<api::ChargeLine>(row.at(3), u"a charge line"_s);
        if (!line)
            return line.error();
        lines.append({Scope{}, row.at(0).toLongLong(), row.at(1).toLongLong(), row.at(2).toString(),
                      std::move(line).value()});
    }
    return lines;
}

} // namespace md::engine
