#pragma once

#include "services/api/Result.h"
#include "services/engine/sql/Dialect.h"

#include <QHash>
#include <QList>
#include <QSqlDatabase>

namespace md::engine {

// Primary keys for new rows, handed out inside one write transaction.
// Balances count downwards (newest first in key order), other tables upwards.
// SQLite: the writer holds the lock, so the table's extreme key is read once
// (for webhook endpoints and deliveries, whose deleted keys must not come
// back, the highest they ever held); PostgreSQL: blocks of sequence values,
// safe beside other writers, never given twice.
class KeyAllocator final
{
public:
    KeyAllocator(QSqlDatabase db, Dialect dialect);
    api::Result<qint64> next(const QString &table);
    // PostgreSQL: at least `count` keys of the table fetched in one round
    // trip (next() fetches blocks of 512 by itself).
    api::Result<api::Done> reserve(const QString &table, qsizetype count);

private:
    QSqlDatabase m_db;
    Dialect m_dialect;
    QHash<QString, QList<qint64>> m_pending; // PostgreSQL blocks, consumed from the back
    QHash<QString, qint64> m_last;           // SQLite: last key handed out
};

} // namespace md::engine
