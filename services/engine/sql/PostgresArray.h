// A PostgreSQL array literal ({"a","b",NULL}) for binding a whole column as
// one parameter (`?::text[]`, `?::bigint[]`): with `unnest`, many rows are
// written or locked in one statement and one round trip (docs/performance.md).
#pragma once

#include <QString>
#include <QStringList>
#include <QVariantList>

namespace md::engine {

class PostgresArray final
{
public:
    static QString of(const QStringList &values);
    static QString of(const QList<qint64> &values);
    // An invalid QVariant becomes NULL; anything else its text.
    static QString of(const QVariantList &values);
};

} // namespace md::engine
