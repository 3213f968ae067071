// A meterdesk-server started by a test on a loopback port: waits for its
// "listening on" line, and stops it with SIGTERM (checking it exits 0).
#pragma once

#include <QProcess>
#include <QStringList>
#include <QUrl>

namespace md::test {

class ServerProcess final
{
public:
    ServerProcess() = default;
    ~ServerProcess();
    Q_DISABLE_COPY_MOVE(ServerProcess)

    // Empty on success, else what went wrong.
    QString start(const QString &database, const QStringList &extraArguments = {});
    // Sends SIGTERM and returns the exit code (-1 when it had to be killed).
    int stop();
    const QUrl &url() const { return m_url; }
    QProcess &process() { return m_process; }

private:
    QProcess m_process;
    QUrl m_url;
};

} // namespace md::test
