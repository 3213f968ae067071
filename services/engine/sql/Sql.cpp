#include "services/engine/sql/Sql.h"

#include "services/engine/sql/PostgresArray.h"
#include "services/engine/sql/SqliteStatement.h"
#include "services/engine/sql/StatementLog.h"

#include <QMutex>
#include <QSet>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlRecord>

#include <memory>

#include <atomic>

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

struct LostConnections
{
    QMutex mutex;
    QSet<QString> names;
};

LostConnections &lostConnections()
{
    static LostConnections lost;
    return lost;
}

} // namespace

bool connectionLost(const QSqlQuery &query)
{
    // Only a server's session can be lost (and Qt's SQLite driver files
    // ordinary statement errors as ConnectionError).
    if (!query.driver() || query.driver()->dbmsType() != QSqlDriver::PostgreSQL)
        return false;
    const QSqlError error = query.lastError();
    if (error.type() == QSqlError::ConnectionError)
        return true;
    // SQLSTATE classes 08 (connection exception) and 57P (operator
    // intervention: shutdown, restart); 26000 is a prepared statement the
    // server no longer has, as after libpq opened a new session underneath.
    const QString code = error.nativeErrorCode();
    if (code.startsWith("08"_L1) || code.startsWith("57P"_L1) || code == "26000"_L1)
        return true;
    const QString text = error.databaseText();
    return text.contains("server closed the connection"_L1) ||
           text.contains("no connection to the server"_L1) ||
           text.contains("terminating connection"_L1);
}

bool takeLostConnection(const QString &connectionName)
{
    LostConnections &lost = lostConnections();
    const QMutexLocker lock(&lost.mutex);
    return lost.names.remove(connectionName);
}

std::atomic<quint64> &databaseErrors()
{
    static std::atomic<quint64> count{0};
    return count;
}

quint64 databaseErrorCount()
{
    return databaseErrors().load(std::memory_order_relaxed);
}

api::ApiError sqlError(const QSqlQuery &query)
{
    databaseErrors().fetch_add(1, std::memory_order_relaxed);
    const QSqlError error = query.lastError();
    if (connectionLost(query)) {
        if (const QSqlDriver *driver = query.driver()) {
            LostConnections &lost = lostConnections();
            const QMutexLocker lock(&lost.mutex);
            lost.names.insert(driver->property(ConnectionNameProperty).toString());
        }
        qWarning("database connection lost: %s", qPrintable(error.text()));
        return {503, api::ErrorCode::DatabaseUnavailable,
                u"the connection to the database was lost; it is opened again for the next "
                "request, so try again"_s};
    }
    return api::ApiError::internal(u"database error: %1"_s.arg(error.text()));
}

api::Result<QSqlQuery> runSql(const QSqlDatabase &db, const QString &sql, const QVariantList &binds)
{
    StatementLog::note(sql);
    QSqlQuery query(db);
    query.setForwardOnly(true);
    // PostgreSQL cannot prepare DDL; statements without values run directly.
    if (binds.isEmpty()) {
        if (!query.exec(sql))
            return sqlError(query);
        return query;
    }
    if (!query.prepare(sql))
        return sqlError(query);
    for (const QVariant &value : binds)
        query.addBindValue(value);
    if (!query.exec())
        return sqlError(query);
    return query;
}

namespace {

// Prepared statements by connection name, then by SQL. Only the connection's
// own thread uses its statements; the mutex guards the map itself.
struct StatementCache
{
    QMutex mutex;
    QHash<QString, QHash<QString, std::shared_ptr<QSqlQuery>>> byConnection;
};

StatementCache &statementCache()
{
    static StatementCache cache;
    return cache;
}

// One writer mutex per SQLite file, for the life of the process.
QMutex &sqliteWriter(const QString &file)
{
    static QMutex guard;
    static QHash<QString, std::shared_ptr<QMutex>> writers;
    const QMutexLocker lock(&guard);
    std::shared_ptr<QMutex> &writer = writers[file];
    if (!writer)
        writer = std::make_shared<QMutex>();
    return *writer;
}

} // namespace

void forgetPreparedStatements(const QString &connectionName)
{
    StatementCache &cache = statementCache();
    const QMutexLocker lock(&cache.mutex);
    cache.byConnection.remove(connectionName);
    forgetSqliteStatements(connectionName);
}

