// Cursor-paged lists of the Meterdesk extensions: a page is read with
// LIMIT limit+1 in a fixed key order, and its cursor is the sort keys of the
// last row sent, sealed for the list (its tag) and the scope (CursorSeal).
#pragma once

#include "services/api/Page.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>
#include <QSqlQuery>

namespace md::engine {

api::Result<QString> encodeCursor(const QSqlDatabase &db, const Scope &scope, const char *tag,
                                  const QList<qint64> &keys);
// The keys of a cursor this server issued for `tag` and `scope`; nullopt
// for the first page (an empty cursor); 400 invalid_cursor for anything else.
api::Result<std::optional<QList<qint64>>> decodeCursor(const QSqlDatabase &db, const Scope &scope,
                                                       const char *tag, const QString &text,
                                                       qsizetype keyCount);

// Reads rows of a paged query fetched with LIMIT limit+1; its first
// `keyCount` columns are the sort keys the cursor carries.
template <typename T, typename F>
api::Result<api::Page<T>> page(const QSqlDatabase &db, const Scope &scope, QSqlQuery &query,
                               qint64 limit, const char *tag, qsizetype keyCount, F &&row)
{
    api::Page<T> result;
    QList<qint64> lastKeys;
    while (query.next()) {
        if (result.list.size() == limit) {
            auto cursor = encodeCursor(db, scope, tag, lastKeys);
            if (!cursor)
                return cursor.error();
            result.hasMore = true;
            result.nextCursor = std::move(cursor).value();
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
