// The opaque balances.list cursor: the keyset position (sort key, balance
// key) of the last row a page consumed, sealed for balances.list, its order
// and the scope (CursorSeal), so a cursor of one order is no cursor of
// another. The sort key is the customer's key in the customer order, else
// the bits of the double the rows sort by.
#pragma once

#include "services/api/ListBalances.h"
#include "services/engine/ids/CursorSeal.h"

#include <QSqlDatabase>

#include <bit>
#include <optional>

namespace md::engine {

struct BalanceCursor
{
    qint64 key = 0;
    qint64 balancePk = 0;
    // Set by balances.pages on PostgreSQL (BalanceCustomerRows): the
    // position after this many of customer `key`'s rows in the listing's
    // order, balancePk unknown; balances.list finds that row when it starts
    // there (one index probe) instead of pages finding one per page.
    qint64 rowsOfCustomer = 0;

    static BalanceCursor ofValue(double sortValue, qint64 balancePk)
    {
        return {std::bit_cast<qint64>(sortValue), balancePk};
    }
    double value() const { return std::bit_cast<double>(key); }

    // The seal of balances.list's cursors in `scope`, for `request`'s order.
    static api::Result<CursorSeal> seal(const QSqlDatabase &db, const Scope &scope,
                                        const api::ListBalancesRequest &request);
    QString encode(const CursorSeal &seal) const;
    static std::optional<BalanceCursor> decode(const CursorSeal &seal, const QString &text);
};

} // namespace md::engine
