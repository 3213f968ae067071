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

// A value bound as Qt's driver binds it: NULL for no value, a typed null
// one or a null byte array (a null QString is the caller's choice:
// Sql.cpp's queryRows and execute make it NULL, the hot paths bind ""),
// integers and booleans as integers, a double as a double, bytes as a
// blob, anything else as its text.
int bindOne(sqlite3_stmt *s, int position, const QVariant &value)
{
    if (!value.isValid() || value.isNull() ||
        (value.typeId() == QMetaType::QByteArray && value.toByteArray().isNull()))
        return sqlite3_bind_null(s, position);
    switch (value.typeId()) {
    case QMetaType::Int:
    case QMetaType::UInt:
    case QMetaType::LongLong:
    case QMetaType::ULongLong:
    case QMetaType::Long:
    case QMetaType::ULong:
    case QMetaType::Short:
    case QMetaType::UShort:
    case QMetaType::Bool:
        return sqlite3_bind_int64(s, position, value.toLongLong());
    case QMetaType::Double:
    case QMetaType::Float:
        return sqlite3_bind_double(s, position, value.toDouble());
    case QMetaType::QByteArray: {
        const QByteArray blob = value.toByteArray();
        return sqlite3_bind_blob(s, position, blob.constData(), int(blob.size()), SQLITE_TRANSIENT);
    }
    default: {
        const QByteArray utf8 = value.toString().toUtf8();
        return sqlite3_bind_text(s, position, utf8.constData(), int(utf8.size()), SQLITE_TRANSIENT);
    }
    }
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
        const char *rest = nullptr;
        if (sqlite3_prepare_v3(handle, text.constData(), int(text.size()),
                               SQLITE_PREPARE_PERSISTENT, &prepared, &rest) != SQLITE_OK)
            return failure(handle, u"preparing a statement"_s);
        // One statement, as Qt's driver takes: none (a comment) or a second
        // one after it would run as nothing, or not at all.
        if (!prepared || !QByteArrayView(rest).trimmed().isEmpty()) {
            sqlite3_finalize(prepared);
            return api::ApiError::internal(u"not one SQL statement: %1"_s.arg(sql.left(200)));
        }
        statement = std::make_shared<SqliteStatement>(prepared);
        Statements &cache = statements();
        const QMutexLocker lock(&cache.mutex);
        cache.byConnection[db.connectionName()].insert(sql, statement);
    }
    sqlite3_stmt *s = statement->m_statement;
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    // None bound leaves every placeholder NULL (EXPLAIN of a statement, as
    // Qt's driver allows); some bound must be all of them.
    if (!binds.isEmpty() && sqlite3_bind_parameter_count(s) != binds.size())
        return api::ApiError::internal(u"%1 values for %2 placeholders in: %3"_s.arg(binds.size())
                                           .arg(sqlite3_bind_parameter_count(s))
                                           .arg(sql.left(200)));
    for (int i = 0; i < binds.size(); ++i)
        if (bindOne(s, i + 1, binds.at(i)) != SQLITE_OK)
            return failure(handle, u"binding a value"_s);
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
