#include "services/engine/sql/KeyAllocator.h"

#include "services/engine/sql/Sql.h"

namespace md::engine {

using namespace Qt::StringLiterals;

KeyAllocator::KeyAllocator(QSqlDatabase db, Dialect dialect)
    : m_db(std::move(db))
    , m_dialect(dialect)
{}

api::Result<api::Done> KeyAllocator::reserve(const QString &table, qsizetype count)
{
    QList<qint64> &block = m_pending[table];
    if (m_dialect != Dialect::Postgres || block.size() >= count)
        return api::Done{};
    // Handed out from the back: the next key to give is last.
    const bool descending = table == "balances"_L1;
    auto query =
        runPrepared(m_db,
                    u"SELECT nextval('%1_pk_seq') FROM generate_series(1, ?) ORDER BY 1 %2"_s.arg(
                        table, descending ? u"ASC"_s : u"DESC"_s),
                    {count - block.size()});
    if (!query)
        return query.error();
    QList<qint64> fetched;
    while (query.value()->next())
        fetched.append(query.value()->value(0).toLongLong());
    query.value()->finish();
    block = fetched + block;
    return api::Done{};
}

api::Result<qint64> KeyAllocator::next(const QString &table)
{
    const bool descending = table == "balances"_L1;
    if (m_dialect == Dialect::Postgres) {
        QList<qint64> &block = m_pending[table];
        if (block.isEmpty())
            if (auto reserved = reserve(table, 512); !reserved)
                return reserved.error();
        return block.takeLast();
    }
    auto last = m_last.find(table);
    if (last == m_last.end()) {
        // Webhook endpoints and deliveries are deleted while their ids are
        // out: their highest key ever is in sqlite_sequence (AUTOINCREMENT,
        // migration 14), so a deleted row's key is never given again.
        const bool keepsHighest =
            table == "webhook_endpoints"_L1 || table == "webhook_deliveries"_L1;
        auto rows = queryRows(
            m_db,
            descending     ? u"SELECT COALESCE(MIN(pk), 0) FROM %1"_s.arg(table)
            : keepsHighest ? u"SELECT MAX(COALESCE((SELECT MAX(pk) FROM %1), 0), COALESCE((SELECT"
                             " seq FROM sqlite_sequence WHERE name = '%1'), 0))"_s.arg(table)
                           : u"SELECT COALESCE(MAX(pk), 0) FROM %1"_s.arg(table),
            {});
        if (!rows)
            return rows.error();
        last = m_last.insert(table, rows.value().first().first().toLongLong());
    }
    *last += descending ? -1 : 1;
    return *last;
}

} // namespace md::engine
