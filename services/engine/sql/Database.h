// Where a workspace lives (a SQLite file or a postgresql:// URL) and one
// named connection per thread to it, as Qt SQL requires.
#pragma once

#include "services/api/Result.h"
#include "services/engine/sql/Dialect.h"

#include <QDeadlineTimer>
#include <QHash>
#include <QMutex>
#include <QSqlDatabase>
#include <QString>

namespace md::engine {

class Database final
{
public:
    // `location` is a file path (SQLite) or a postgresql:// URL.
    explicit Database(QString location);
    ~Database();
    Q_DISABLE_COPY_MOVE(Database)

    static bool isPostgresUrl(const QString &location);

    const QString &location() const { return m_location; }
    Dialect dialect() const { return m_dialect; }
    // A human-readable location with any password removed.
    QString displayName() const;

    // SQLite page cache of each connection opened from now on: 16 MiB by
    // default, for a server's working set; the console, which shows a
    // window of rows, asks for less (EngineBackend).
    void setCacheKiB(int kib) { m_cacheKiB = kib; }

    // The calling thread's open connection, created on first use.
    api::Result<QSqlDatabase> connection();

private:
    api::Result<QSqlDatabase> open(const QString &name) const;

    QString m_location;
    Dialect m_dialect;
    int m_cacheKiB = 16384;
    QString m_namePrefix;
    QMutex m_mutex;
    QHash<quint64, QString> m_connections; // by thread, numbered as each first asks
    // PostgreSQL: when each connection should be pinged before use again.
    static constexpr qint64 IdlePingMs = 5000;
    QHash<QString, QDeadlineTimer> m_pingDue;
};

} // namespace md::engine
