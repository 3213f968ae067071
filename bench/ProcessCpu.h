// CPU time from /proc, for benchmarks that report what a server costs per
// call apart from its clients (the two cores are shared).
#pragma once

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>

#include <unistd.h>
#include <utility>

namespace md::bench {

using namespace Qt::StringLiterals;

// A process's user + system CPU time in seconds, and its command name.
inline std::pair<double, QByteArray> cpuOf(const QString &pid)
{
    QFile stat(u"/proc/%1/stat"_s.arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return {0, {}};
    const QByteArray text = stat.readAll();
    const qsizetype open = text.indexOf('(');
    const qsizetype close = text.lastIndexOf(')');
    const QList<QByteArray> fields = text.mid(close + 1).trimmed().split(' ');
    return {double(fields.at(11).toLongLong() + fields.at(12).toLongLong()) / sysconf(_SC_CLK_TCK),
            text.mid(open + 1, close - open - 1)};
}

inline double cpuSeconds(qint64 pid)
{
    return cpuOf(QString::number(pid)).first;
}

// PostgreSQL's CPU time for the server's calls: its backends serving client
// connections to `database` (kept open, so none ends between two readings);
// autovacuum and the other background processes are not the calls' cost.
inline double databaseCpuSeconds(const QString &database)
{
    // A backend names itself "postgres: USER DATABASE HOST(PORT) STATE".
    const QByteArray named = ' ' + database.toUtf8() + ' ';
    double sum = 0;
    for (const QString &pid : QDir(u"/proc"_s).entryList(QDir::Dirs)) {
        if (!pid.front().isDigit())
            continue;
        QFile command(u"/proc/%1/cmdline"_s.arg(pid));
        if (!command.open(QIODevice::ReadOnly))
            continue;
        const QByteArray title = command.readAll();
        if (title.startsWith("postgres: ") && title.contains(named) && title.contains('(') &&
            !title.contains("autovacuum"))
            sum += cpuOf(pid).first;
    }
    return sum;
}

} // namespace md::bench
