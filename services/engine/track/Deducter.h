// Where a track_tokens value comes off a customer's balance rows, in the
// documented order (docs/api.md, balances.track_tokens; docs/api.md): rollovers first, soonest
// expiry first, then the rows in their deduction order. Pure arithmetic on
// rows already read: no database, so every rule is testable on its own.
#pragma once

#include "services/api/Balance.h"

#include <QHash>
#include <QStringList>

namespace md::engine {

class Deducter final
{
public:
    // The customer's active rows of the feature, in deduction order: rows
    // that reset before those that do not, shorter interval first, sooner
    // expiry first, plan rows before standalone ones, oldest first.
    static void order(QList<api::BalanceRow> &rows);

    struct Outcome
    {
        QHash<QString, api::Decimal> taken; // by balance id
        QStringList touched;                // balance ids in the order first drawn on
        api::Decimal left;                  // what no row took
    };
    // Takes `amount` from `rows` (changing their remaining, usage and
    // rollovers). Capped: only what the rows hold. Overflowing: the rest
    // goes onto the first row, which goes negative.
    static Outcome take(QList<api::BalanceRow> &rows, api::Decimal amount, bool overflow,
                        qint64 nowMs);
    // Gives `amount` of usage back (balances.track with a negative value),
    // undoing take() from its end: first what overflowed below zero, then
    // the rows in the reverse of their deduction order, each taking back at
    // most its usage, so no row ends above what it was granted. Rollovers
    // are not refilled: usage counts only what the rows' own grants gave.
    // `taken` is negative; `left` is what no row had used.
    static Outcome giveBack(QList<api::BalanceRow> &rows, api::Decimal amount);
};

} // namespace md::engine
