#include "tests/support/StripeMock.h"

#include "services/engine/Engine.h"
#include "services/engine/processors/ProcessorKeys.h"

#include <QDeadlineTimer>
#include <QJsonDocument>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryFile>

#include <memory>

namespace md::test {

using namespace Qt::StringLiterals;

namespace {

const QString Node = QStringLiteral(MD_NODE);
const QString CompatDir = QStringLiteral(MD_COMPAT_DIR);

} // namespace

StripeMock::~StripeMock()
{
    if (m_process.state() != QProcess::NotRunning) {
        m_process.kill();
        m_process.waitForFinished(5000);
    }
}

QString StripeMock::start()
{
    QTcpServer probe; // a free port, given to the mock (it takes PORT)
    if (!probe.listen(QHostAddress::LocalHost))
        return u"no free loopback port: "_s + probe.errorString();
    const quint16 port = probe.serverPort();
    probe.close();
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"PORT"_s, QString::number(port));
    environment.insert(u"LOG_LEVEL"_s, u"warn"_s);
    m_process.setProcessEnvironment(environment);
    m_process.setProcessChannelMode(QProcess::MergedChannels);
    m_process.setStandardOutputFile(QProcess::nullDevice());
    m_process.start(Node, {CompatDir + u"/node_modules/stripe-stateful-mock/dist/cli.js"_s});
    if (!m_process.waitForStarted(10000))
        return u"node did not start: "_s + m_process.errorString();
    // Ready once it takes a connection.
    const QDeadlineTimer deadline(30000);
    for (;;) {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, port);
        if (socket.waitForConnected(250))
            break;
        if (m_process.state() == QProcess::NotRunning)
            return u"stripe-stateful-mock stopped (exit %1)"_s.arg(m_process.exitCode());
        if (deadline.hasExpired())
            return u"stripe-stateful-mock did not listen on port %1 within 30 s"_s.arg(port);
        m_process.waitForFinished(100); // a moment for it to come up, or to fail
    }
    m_url = QUrl(u"http://127.0.0.1:%1"_s.arg(port));
    return {};
}

QString StripeMock::seedAccounts(const QStringList &ids)
{
    return runSeed(QStringList{u"accounts"_s} + ids);
}

QString StripeMock::seed(const QJsonArray &steps)
{
    QTemporaryFile file;
    if (!file.open() || file.write(QJsonDocument(steps).toJson()) < 0 || !file.flush())
        return u"cannot write the seed steps: "_s + file.errorString();
    return runSeed({u"steps"_s, file.fileName()});
}

QString StripeMock::runSeed(const QStringList &arguments)
{
    QProcess seed;
    seed.setWorkingDirectory(CompatDir);
    seed.setProcessChannelMode(QProcess::MergedChannels);
    seed.start(Node, QStringList{CompatDir + u"/stripe-seed.mjs"_s, m_url.toString()} + arguments);
    if (!seed.waitForFinished(120000) || seed.exitStatus() != QProcess::NormalExit ||
        seed.exitCode() != 0)
        return u"stripe-seed.mjs failed: "_s + QString::fromUtf8(seed.readAll());
    return {};
}

QString StripeMock::connectTestKey(const QString &location, const QString &slug,
                                   const QString &secret)
{
    engine::Engine setup(location);
    if (auto opened = setup.open(); !opened)
        return opened.error().message;
    auto org = setup.operatorKey(slug, engine::Environment::Sandbox);
    if (!org)
        return org.error().message;
    auto db = setup.database().connection();
    if (!db)
        return db.error().message;
    auto connected = engine::ProcessorKeys::connect(db.value(), setup.dialect(), org.value().scope,
                                                    secret, setup.now());
    return connected ? QString() : connected.error().message;
}

StripeMock *StripeMock::shared(QString *problem)
{
    static std::unique_ptr<StripeMock> mock;
    static QString failed;
    if (!mock && failed.isEmpty()) {
        auto started = std::make_unique<StripeMock>();
        failed = started->start();
        if (failed.isEmpty())
            mock = std::move(started);
    }
    *problem = failed;
    return mock.get();
}

} // namespace md::test
