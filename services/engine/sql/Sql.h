// Small helpers over Qt SQL: statements that report ApiErrors, write
// transactions that roll back unless committed, and primary-key allocation.
#pragma once

#include "services/api/Decimal.h"
#include "services/api/Result.h"
#include "services/engine/sql/Dialect.h"

#include <QSqlDatabase>

#include <QMutex>
#include <QSqlQuery>
#include <QVariantList>

#include <optional>

namespace md::engine {

// Prepares and runs `sql` with positional `?` bindings.
api::Result<QSqlQuery> runSql(const QSqlDatabase &db, const QString &sql,
                              const QVariantList &binds = {});
api::ApiError sqlError(const QSqlQuery &query);
// How many statements failed in this process (sqlError), for /metrics.
quint64 databaseErrorCount();

// Whether a statement failed because the session itself is gone (the database
// server restarted, or ended the session). sqlError() notes such a connection
// so that Database::connection() reopens it for its thread's next request.
bool connectionLost(const QSqlQuery &query);
// The driver property naming a connection (set by Database), so that an error
// can say which connection it came from.
inline constexpr char ConnectionNameProperty[] = "md.connection";
// True once for a connection sqlError() saw lost, then forgotten.
bool takeLostConnection(const QString &connectionName);

// Like runSql, for a statement run again and again: prepared once per
// connection and kept until the connection goes. The query is valid until the
// same statement runs again; the caller reads it and then calls finish(), so
// SQLite does not hold a read snapshot open between calls.
api::Result<QSqlQuery *> runPrepared(const QSqlDatabase &db, const QString &sql,
                                     const QVariantList &binds);
// The rows of a prepared SELECT, copied out (for small results on hot paths).
api::Result<QList<QVariantList>> queryRows(const QSqlDatabase &db, const QString &sql,
                                           const QVariantList &binds);
// An amount as stored (decimal text); 0 for a NULL or a value that is none.
api::Decimal decimalOf(const QVariant &stored);
// A prepared statement that returns no rows (INSERT, UPDATE, DELETE).
api::Result<api::Done> execute(const QSqlDatabase &db, const QString &sql,
                               const QVariantList &binds);
// Drops a connection's prepared statements; before the connection is removed.
void forgetPreparedStatements(const QString &connectionName);

// A write transaction. SQLite takes the write lock at BEGIN (IMMEDIATE) so two
// writers never deadlock upgrading read locks, and writers of this process
// queue on a mutex first rather than in SQLite's sleeping busy handler (which
// waits whole milliseconds). The destructor rolls back. One begun while
// another is open on the same connection (an audited write wrapping an
// updater, ApiOperations) joins it: the outer one commits both; an inner one
// that ends without commit() makes the outer commit() roll back instead.
class WriteTransaction final
{
public:
    WriteTransaction(QSqlDatabase db, Dialect dialect);
    ~WriteTransaction();
    Q_DISABLE_COPY_MOVE(WriteTransaction)

    api::Result<api::Done> begin();
    api::Result<api::Done> commit();

private:
    QSqlDatabase m_db;
    Dialect m_dialect;
    bool m_open = false;
    bool m_nested = false;
    QMutex *m_writer = nullptr; // SQLite: held from begin() until commit or rollback
};

// INSERT of many rows in few statements; `rows` each hold one value per column.
api::Result<api::Done> insertRows(const QSqlDatabase &db, const QString &table,
                                  const QStringList &columns, const QList<QVariantList> &rows);

// `column IN (…)` of some (at least one) keys, their bind appended: an
// array on PostgreSQL, a JSON array on SQLite, so the statement's text is
// the same whatever their number.
QString inKeys(Dialect dialect, const QString &column, const QList<qint64> &keys,
               QVariantList &binds);

// A column that may be NULL, as an optional.
inline std::optional<QString> optionalText(const QVariant &column)
{
    return column.isNull() ? std::nullopt : std::optional(column.toString());
}

inline std::optional<qint64> optionalInteger(const QVariant &column)
{
    return column.isNull() ? std::nullopt : std::optional(column.toLongLong());
}

// And back: an optional bound as a value or NULL.
inline QVariant nullable(const std::optional<qint64> &value)
{
    return value ? QVariant(*value) : QVariant();
}

// Runs `read` on one snapshot (PostgreSQL: repeatable read), writing nothing.
template <typename F>
auto onOneSnapshot(const QSqlDatabase &db, Dialect dialect, F &&read) -> decltype(read())
{
    QSqlDatabase connection = db;
    if (!connection.transaction())
        return api::ApiError::internal(QStringLiteral("starting a read transaction failed"));
    if (dialect == Dialect::Postgres)
        if (auto set =
                runSql(db, QStringLiteral("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"));
            !set) {
            connection.rollback();
            return set.error();
        }
    auto result = read();
    connection.rollback();
    return result;
}

} // namespace md::engine