api::Result<QSqlQuery *> runPrepared(const QSqlDatabase &db, const QString &sql,
                                     const QVariantList &binds)
{
    StatementLog::note(sql);
    std::shared_ptr<QSqlQuery> query;
    {
        StatementCache &cache = statementCache();
        const QMutexLocker lock(&cache.mutex);
        query = cache.byConnection[db.connectionName()].value(sql);
    }
    if (!query) {
        query = std::make_shared<QSqlQuery>(db);
        query->setForwardOnly(true);
        if (!query->prepare(sql))
            return sqlError(*query);
        StatementCache &cache = statementCache();
        const QMutexLocker lock(&cache.mutex);
        cache.byConnection[db.connectionName()].insert(sql, query);
    }
    for (qsizetype i = 0; i < binds.size(); ++i)
        query->bindValue(int(i), binds.at(i));
    if (!query->exec())
        return sqlError(*query);
    return query.get();
}

namespace {

// On SQLite, through its own API (SqliteStatement): Qt's driver turns each
// positional bind into a named one with QString::arg, which measured as a
// tenth of a usage batch's CPU. Bound as Qt's driver binds them: a null
// QString is NULL there too.
api::Result<SqliteStatement *> runNative(const QSqlDatabase &db, const QString &sql,
                                         const QVariantList &binds)
{
    for (qsizetype i = 0; i < binds.size(); ++i)
        if (binds.at(i).typeId() == QMetaType::QString && binds.at(i).toString().isNull()) {
            QVariantList asQt = binds;
            for (QVariant &value : asQt)
                if (value.typeId() == QMetaType::QString && value.toString().isNull())
                    value = QVariant();
            return SqliteStatement::run(db, sql, asQt);
        }
    return SqliteStatement::run(db, sql, binds);
}

// Counted as Qt's errors are (/metrics).
api::ApiError nativeError(api::ApiError error)
{
    databaseErrors().fetch_add(1, std::memory_order_relaxed);
    return error;
}

} // namespace

api::Result<QList<QVariantList>> queryRows(const QSqlDatabase &db, const QString &sql,
                                           const QVariantList &binds)
{
    if (SqliteStatement::available(db)) {
        auto statement = runNative(db, sql, binds);
        if (!statement)
            return nativeError(statement.error());
        SqliteStatement &s = *statement.value();
        QList<QVariantList> rows;
        for (;;) {
            auto more = s.next();
            if (!more)
                return nativeError(more.error());
            if (!more.value())
                return rows;
            QVariantList row;
            const int columns = s.columns();
            row.reserve(columns);
            for (int c = 0; c < columns; ++c)
                row.append(s.value(c));
            rows.append(std::move(row));
        }
    }
    auto query = runPrepared(db, sql, binds);
    if (!query)
        return query.error();
    QSqlQuery &q = *query.value();
    QList<QVariantList> rows;
    const int columns = q.record().count();
    while (q.next()) {
        QVariantList row;
        row.reserve(columns);
        for (int c = 0; c < columns; ++c)
            row.append(q.value(c));
        rows.append(std::move(row));
    }
    q.finish();
    return rows;
}

api::Decimal decimalOf(const QVariant &stored)
{
    return api::Decimal::parse(stored.toString()).value_or(api::Decimal());
}

api::Result<api::Done> execute(const QSqlDatabase &db, const QString &sql,
                               const QVariantList &binds)
{
    if (SqliteStatement::available(db)) {
        auto statement = runNative(db, sql, binds);
        if (!statement)
            return nativeError(statement.error());
        for (;;) {
            auto more = statement.value()->next();
            if (!more)
                return nativeError(more.error());
            if (!more.value())
                return api::Done{};
        }
    }
    auto query = runPrepared(db, sql, binds);
    if (!query)
        return query.error();
    query.value()->finish();
    return api::Done{};
}

WriteTransaction::WriteTransaction(QSqlDatabase db, Dialect dialect)
    : m_db(std::move(db))
    , m_dialect(dialect)
{}

namespace {

// The transactions open on this thread's connections, by connection name.
struct Nesting
{
    int depth = 0;
    bool innerRolledBack = false;
};

Nesting &nestingOf(const QSqlDatabase &db)
{
    thread_local QHash<QString, Nesting> open;
    return open[db.connectionName()];
}

} // namespace

WriteTransaction::~WriteTransaction()
{
    if (m_open) {
        Nesting &nesting = nestingOf(m_db);
        if (m_nested) {
            --nesting.depth;
            nesting.innerRolledBack = true;
        } else {
            QSqlQuery(m_db).exec(u"ROLLBACK"_s);
            nesting = {};
        }
    }
    if (m_writer)
        m_writer->unlock();
}

