#include "services/engine/KeysetPage.h"

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

constexpr auto CursorEncoding = QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals;

} // namespace

// An opaque position: a tag and the sort keys of the last row sent.
QString encodeCursor(const char *tag, const QList<qint64> &keys)
{
    QByteArray position(tag);
    for (const qint64 key : keys)
        position += ':' + QByteArray::number(key);
    return QString::fromLatin1(position.toBase64(CursorEncoding));
}

api::Result<std::optional<QList<qint64>>> decodeCursor(const char *tag, const QString &text,
                                                       qsizetype keyCount)
{
    if (text.isEmpty())
        return std::optional<QList<qint64>>();
    const auto decoded = QByteArray::fromBase64Encoding(
        text.toLatin1(), CursorEncoding | QByteArray::AbortOnBase64DecodingErrors);
    const QList<QByteArray> parts = decoded.decoded.split(':');
    QList<qint64> keys;
    bool ok = decoded && parts.size() == keyCount + 1 && parts.at(0) == tag;
    for (qsizetype i = 1; ok && i < parts.size(); ++i)
        keys.append(parts.at(i).toLongLong(&ok));
    if (!ok)
        return api::ApiError::invalidCursor(
            u"start_cursor is not a cursor this server issued; pass the next_cursor of a previous page or an empty string"_s);
    return std::optional<QList<qint64>>(keys);
}

} // namespace md::engine
