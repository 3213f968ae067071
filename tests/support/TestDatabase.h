// A fresh, empty database for one test: a SQLite file in a temporary folder,
// or (MD_TEST_DATABASE=postgres) a new database on the server `make test` runs.
#pragma once

#include <QString>
#include <QStringList>
#include <QTemporaryDir>

namespace md::test {

class TestDatabase final
{
public:
    TestDatabase();
    ~TestDatabase();
    Q_DISABLE_COPY_MOVE(TestDatabase)

    static bool usesPostgres();
    // Statements that take a database back from migration 21 to 17 (the
    // statements, the kept balance sums and customer rows), for tests that
    // upgrade an older one.
    static QStringList withoutBalanceSums();
    // Empty when the database could not be made; error() says why.
    const QString &location() const { return m_location; }
    const QString &error() const { return m_error; }

private:
    QTemporaryDir m_dir;
    QString m_location;
    QString m_postgresName;
    QString m_error;
};

} // namespace md::test
