#include "services/engine/balances/BalanceCursor.h"

namespace md::engine {

api::Result<CursorSeal> BalanceCursor::seal(const QSqlDatabase &db, const Scope &scope,
                                            const api::ListBalancesRequest &request)
{
    // "b1" is the customer order's, as before orders: its cursors stay good.
    if (request.orderBy == api::BalanceOrder::Customer && !request.descending)
        return CursorSeal::of(db, scope, "b1");
    const QLatin1StringView order = toWire(request.orderBy);
    QByteArray tag = "b2:";
    tag.append(order.data(), order.size()).append(request.descending ? ":desc" : ":asc");
    return CursorSeal::of(db, scope, tag);
}

// A cursor into a customer's rows holds three keys, the third 1 (its
// length tells it from a keyset cursor's two).
QString BalanceCursor::encode(const CursorSeal &seal) const
{
    return rowsOfCustomer > 0 ? seal.seal({key, rowsOfCustomer, 1}) : seal.seal({key, balancePk});
}

std::optional<BalanceCursor> BalanceCursor::decode(const CursorSeal &seal, const QString &text)
{
    if (const auto keys = seal.open(text, 2))
        return BalanceCursor{keys->at(0), keys->at(1)};
    const auto keys = seal.open(text, 3);
    if (!keys || keys->at(1) <= 0 || keys->at(2) != 1)
        return std::nullopt;
    return BalanceCursor{keys->at(0), 0, keys->at(1)};
}

} // namespace md::engine
