#include "services/engine/balances/BalanceCursor.h"

namespace md::engine {

api::Result<CursorSeal> BalanceCursor::seal(const QSqlDatabase &db, const Scope &scope)
{
    return CursorSeal::of(db, scope, "b1");
}

QString BalanceCursor::encode(const CursorSeal &seal) const
{
    return seal.seal({customerPk, balancePk});
}

std::optional<BalanceCursor> BalanceCursor::decode(const CursorSeal &seal, const QString &text)
{
    const auto keys = seal.open(text, 2);
    if (!keys)
        return std::nullopt;
    return BalanceCursor{keys->at(0), keys->at(1)};
}

} // namespace md::engine
