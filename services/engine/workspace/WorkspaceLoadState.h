// What loading a workspace file keeps while it runs (WorkspaceLoader): rows
// batched for insertion in foreign-key order, the key allocator, the ids seen
// so far (unique per environment or per database) and the summary. The
// loader and CustomerLoader share one.
#pragma once

#include "services/api/JsonReader.h"
#include "services/engine/charges/Money.h"
#include "services/engine/ledger/RevenueMonths.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/KeyAllocator.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/workspace/LoadSummary.h"

#include <QHash>
#include <QSet>

namespace md::engine {

// Stops a loop at the first problem, carrying the reader's error out.
#define MD_CHECK(reader)                                                                           \
    if (!(reader).ok())                                                                            \
        return *(reader).error();

QVariant orNull(const std::optional<QString> &value);
QVariant orNull(const std::optional<qint64> &value);
// The id the reader holds; an empty one fails the reader.
QString nonEmptyId(const api::JsonReader &reader);

// Rows waiting to be inserted, flushed in foreign-key order.
class Batches final
{
public:
    static constexpr qsizetype FlushAt = 20000;

    explicit Batches(QSqlDatabase db)
        : m_db(std::move(db))
    {}

    void declare(const QString &table, const QStringList &columns)
    {
        m_order.append(table);
        m_columns.insert(table, columns);
    }
    api::Result<api::Done> add(const QString &table, QVariantList row)
    {
        m_rows[table].append(std::move(row));
        if (++m_pending >= FlushAt)
            return flush();
        return api::Done{};
    }
    api::Result<api::Done> flush()
    {
        for (const QString &table : std::as_const(m_order)) {
            QList<QVariantList> &rows = m_rows[table];
            if (rows.isEmpty())
                continue;
            if (auto inserted = insertRows(m_db, table, m_columns.value(table), rows); !inserted)
                return inserted.error();
            rows.clear();
        }
        m_pending = 0;
        return api::Done{};
    }

private:
    QSqlDatabase m_db;
    QStringList m_order;
    QHash<QString, QStringList> m_columns;
    QHash<QString, QList<QVariantList>> m_rows;
    qsizetype m_pending = 0;
};

struct LoadState
{
    LoadState(const QSqlDatabase &database, Dialect dialect);

    api::Result<qint64> key(const QString &table) { return keys.next(table); }
    api::Result<api::Done> add(const QString &table, QVariantList row)
    {
        return batches.add(table, std::move(row));
    }

    QSqlDatabase db;
    KeyAllocator keys;
    Batches batches;
    LoadSummary summary;
    // Per environment (ids are unique within one organization's environment).
    QHash<QString, qint64> features;
    QHash<QString, qint64> products; // "id@version" and the bare id of the newest version
    QSet<QString> customerIds;
    QSet<QString> idempotencyKeys;
    QHash<QString, qint64> latestVersion; // product id: its newest version
    // Product id: its lowest version and that version's key, the plan's key
    // on its customer products (migration 15).
    QHash<QString, std::pair<qint64, qint64>> planKeys;
    QSet<QString> rewardIds;
    QSet<QString> promoCodes;
    // Unique across the whole database.
    QSet<QString> customerProductIds;
    QSet<QString> balanceIds;
    // Customer products loaded expired: their balances' ledger ends in an expiry.
    QSet<qint64> expiredProducts;
    // What the loaded statements add to revenue_months, written once they are in.
    RevenueMonths revenue;
    Money money; // the currency of the organization being loaded
    qint64 now;  // when the load began: the time of the opening ledger entries
};

} // namespace md::engine
