// Cursor-paged lists of the Meterdesk extensions: a page is read with
// LIMIT limit+1 in a fixed key order, and its cursor is the sort keys of the
// last row sent, tagged and base64url-encoded (opaque to clients).
#pragma once

#include "services/api/Extensions.h"

#include <QSqlQuery>

namespace md::engine {

QString encodeCursor(const char *tag, const QList<qint64> &keys);
// The keys of a cursor this server issued with `tag`; nullopt for the first
// page (an empty cursor); 400 invalid_cursor for anything else.
api::Result<std::optional<QList<qint64>>> decodeCursor(const char *tag, const QString &text,
                                                       qsizetype keyCount);

// Reads rows of a paged query fetched with LIMIT limit+1; its first
// `keyCount` columns are the sort keys the cursor carries.
template <typename T, typename F>
api::Result<api::Page<T>> page(QSqlQuery &query, qint64 limit, const char *tag, qsizetype keyCount,
                               F &&row)
{
    api::Page<T> result;
    QList<qint64> lastKeys;
    while (query.next()) {
        if (result.list.size() == limit) {
            result.hasMore = true;
            result.nextCursor = encodeCursor(tag, lastKeys);
            break;
        }
        lastKeys.clear();
        for (int k = 0; k < keyCount; ++k)
            lastKeys.append(query.value(k).toLongLong());
        result.list.append(row(query));
    }
    return result;
}

} // namespace md::engine
