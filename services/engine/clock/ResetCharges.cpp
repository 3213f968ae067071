#include "services/engine/clock/ResetCharges.h"

#include "services/engine/charges/Money.h"
#include "services/engine/charges/UsageCharge.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/sql/StoredJson.h"

#include <map>

namespace md::engine {

using api::Decimal;
using namespace Qt::StringLiterals;

namespace {

api::Result<api::Price> priceOf(const ResetCharges::Row &row)
{
    return decodeStored<api::Price>(row.price, u"price of balance %1"_s.arg(row.balanceId));
}

UsageCharges::Row usageRow(const ResetCharges::Row &row, Decimal usage)
{
    return {row.balanceId, row.featureId, row.planId, row.entityId, usage, row.grant};
}

// A stored price that cannot be applied (tiers stored before their last band
// had to reach "inf") bills nothing, and its line says why, rather than
// stopping the clock for every row of the step.
ResetCharges::Line unpriced(const ResetCharges::Row &row, qint64 at, Decimal usage,
                            const QString &why, bool advance)
{
    api::ChargeLine line;
    line.planId = row.planId;
    line.featureId = row.featureId;
    line.entityId = row.entityId;
    line.balanceId = row.balanceId;
    line.quantity = usage;
    line.description =
        u"not billed: balance %1's price cannot be applied: %2"_s.arg(row.balanceId, why);
    return {row.scope, row.customerPk, at, row.balanceId, line, advance};
}

api::Result<std::optional<ResetCharges::Line>> purchaseOf(const ResetCharges::Row &row,
                                                          const api::Price &price, qint64 at)
{
    if (price.billingMethod != api::BillingMethod::Prepaid || row.prepaid.raw() <= 0 ||
        (row.trialEndsAt && at < *row.trialEndsAt))
        return std::optional<ResetCharges::Line>();
    auto bought = UsageCharges::purchase(price, row.prepaid, row.money.minorDigits());
    if (!bought)
        return std::optional(unpriced(row, at, row.prepaid, bought.error().message, true));
    return std::optional(
        ResetCharges::Line{row.scope, row.customerPk, at, row.balanceId,
                           UsageCharges::purchaseLine(usageRow(row, Decimal()), row.creditSystem,
                                                      row.prepaid, bought.value()),
                           true});
}

} // namespace

api::Result<QList<ResetCharges::Line>> ResetCharges::of(const Row &row,
                                                        const QList<ClockEvent> &events,
                                                        const ClockedBalance &before,
                                                        const ClockedBalance &after)
{
    QList<Line> lines;
    if (row.price.isNull() || row.unlimited)
        return lines; // most rows have no price: nothing is decoded for them
    // A reset is two events (usage back to zero, then the grant) at one
    // moment; the usage they give back is what the interval used.
    std::map<qint64, Decimal> used;
    for (const ClockEvent &event : events)
        if (event.kind == "reset"_L1)
            used[event.at] = used[event.at].runningSum(event.usage.negated());
    // Every reset passed renews what was bought; the clock steps over those
    // that change nothing without an event.
    if (before.resetsAt && after.resetsAt && row.prepaid.raw() > 0)
        for (qint64 at = *before.resetsAt; at < *after.resetsAt;
             at = BalanceClock::nextReset(before.interval, before.intervalCount, before.anchor, at))
            used.try_emplace(at);
    if (used.empty())
        return lines;
    auto price = priceOf(row);
    if (!price)
        return price.error();
    for (const auto &[at, usage] : used) {
        if (!usage.isZero()) {
            auto charge =
                UsageCharges::charge(price.value(), usage, row.grant, row.money.minorDigits());
            if (!charge)
                lines.append(unpriced(row, at, usage, charge.error().message, false));
            // Within the grant: nothing to bill.
            else if (!charge.value().pastGrant.isZero())
                lines.append({row.scope, row.customerPk, at, row.balanceId,
                              UsageCharges::line(usageRow(row, usage), charge.value())});
        }
        // The reset gives the prepaid grant back: bought again.
        auto renewed = purchaseOf(row, price.value(), at);
        if (!renewed)
            return renewed.error();
        if (renewed.value())
            lines.append(*renewed.value());
    }
    return lines;
}

api::Result<std::optional<ResetCharges::Line>> ResetCharges::purchase(const Row &row, qint64 at)
{
    if (row.price.isNull() || row.unlimited)
        return std::optional<Line>();
    auto price = priceOf(row);
    if (!price)
        return price.error();
    return purchaseOf(row, price.value(), at);
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
                  << line.at << line.balanceId << storedText(line.line) << int(line.advance);
            values.append(u"(?, ?, ?, ?, ?, ?, ?, ?)"_s);
        }
        if (auto added = execute(db,
                                 u"INSERT INTO charge_lines (pk, org_pk, env, customer_pk, at,"
                                 " balance_id, line, advance) VALUES "_s +
                                     values.join(u", "_s),
                                 binds);
            !added)
            return added.error();
    }
    return api::Done{};
}

api::Result<QList<ResetCharges::Line>> ResetCharges::read(const QSqlDatabase &db, Dialect dialect,
                                                          const QList<qint64> &customerPks,
                                                          qint64 fromMs, qint64 upToMs)
{
    QList<Line> lines;
    if (customerPks.isEmpty())
        return lines;
    QVariantList binds;
    const QString which = inKeys(dialect, u"customer_pk"_s, customerPks, binds);
    binds << fromMs << upToMs;
    auto rows =
        queryRows(db,
                  u"SELECT customer_pk, at, balance_id, line, advance FROM charge_lines"
                  " WHERE "_s +
                      which + u" AND at >= ? AND at <= ? ORDER BY customer_pk, at, advance, pk"_s,
                  binds);
    if (!rows)
        return rows.error();
    for (const QVariantList &row : std::as_const(rows.value())) {
        auto line = decodeStored<api::ChargeLine>(row.at(3), u"a charge line"_s);
        if (!line)
            return line.error();
        lines.append({Scope{}, row.at(0).toLongLong(), row.at(1).toLongLong(), row.at(2).toString(),
                      std::move(line).value(), row.at(4).toInt() != 0});
    }
    return lines;
}

} // namespace md::engine
