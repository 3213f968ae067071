#include "services/engine/ids/KeysetPage.h"

#include "services/engine/ids/CursorSeal.h"

namespace md::engine {

using namespace Qt::StringLiterals;

api::Result<QString> encodeCursor(const QSqlDatabase &db, const Scope &scope, const char *tag,
                                  const QList<qint64> &keys)
{
    auto seal = CursorSeal::of(db, scope, tag);
    if (!seal)
        return seal.error();
    return seal.value().seal(keys);
}

api::Result<std::optional<QList<qint64>>> decodeCursor(const QSqlDatabase &db, const Scope &scope,
                                                       const char *tag, const QString &text,
                                                       qsizetype keyCount)
{
    if (text.isEmpty())
        return std::optional<QList<qint64>>();
    auto seal = CursorSeal::of(db, scope, tag);
    if (!seal)
        return seal.error();
    auto keys = seal.value().open(text, keyCount);
    if (!keys)
        return api::ApiError::invalidCursor(
            u"start_cursor is not a cursor this server issued; pass the next_cursor of a previous page or an empty string"_s);
    return keys;
}

} // namespace md::engine
