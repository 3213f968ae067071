#include "services/engine/sql/Database.h"

#include "services/engine/sql/Sql.h"
#include "services/engine/sql/SqliteDecimals.h"

#include <QAtomicInteger>
#include <QDir>
#include <QFileInfo>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QUrl>
#include <QUrlQuery>

#include <atomic>

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

QAtomicInteger<quint64> s_instances;

api::ApiError openError(const QString &where, const QSqlError &error)
{
    return api::ApiError::internal(u"cannot open the database %1: %2"_s.arg(where, error.text()));
}

} // namespace

Database::Database(QString location)
    : m_location(std::move(location))
    , m_dialect(isPostgresUrl(m_location) ? Dialect::Postgres : Dialect::Sqlite)
    , m_namePrefix(u"meterdesk-%1-"_s.arg(s_instances.fetchAndAddRelaxed(1)))
{}

Database::~Database()
{
    const QMutexLocker lock(&m_mutex);
    // Removing a connection closes it; fetching it here would touch another thread's.
    for (const QString &name : std::as_const(m_connections)) {
        forgetPreparedStatements(name);
        QSqlDatabase::removeDatabase(name);
    }
}

bool Database::isPostgresUrl(const QString &location)
{
    return location.startsWith("postgresql://"_L1) || location.startsWith("postgres://"_L1);
}

QString Database::displayName() const
{
    if (m_dialect == Dialect::Sqlite)
        return QDir::toNativeSeparators(QFileInfo(m_location).absoluteFilePath());
    QUrl url(m_location);
    url.setPassword(QString());
    return url.toString();
}

api::Result<QSqlDatabase> Database::connection()
{
    // Threads by a number of their own, not their handle: a thread started
    // after another ended may get its handle, and Qt refuses a connection
    // made on another thread (a webhook sender restarted saw that).
    static std::atomic<quint64> started{0};
    thread_local const quint64 thread = ++started;
    QString name;
    bool idle = false;
    {
        const QMutexLocker lock(&m_mutex);
        name = m_connections.value(thread);
        if (name.isEmpty()) {
            name = m_namePrefix + QString::number(thread, 16);
            m_connections.insert(thread, name);
        }
        QDeadlineTimer &ping = m_pingDue[name];
        idle = ping.hasExpired();
        ping.setRemainingTime(IdlePingMs);
    }
    QSqlDatabase db = QSqlDatabase::database(name, false);
    if (db.isValid() && db.isOpen()) {
        // A PostgreSQL session idle for a while may have ended with a server
        // restart; a ping finds out before a request's first statement does.
        const bool lost = takeLostConnection(name);
        if (!lost &&
            (!idle || m_dialect == Dialect::Sqlite || QSqlQuery(u"SELECT 1"_s, db).isActive()))
            return db;
        forgetPreparedStatements(name);
        db.close(); // its session is gone: open a new one
    }
    return open(name);
}

api::Result<QSqlDatabase> Database::open(const QString &name) const
{
    if (m_dialect == Dialect::Sqlite) {
        QSqlDatabase db = QSqlDatabase::contains(name)
                              ? QSqlDatabase::database(name, false)
                              : QSqlDatabase::addDatabase(u"QSQLITE"_s, name);
        const QFileInfo file(m_location);
        if (!file.absoluteDir().exists())
            QDir().mkpath(file.absolutePath());
        db.setDatabaseName(m_location);
        db.setConnectOptions(u"QSQLITE_BUSY_TIMEOUT=10000"_s);
        if (!db.open())
            return openError(displayName(), db.lastError());
        db.driver()->setProperty(ConnectionNameProperty, name);
        // WAL lets readers run beside the one writer; NORMAL sync keeps every
        // commit atomic and durable across a process crash, FULL (set
        // MD_SQLITE_SYNCHRONOUS=FULL) also across a power cut, at a cost
        // measured in docs/storage.md. m_cacheKiB of page cache per connection.
        const bool full = qEnvironmentVariable("MD_SQLITE_SYNCHRONOUS").toUpper() == "FULL"_L1;
        QSqlQuery pragma(db);
        const QString cache = u"PRAGMA cache_size=-%1"_s.arg(m_cacheKiB);
        for (const QString &sql :
             {u"PRAGMA journal_mode=WAL"_s,
              full ? u"PRAGMA synchronous=FULL"_s : u"PRAGMA synchronous=NORMAL"_s,
              u"PRAGMA foreign_keys=ON"_s, cache}) {
            if (!pragma.exec(sql))
                return openError(displayName(), pragma.lastError());
        }
        if (auto decimals = registerSqliteDecimals(db); !decimals)
            return decimals.error();
        return db;
    }

    const QUrl url(m_location);
    if (!url.isValid() || url.host().isEmpty())
        return api::ApiError::internal(
            u"the PostgreSQL URL \"%1\" is not valid; expected postgresql://user:password@host:port/database"_s
                .arg(displayName()));
    QSqlDatabase db = QSqlDatabase::contains(name) ? QSqlDatabase::database(name, false)
                                                   : QSqlDatabase::addDatabase(u"QPSQL"_s, name);
    db.setHostName(url.host());
    db.setPort(url.port(5432));
    db.setUserName(url.userName());
    db.setPassword(url.password());
    db.setDatabaseName(url.path().mid(1));
    QStringList options{u"connect_timeout=10"_s};
    for (const auto &[key, value] : QUrlQuery(url).queryItems(QUrl::FullyDecoded))
        options.append(key + u'=' + value);
    db.setConnectOptions(options.join(u';'));
    if (!db.open())
        return openError(displayName(), db.lastError());
    // No JIT: the engine's statements are index walks and small batches,
    // where compiling costs more than it saves, and the planner's guess at
    // a set-returning function's rows made balances.pages compile for 340 ms
    // of its 1 s (docs/performance.md).
    if (QSqlQuery settings(db); !settings.exec(u"SET jit = off"_s))
        return openError(displayName(), settings.lastError());
    db.driver()->setProperty(ConnectionNameProperty, name);
    return db;
}

} // namespace md::engine
