#include "services/engine/sql/SqliteStatement.h"

#include "services/engine/sql/StatementLog.h"

#include <QHash>
#include <QMutex>
#include <QSqlDriver>

#include <sqlite3.h>

#include <memory>

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

sqlite3 *handleOf(const QSqlDatabase &db)
{
    const QVariant handle = db.driver() ? db.driver()->handle() : QVariant();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0)
        return nullptr;
    return *static_cast<sqlite3 *const *>(handle.constData());
}

api::ApiError failure(sqlite3 *handle, const QString &what)
{
    return api::ApiError::internal(
        u"%1: %2"_s.arg(what, QString::fromUtf8(handle ? sqlite3_errmsg(handle) : "no handle")));
}

// Statements by connection name, then by SQL; only the connection's own
// thread uses them, the mutex guards the map.
struct Statements
{
    QMutex mutex;
    QHash<QString, QHash<QString, std::shared_ptr<SqliteStatement>>> byConnection;
};

Statements &statements()
{
    static Statements cache;
    return cache;
}

} // namespace

bool SqliteStatement::available(const QSqlDatabase &db)
{
    return handleOf(db) != nullptr;
}

api::Result<SqliteStatement *> SqliteStatement::run(const QSqlDatabase &db, const QString &sql,
                                                    const QVariantList &binds)
{
    StatementLog::note(sql);
    sqlite3 *handle = handleOf(db);
    if (!handle)
        return api::ApiError::internal(u"not a SQLite connection"_s);
    std::shared_ptr<SqliteStatement> statement;
    {
        Statements &cache = statements();
        const QMutexLocker lock(&cache.mutex);
        statement = cache.byConnection[db.connectionName()].value(sql);
    }
    if (!statement) {
        sqlite3_stmt *prepared = nullptr;
        const QByteArray text = sql.toUtf8();
        if (sqlite3_prepare_v3(handle, text.constData(), int(text.size()),
                               SQLITE_PREPARE_PERSISTENT, &prepared, nullptr) != SQLITE_OK)
            return failure(handle, u"preparing a statement"_s);
        statement = std::make_shared<SqliteStatement>(prepared);
        Statements &cache = statements();
        const QMutexLocker lock(&cache.mutex);
        cache.byConnection[db.connectionName()].insert(sql, statement);
    }
    sqlite3_stmt *s = statement->m_statement;
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    for (int i = 0; i < binds.size(); ++i) {
        const QVariant &value = binds.at(i);
        int bound = SQLITE_OK;
        if (!value.isValid())
            bound = sqlite3_bind_null(s, i + 1);
        else if (value.typeId() == QMetaType::QString) {
            const QByteArray utf8 = value.toString().toUtf8();
            bound =
                sqlite3_bind_text(s, i + 1, utf8.constData(), int(utf8.size()), SQLITE_TRANSIENT);
        } else if (value.typeId() == QMetaType::Double)
            bound = sqlite3_bind_double(s, i + 1, value.toDouble());
        else if (value.typeId() == QMetaType::QByteArray) {
            const QByteArray blob = value.toByteArray();
            bound =
                sqlite3_bind_blob(s, i + 1, blob.constData(), int(blob.size()), SQLITE_TRANSIENT);
        } else
            bound = sqlite3_bind_int64(s, i + 1, value.toLongLong());
        if (bound != SQLITE_OK)
            return failure(handle, u"binding a value"_s);
    }
    return statement.get();
}

SqliteStatement::SqliteStatement(sqlite3_stmt *statement)
    : m_statement(statement)
{}

SqliteStatement::~SqliteStatement()
{
    sqlite3_finalize(m_statement);
}

api::Result<bool> SqliteStatement::next()
{
    switch (sqlite3_step(m_statement)) {
    case SQLITE_ROW:
        return true;
    case SQLITE_DONE:
        sqlite3_reset(m_statement);
        return false;
    default: {
        auto error = failure(sqlite3_db_handle(m_statement), u"reading rows"_s);
        sqlite3_reset(m_statement);
        return error;
    }
    }
}

void SqliteStatement::finish()
{
    sqlite3_reset(m_statement);
}

bool SqliteStatement::isNull(int column) const
{
    return sqlite3_column_type(m_statement, column) == SQLITE_NULL;
}

qint64 SqliteStatement::integer(int column) const
{
    return sqlite3_column_int64(m_statement, column);
}

QByteArrayView SqliteStatement::bytes(int column) const
{
    const auto *text = reinterpret_cast<const char *>(sqlite3_column_text(m_statement, column));
    return {text, sqlite3_column_bytes(m_statement, column)};
}

int SqliteStatement::columns() const
{
    return sqlite3_column_count(m_statement);
}

QVariant SqliteStatement::value(int column) const
{
    switch (sqlite3_column_type(m_statement, column)) {
    case SQLITE_INTEGER:
        return qint64(sqlite3_column_int64(m_statement, column));
    case SQLITE_FLOAT:
        return sqlite3_column_double(m_statement, column);
    case SQLITE_BLOB:
        return QByteArray(static_cast<const char *>(sqlite3_column_blob(m_statement, column)),
                          sqlite3_column_bytes(m_statement, column));
    case SQLITE_NULL:
        return {};
    default:
        return text(column);
    }
}

void forgetSqliteStatements(const QString &connectionName)
{
    Statements &cache = statements();
    const QMutexLocker lock(&cache.mutex);
    cache.byConnection.remove(connectionName);
}

} // namespace md::engine
