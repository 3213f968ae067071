#include "tests/support/TestDatabase.h"

#include <QAtomicInteger>
#include <QCoreApplication>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QUrl>

namespace md::test {

using namespace Qt::StringLiterals;

namespace {

QAtomicInteger<int> s_serial;

// Runs one statement on the server's maintenance database.
QString runMaintenance(const QString &sql)
{
    const QUrl url(qEnvironmentVariable("MD_TEST_POSTGRES_URL"));
    const QString name = u"md-test-maintenance"_s;
    QString error;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QPSQL"_s, name);
        db.setHostName(url.host());
        db.setPort(url.port(5432));
        db.setUserName(url.userName());
        db.setDatabaseName(url.path().mid(1));
        if (!db.open()) {
            error = db.lastError().text();
        } else {
            QSqlQuery query(db);
            if (!query.exec(sql))
                error = query.lastError().text();
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return error;
}

} // namespace

bool TestDatabase::usesPostgres()
{
    return qEnvironmentVariable("MD_TEST_DATABASE") == "postgres"_L1;
}

TestDatabase::TestDatabase()
{
    if (!usesPostgres()) {
        m_location = m_dir.filePath(u"workspace.db"_s);
        return;
    }
    if (qEnvironmentVariableIsEmpty("MD_TEST_POSTGRES_URL")) {
        m_error = u"MD_TEST_POSTGRES_URL is not set: run the PostgreSQL tests through `make test`"
                  " (scripts/with-postgres.sh starts a server)"_s;
        return;
    }
    m_postgresName = u"md_test_%1_%2"_s.arg(QCoreApplication::applicationPid())
                         .arg(s_serial.fetchAndAddRelaxed(1));
    m_error = runMaintenance(u"CREATE DATABASE "_s + m_postgresName);
    if (!m_error.isEmpty())
        return;
    QUrl url(qEnvironmentVariable("MD_TEST_POSTGRES_URL"));
    url.setPath(u'/' + m_postgresName);
    m_location = url.toString();
}

TestDatabase::~TestDatabase()
{
    if (!m_postgresName.isEmpty() && m_error.isEmpty())
        runMaintenance(u"DROP DATABASE IF EXISTS %1 WITH (FORCE)"_s.arg(m_postgresName));
}

QStringList TestDatabase::withoutBalanceSums()
{
    // Migrations 21 and 20 first: statements, what they keep, and currencies.
    QStringList back{u"DROP TABLE processor_keys"_s,
                     u"CREATE TABLE processor_access (org_pk BIGINT NOT NULL REFERENCES"
                     " organizations(pk), env TEXT NOT NULL CHECK (env IN ('test', 'live')),"
                     " account_id TEXT NOT NULL, PRIMARY KEY (org_pk, env, account_id))"_s,
                     u"ALTER TABLE organizations DROP COLUMN currency"_s,
                     u"DROP TABLE charge_lines"_s,
                     u"DROP TABLE statements"_s,
                     u"DROP TABLE revenue_months"_s,
                     u"DROP INDEX customers_by_statement_due"_s,
                     u"ALTER TABLE customers DROP COLUMN statement_from"_s,
                     u"ALTER TABLE customers DROP COLUMN statement_due_at"_s};
    if (usesPostgres())
        back << u"DROP SEQUENCE charge_lines_pk_seq"_s << u"DROP SEQUENCE statements_pk_seq"_s;
    if (usesPostgres())
        back << u"DROP FUNCTION balance_sums_inserted, balance_sums_updated,"
                " balances_expired_standalone, balances_expired_inserted,"
                " customer_products_expired CASCADE"_s
             << u"DROP FUNCTION balance_sums_apply"_s << u"DROP TYPE balance_change"_s
             << u"DROP TABLE balance_customer_rows"_s;
    else
        for (const char *trigger : {"balances_expired_standalone", "balances_expired_inserted",
                                    "customer_products_expired", "balance_sums_insert",
                                    "balance_sums_amounts", "balance_sums_state"})
            back << u"DROP TRIGGER "_s + QLatin1StringView(trigger);
    return back << u"DROP TABLE balance_sums"_s << u"DROP TABLE balance_customers"_s
                << u"DROP TABLE balance_levels"_s << u"DROP INDEX balances_by_customer_state"_s
                << u"DROP INDEX balances_by_state"_s << u"DROP INDEX balances_by_feature_state"_s
                << u"ALTER TABLE balances DROP COLUMN expired"_s;
}

} // namespace md::test
