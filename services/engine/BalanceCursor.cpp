#include "services/engine/BalanceCursor.h"

#include <QByteArray>
#include <QList>

namespace md::engine {

namespace {
constexpr auto Encoding = QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals;
}

QString BalanceCursor::encode() const
{
    const QByteArray position =
        "b1:" + QByteArray::number(customerPk) + ':' + QByteArray::number(balancePk);
    return QString::fromLatin1(position.toBase64(Encoding));
}

std::optional<BalanceCursor> BalanceCursor::decode(const QString &text)
{
    const auto decoded = QByteArray::fromBase64Encoding(
        text.toLatin1(), Encoding | QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded || text.size() > 64)
        return std::nullopt;
    const QList<QByteArray> parts = decoded.decoded.split(':');
    if (parts.size() != 3 || parts.at(0) != "b1")
        return std::nullopt;
    bool customerOk = false;
    bool balanceOk = false;
    BalanceCursor cursor{parts.at(1).toLongLong(&customerOk), parts.at(2).toLongLong(&balanceOk)};
    if (!customerOk || !balanceOk)
        return std::nullopt;
    return cursor;
}

} // namespace md::engine
