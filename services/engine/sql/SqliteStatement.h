// A statement run through SQLite's own C API on the connection Qt SQL opened
// (QSqlDriver::handle()), for the hot read paths (docs/performance.md): Qt's
// driver turns every column of every row into a QVariant holding UTF-16
// text, which measured as most of a balances.list page. Columns are read
// here as integers or UTF-8 bytes, and only the ones asked for. Statements
// are prepared once per connection and finalized by
// forgetPreparedStatements() before the connection goes.
#pragma once

#include "services/api/Decimal.h"
#include "services/api/Result.h"

#include <QSqlDatabase>
#include <QVariantList>

struct sqlite3_stmt;

namespace md::engine {

class SqliteStatement final
{
public:
    // The connection's statement for `sql`, reset and bound to `binds`
    // (an invalid QVariant binds NULL); nullopt-free errors as ApiErrors.
    static api::Result<SqliteStatement *> run(const QSqlDatabase &db, const QString &sql,
                                              const QVariantList &binds);
    // Whether `db` is a SQLite connection this class can reach.
    static bool available(const QSqlDatabase &db);

    explicit SqliteStatement(sqlite3_stmt *statement);
    ~SqliteStatement();
    Q_DISABLE_COPY_MOVE(SqliteStatement)

    // The next row: false after the last one (the statement is then reset).
    api::Result<bool> next();
    // Ends reading early, so no read snapshot stays open.
    void finish();

    int columns() const;
    // A column as Qt's driver gives it: an integer, a double, text, a blob
    // or, for NULL, an invalid QVariant.
    QVariant value(int column) const;
    bool isNull(int column) const;
    qint64 integer(int column) const;
    // Valid until the next call of next().
    QByteArrayView bytes(int column) const;
    QString text(int column) const { return QString::fromUtf8(bytes(column)); }
    QByteArray utf8(int column) const { return bytes(column).toByteArray(); }
    api::Decimal amount(int column) const
    {
        return api::Decimal::parse(bytes(column)).value_or(api::Decimal());
    }

private:
    sqlite3_stmt *m_statement;
};

// Drops the connection's statements; called by forgetPreparedStatements().
void forgetSqliteStatements(const QString &connectionName);

} // namespace md::engine
