#include "services/engine/Migrator.h"

#include "services/engine/balances/BalanceSums.h"
#include "services/engine/ids/WorkspaceSecret.h"
#include "services/engine/ledger/LedgerVerifier.h"
#include "services/engine/ledger/UsageDays.h"
#include "services/engine/sql/Sql.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QRegularExpression>

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

QStringList migrationFiles()
{
    QStringList files = QDir(u":/migrations"_s).entryList({u"*.sql"_s}, QDir::Files, QDir::Name);
    for (QString &file : files)
        file.prepend(u":/migrations/"_s);
    return files;
}

// `{{pk}}` is the key column's type. `{{sequence T}}` lines become PostgreSQL key sequences
// (balances count down); SQLite allocates keys from the table itself and skips them.
// Statements are separated by a line holding only `;`.
QStringList statementsFor(const QString &script, Dialect dialect)
{
    static const QRegularExpression sequence(uR"(^\{\{sequence (\w+)\}\}$)"_s);
    QStringList statements;
    const QStringList parts = script.split(QRegularExpression(u"\n;\n"_s));
    for (QString part : parts) {
        part = part.trimmed();
        QStringList lines;
        for (const QString &line : part.split(u'\n'))
            if (!line.trimmed().startsWith("--"_L1))
                lines.append(line);
        part = lines.join(u'\n').trimmed();
        if (part.isEmpty())
            continue;
        const auto match = sequence.match(part);
        if (match.hasMatch()) {
            if (dialect == Dialect::Postgres) {
                const QString table = match.captured(1);
                statements.append(
                    table == "balances"_L1
                        ? u"CREATE SEQUENCE balances_pk_seq INCREMENT BY -1 MAXVALUE -1 START WITH -1"_s
                        : u"CREATE SEQUENCE %1_pk_seq"_s.arg(table));
            }
            continue;
        }
        // `{{sqlite}} ` or `{{postgres}} ` before a statement: that dialect's only.
        for (const auto &[marker, only] : {std::pair{u"{{sqlite}}"_s, Dialect::Sqlite},
                                           std::pair{u"{{postgres}}"_s, Dialect::Postgres}}) {
            if (part.startsWith(marker)) {
                part = dialect == only ? part.mid(marker.size()).trimmed() : QString();
                break;
            }
        }
        if (part.isEmpty())
            continue;
        // SQLite's INTEGER PRIMARY KEY is the rowid itself: no second index.
        part.replace(u"{{pk}}"_s, dialect == Dialect::Sqlite ? u"INTEGER PRIMARY KEY"_s
                                                             : u"BIGINT PRIMARY KEY"_s);
        statements.append(part);
    }
    return statements;
}

// What a script cannot do, run after its statements in the same transaction:
// version 6 opens a ledger for the balances that were there before it;
// version 8 makes the workspace's secret from the system's random source;
// version 17 adds up the events recorded before it into usage_days;
// version 18 adds up the balances into balance_sums and balance_customers.
api::Result<api::Done> afterScript(int version, const QSqlDatabase &db, Dialect dialect)
{
    if (version == 6)
        return LedgerVerifier::openExisting(db, dialect);
    if (version == 8)
        return WorkspaceSecret::create(db, QDateTime::currentMSecsSinceEpoch());
    if (version == 17)
        return UsageDays::rebuild(db, dialect);
    if (version == 18)
        return BalanceSums::rebuild(db, dialect);
    return api::Done{};
}

} // namespace

int Migrator::latestVersion()
{
    return int(migrationFiles().size());
}

api::Result<int> Migrator::migrate(const QSqlDatabase &db, Dialect dialect)
{
    WriteTransaction transaction(db, dialect);
    if (auto begun = transaction.begin(); !begun)
        return begun.error();
    if (dialect == Dialect::Postgres) {
        if (auto lock = runSql(db, u"SELECT pg_advisory_xact_lock(727274)"_s); !lock)
            return lock.error();
    }
    if (auto created =
            runSql(db, u"CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"_s);
        !created)
        return created.error();
    auto current = runSql(db, u"SELECT COALESCE(MAX(version), 0) FROM schema_version"_s);
    if (!current)
        return current.error();
    current.value().next();
    const int from = current.value().value(0).toInt();
    // A statement left mid-read would make SQLite refuse a DROP below.
    current.value().finish();
    const QStringList files = migrationFiles();
    if (from > files.size())
        return api::ApiError::internal(
            u"the database has schema version %1 but this Meterdesk knows only up to %2; use a newer Meterdesk"_s
                .arg(from)
                .arg(files.size()));
    for (int version = from + 1; version <= files.size(); ++version) {
        QFile file(files.at(version - 1));
        if (!file.open(QIODevice::ReadOnly))
            return api::ApiError::internal(
                u"migration %1 is missing from the program"_s.arg(version));
        for (const QString &statement : statementsFor(QString::fromUtf8(file.readAll()), dialect)) {
            if (auto ran = runSql(db, statement); !ran)
                return api::ApiError::internal(
                    u"migration %1 failed: %2"_s.arg(version).arg(ran.error().message));
        }
        if (auto after = afterScript(version, db, dialect); !after)
            return api::ApiError::internal(
                u"migration %1 failed: %2"_s.arg(version).arg(after.error().message));
        if (auto recorded =
                runSql(db, u"INSERT INTO schema_version (version) VALUES (?)"_s, {version});
            !recorded)
            return recorded.error();
    }
    if (auto committed = transaction.commit(); !committed)
        return committed.error();
    return int(files.size());
}

} // namespace md::engine
