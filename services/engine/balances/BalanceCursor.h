// The opaque balances.list cursor: the keyset position (customer key,
// balance key) of the last row a page consumed, sealed for balances.list and
// the scope (CursorSeal).
#pragma once

#include "services/engine/ids/CursorSeal.h"

#include <QSqlDatabase>

#include <optional>

namespace md::engine {

struct BalanceCursor
{
    qint64 customerPk = 0;
    qint64 balancePk = 0;

    // The seal of balances.list's cursors in `scope`.
    static api::Result<CursorSeal> seal(const QSqlDatabase &db, const Scope &scope);
    QString encode(const CursorSeal &seal) const;
    static std::optional<BalanceCursor> decode(const CursorSeal &seal, const QString &text);
};

} // namespace md::engine
