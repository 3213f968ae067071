#include "services/engine/track/Deducter.h"

#include <algorithm>
#include <limits>

namespace md::engine {

using api::Decimal;

namespace {

// Shorter reset intervals first.
int intervalRank(const std::optional<api::Reset> &reset)
{
    return reset ? int(reset->interval) : 1000;
}

} // namespace

void Deducter::order(QList<api::BalanceRow> &rows)
{
    std::stable_sort(
        rows.begin(), rows.end(), [](const api::BalanceRow &a, const api::BalanceRow &b) {
            if (a.reset.has_value() != b.reset.has_value())
                return a.reset.has_value();
            if (intervalRank(a.reset) != intervalRank(b.reset))
                return intervalRank(a.reset) < intervalRank(b.reset);
            const qint64 aExpires = a.expiresAt.value_or(std::numeric_limits<qint64>::max());
            const qint64 bExpires = b.expiresAt.value_or(std::numeric_limits<qint64>::max());
            if (aExpires != bExpires)
                return aExpires < bExpires;
            if (a.planId.has_value() != b.planId.has_value())
                return a.planId.has_value();
            return a.createdAt < b.createdAt;
        });
}

Deducter::Outcome Deducter::take(QList<api::BalanceRow> &rows, Decimal amount, bool overflow,
                                 qint64 nowMs)
{
    Outcome outcome;
    outcome.left = amount;
    const auto note = [&](const api::BalanceRow &row, Decimal part) {
        if (!outcome.taken.contains(row.id))
            outcome.touched.append(row.id);
        outcome.taken[row.id] = outcome.taken.value(row.id).plus(part).value_or(part);
        outcome.left = *outcome.left.minus(part);
    };
    // Rollovers first, soonest expiry first, across the rows.
    struct RolloverRef
    {
        qsizetype row;
        qsizetype index;
    };
    QList<RolloverRef> rollovers;
    for (qsizetype r = 0; r < rows.size(); ++r)
        for (qsizetype i = 0; i < rows.at(r).rollovers.size(); ++i)
            if (rows.at(r).rollovers.at(i).expiresAt > nowMs)
                rollovers.append({r, i});
    std::stable_sort(rollovers.begin(), rollovers.end(),
                     [&](const RolloverRef &a, const RolloverRef &b) {
                         return rows.at(a.row).rollovers.at(a.index).expiresAt <
                                rows.at(b.row).rollovers.at(b.index).expiresAt;
                     });
    for (const RolloverRef &ref : std::as_const(rollovers)) {
        if (!(Decimal() < outcome.left))
            break;
        api::Rollover &rollover = rows[ref.row].rollovers[ref.index];
        const Decimal part = std::min(outcome.left, std::max(Decimal(), rollover.balance));
        if (part.isZero())
            continue;
        rollover.balance = *rollover.balance.minus(part);
        note(rows.at(ref.row), part);
    }
    for (api::BalanceRow &row : rows) {
        if (!(Decimal() < outcome.left))
            break;
        const Decimal part = row.unlimited
                                 ? outcome.left
                                 : std::min(outcome.left, std::max(Decimal(), row.remaining));
        if (part.isZero())
            continue;
        if (!row.unlimited)
            row.remaining = *row.remaining.minus(part);
        row.usage = *row.usage.plus(part);
        note(row, part);
    }
    if (Decimal() < outcome.left && overflow && !rows.isEmpty()) {
        api::BalanceRow &first = rows.first(); // the balance goes negative
        first.remaining = *first.remaining.minus(outcome.left);
        first.usage = *first.usage.plus(outcome.left);
        note(first, outcome.left);
    }
    return outcome;
}

Deducter::Outcome Deducter::giveBack(QList<api::BalanceRow> &rows, Decimal amount)
{
    Outcome outcome;
    outcome.left = amount;
    const auto back = [&](api::BalanceRow &row, Decimal most) {
        const Decimal part = std::min(outcome.left, std::max(Decimal(), most));
        if (part.isZero())
            return;
        if (!row.unlimited)
            row.remaining = *row.remaining.plus(part);
        row.usage = *row.usage.minus(part);
        if (!outcome.taken.contains(row.id))
            outcome.touched.append(row.id);
        outcome.taken[row.id] = outcome.taken.value(row.id).minus(part).value_or(part.negated());
        outcome.left = *outcome.left.minus(part);
    };
    // What overflowed went last (onto the first row, below zero): it comes
    // back first, then the rows in the reverse of their order.
    for (api::BalanceRow &row : rows)
        if (!row.unlimited && row.remaining.isNegative())
            back(row, std::min(row.remaining.negated(), row.usage));
    for (auto row = rows.rbegin(); row != rows.rend() && Decimal() < outcome.left; ++row)
        back(*row, row->usage);
    return outcome;
}

} // namespace md::engine