api::Result<api::Done> WriteTransaction::begin()
{
    if (Nesting &nesting = nestingOf(m_db); nesting.depth > 0) {
        ++nesting.depth;
        m_nested = m_open = true;
        return api::Done{};
    }
    if (m_dialect == Dialect::Sqlite) {
        m_writer = &sqliteWriter(m_db.databaseName());
        m_writer->lock();
    }
    QSqlQuery query(m_db);
    const QString beginSql = m_dialect == Dialect::Sqlite ? u"BEGIN IMMEDIATE"_s : u"BEGIN"_s;
    bool begun = query.exec(beginSql);
    if (!begun && connectionLost(query)) {
        // Nothing has happened yet, so a session lost while idle is simply
        // opened again (a PostgreSQL restart costs no request its answer).
        takeLostConnection(m_db.connectionName());
        forgetPreparedStatements(m_db.connectionName());
        m_db.close();
        query = QSqlQuery(m_db);
        begun = m_db.open() && query.exec(beginSql);
    }
    if (!begun) {
        if (m_writer)
            std::exchange(m_writer, nullptr)->unlock();
        return sqlError(query);
    }
    m_open = true;
    nestingOf(m_db) = {1, false};
    return api::Done{};
}

api::Result<api::Done> WriteTransaction::commit()
{
    Nesting &nesting = nestingOf(m_db);
    if (m_nested) {
        --nesting.depth;
        m_open = false;
        return api::Done{};
    }
    if (nesting.innerRolledBack) {
        // A step inside chose not to keep its writes: neither does the whole.
        QSqlQuery(m_db).exec(u"ROLLBACK"_s);
        nesting = {};
        m_open = false;
        if (m_writer)
            std::exchange(m_writer, nullptr)->unlock();
        return api::ApiError::internal(
            u"a step of this write was rolled back, so none of it was kept"_s);
    }
    QSqlQuery query(m_db);
    if (!query.exec(u"COMMIT"_s))
        return sqlError(query);
    nesting = {};
    m_open = false;
    if (m_writer)
        std::exchange(m_writer, nullptr)->unlock();
    return api::Done{};
}

QString inKeys(Dialect dialect, const QString &column, const QList<qint64> &keys,
               QVariantList &binds)
{
    if (dialect == Dialect::Postgres) {
        binds.append(PostgresArray::of(keys));
        return column + u" = ANY(?::bigint[])"_s;
    }
    // One statement text whatever the count: prepared once, not per count.
    QString list = u"["_s;
    for (qint64 key : keys)
        list += QString::number(key) + u',';
    list.back() = u']';
    binds.append(list);
    return column + u" IN (SELECT value FROM json_each(?))"_s;
}

api::Result<api::Done> insertRows(const QSqlDatabase &db, const QString &table,
                                  const QStringList &columns, const QList<QVariantList> &rows)
{
    // About a thousand values per statement: Qt parses placeholders at prepare
    // in more than linear time, and fewer round trips matter for PostgreSQL.
    const qsizetype perStatement = std::max<qsizetype>(1, 1000 / columns.size());
    const QString rowMarks = u'(' + QStringList(columns.size(), u"?"_s).join(u',') + u')';
    const QString head = u"INSERT INTO %1 (%2) VALUES "_s.arg(table, columns.join(u','));
    QString fullSql;
    QSqlQuery query(db);
    for (qsizetype start = 0; start < rows.size(); start += perStatement) {
        const qsizetype n = std::min(perStatement, rows.size() - start);
        if (n != perStatement || fullSql.isEmpty()) {
            const QString sql = head + QStringList(n, rowMarks).join(u',');
            if (n == perStatement)
                fullSql = sql;
            if (!query.prepare(sql))
                return sqlError(query);
        }
        int position = 0;
        for (qsizetype r = start; r < start + n; ++r) {
            for (const QVariant &value : rows.at(r)) {
                // Only an invalid QVariant is SQL NULL; a null QString is text "".
                const bool nullText =
                    value.typeId() == QMetaType::QString && value.toString().isNull();
                query.bindValue(position++, nullText ? QVariant(u""_s) : value);
            }
        }
        if (!query.exec())
            return sqlError(query);
    }
    return api::Done{};
}

} // namespace md::engine
