// The opaque balances.list cursor: base64url of the keyset position
// (customer key, balance key) of the last row a page consumed.
#pragma once

#include <QString>

#include <optional>

namespace md::engine {

struct BalanceCursor
{
    qint64 customerPk = 0;
    qint64 balancePk = 0;

    QString encode() const;
    static std::optional<BalanceCursor> decode(const QString &text);
};

} // namespace md::engine
