// meterdesk-server started for a benchmark: `serve` on a loopback port the
// system chooses, its warnings passed through; the URL it prints.
#pragma once

#include "bench/BenchSupport.h"

#include <QProcess>
#include <QStringList>
#include <QUrl>

namespace md::bench {

inline QUrl startServer(QProcess &process, const QString &server, const QString &location,
                        const QStringList &extra = {})
{
    using namespace Qt::StringLiterals;
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process.start(server, QStringList{u"serve"_s, u"--database"_s, location, u"--listen"_s,
                                      u"127.0.0.1:0"_s} +
                              extra);
    if (!process.waitForStarted() || !process.waitForReadyRead(60000))
        fail(u"meterdesk-server did not start"_s);
    // "listening on http://127.0.0.1:PORT"
    return QUrl(QString::fromUtf8(process.readLine()).trimmed().mid(13));
}

} // namespace md::bench
