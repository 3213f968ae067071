#include "tests/support/ServerProcess.h"

namespace md::test {

using namespace Qt::StringLiterals;

ServerProcess::~ServerProcess()
{
    if (m_process.state() != QProcess::NotRunning)
        stop();
}

QString ServerProcess::start(const QString &database, const QStringList &extraArguments)
{
    m_process.setProgram(QStringLiteral(MD_SERVER_BINARY));
    m_process.setArguments(
        QStringList{u"serve"_s, u"--database"_s, database, u"--listen"_s, u"127.0.0.1:0"_s} +
        extraArguments);
    m_process.setProcessChannelMode(QProcess::SeparateChannels);
    m_process.start();
    if (!m_process.waitForStarted(10000))
        return u"meterdesk-server did not start: "_s + m_process.errorString();
    // The one line the server prints when it is ready.
    while (!m_process.canReadLine()) {
        if (!m_process.waitForReadyRead(20000))
            return u"meterdesk-server printed no listening line: "_s +
                   QString::fromUtf8(m_process.readAllStandardError());
    }
    const QString line = QString::fromUtf8(m_process.readLine()).trimmed();
    if (!line.startsWith("listening on "_L1))
        return u"unexpected first line: "_s + line;
    m_url = QUrl(line.mid(13));
    return {};
}

int ServerProcess::stop()
{
    m_process.terminate();
    if (!m_process.waitForFinished(20000)) {
        m_process.kill();
        m_process.waitForFinished(5000);
        return -1;
    }
    return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1;
}

} // namespace md::test
