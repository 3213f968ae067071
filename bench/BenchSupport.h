// Small helpers every benchmark program shares.
#pragma once

#include <QFile>
#include <QString>
#include <QTextStream>

#include <cstdlib>

namespace md::bench {

// Benchmarks stop at the first thing that goes wrong, saying what.
[[noreturn]] inline void fail(const QString &why)
{
    QTextStream(stderr) << why << Qt::endl;
    std::exit(1);
}

// Resident memory of a process (this one by default) in KiB, -1 when unknown.
inline qint64 residentKiB(const QString &pid = QStringLiteral("self"))
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong();
    return -1;
}

} // namespace md::bench
