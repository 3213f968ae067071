// The console never writes an API key anywhere a person or another program
// might read it: not to settings or any file under its configuration, data
// and cache folders, not to any log message (every logging category on), not
// to what it prints when it crashes. The key field echoes as a password, so
// screenshots cannot show it either. Runs the real Console on a real server.
#include "models/connection/KeyStore.h"
#include "tests/engine/EngineFixture.h"
#include "tests/support/ServerProcess.h"
#include "views/connection/ConnectionDialog.h"
#include "views/window/Console.h"

#include <QApplication>
#include <QDirIterator>
#include <QLabel>
#include <QLineEdit>
#include <QLoggingCategory>
#include <QMutex>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>

using namespace md;
using namespace Qt::StringLiterals;

namespace {

const QString FixtureKey = u"sk_test_fixture0000000000000000000001"_s;
const QString WrongKey = u"sk_test_wrongkey00000000000000000000"_s;

// Every message any part of the process logs.
QMutex logMutex;
QByteArray logged;
QtMessageHandler previousHandler = nullptr;
void capture(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    {
        const QMutexLocker lock(&logMutex);
        logged += message.toUtf8() + '\n';
    }
    if (type != QtDebugMsg && type != QtInfoMsg) // Qt's debug chatter stays out of the test log
        previousHandler(type, context, message);
}

// The only secret part of a key: what follows sk_test_.
QByteArray secretOf(const QString &key)
{
    return key.mid(8).toLatin1();
}

// Every file under the folders the console may write to.
QStringList filesHolding(const QByteArray &needle)
{
    QStringList found;
    for (const char *variable : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"}) {
        QDirIterator files(qEnvironmentVariable(variable), QDir::Files | QDir::Hidden,
                           QDirIterator::Subdirectories);
        while (files.hasNext()) {
            QFile file(files.next());
            if (file.open(QIODevice::ReadOnly) && file.readAll().contains(needle))
                found << file.fileName();
        }
    }
    return found;
}

// Opens the console on `server` with the key saved for it; true once the
// window shows which organization it speaks to.
bool openConsole(views::Console &console, const QUrl &server, const QString &key)
{
    models::KeyStore::write(server.toString(), key).waitForFinished();
    console.open({models::Connection::Kind::Remote, server.toString()}, false);
    if (!QTest::qWaitFor([&] { return console.window() != nullptr; }, 10000))
        return false;
    auto *badge = console.window()->findChild<QLabel *>(u"environmentBadge"_s);
    return QTest::qWaitFor([&] { return badge && !badge->text().isEmpty(); }, 10000);
}

} // namespace

class TestKeyHygiene final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;
    test::ServerProcess m_server;

private Q_SLOTS:
    void initTestCase()
    {
        {
            engine::Engine setup(m_database.location());
            QVERIFY(setup.open().ok());
            QVERIFY(setup.loadWorkspace(test::smallWorkspace()).ok());
        }
        const QString problem = m_server.start(m_database.location());
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void cleanupTestCase() { m_server.stop(); }

    void keysStayOutOfSettingsFilesAndLogs()
    {
        {
            views::Console console;
            QVERIFY(openConsole(console, m_server.url(), FixtureKey));
            QTest::keyClick(console.window(), Qt::Key_F5); // every page asks again

            // A wrong key, tried from the Connect dialog: refused, shown, not kept.
            views::ConnectionDialog dialog;
            dialog.setConnection({models::Connection::Kind::Remote, m_server.url().toString()});
            auto *keyField = dialog.findChild<QLineEdit *>(u"apiKey"_s);
            QCOMPARE(keyField->echoMode(), QLineEdit::Password);
            keyField->setText(WrongKey);
            QSignalSpy tested(&dialog, &views::ConnectionDialog::tested);
            dialog.testConnection();
            QVERIFY(tested.count() == 1 || tested.wait(10000));
            QVERIFY(!tested.first().at(0).toBool());
        }
        QSettings().sync();
        QVERIFY2(filesHolding(secretOf(FixtureKey)).isEmpty(),
                 qPrintable(filesHolding(secretOf(FixtureKey)).join(u", "_s)));
        QVERIFY(filesHolding(secretOf(WrongKey)).isEmpty());
        const QMutexLocker lock(&logMutex);
        QVERIFY(!logged.isEmpty()); // the capture works: Qt's own categories spoke
        QVERIFY(!logged.contains(secretOf(FixtureKey)));
        QVERIFY(!logged.contains(secretOf(WrongKey)));
    }

    void crashOutputHoldsNoKey()
    {
        // A console connected with the key, then killed by a fatal error.
        QProcess child;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(u"MD_KEYHYGIENE_CHILD"_s, m_server.url().toString());
        child.setProcessEnvironment(environment);
        child.start(QCoreApplication::applicationFilePath(), {});
        QVERIFY(child.waitForFinished(30000));
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);
        const QByteArray output = child.readAllStandardOutput() + child.readAllStandardError();
        QVERIFY2(output.contains("connected, now crashing"), output.constData());
        QVERIFY(!output.contains(secretOf(FixtureKey)));
        QVERIFY(filesHolding(secretOf(FixtureKey)).isEmpty());
    }
};

// The child of crashOutputHoldsNoKey: connect, log, then die.
int crashingConsole(const QUrl &server)
{
    views::Console console;
    if (!openConsole(console, server, FixtureKey))
        return 1;
    qWarning("connected, now crashing");
    qFatal("simulated crash with the key in memory");
}

int main(int argc, char *argv[])
{
    // Settings, data and cache in folders of this test only (a child inherits them).
    QTemporaryDir home;
    if (qEnvironmentVariableIsEmpty("MD_KEYHYGIENE_CHILD"))
        for (const char *variable : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"})
            qputenv(variable, QFile::encodeName(home.filePath(QString::fromLatin1(variable))));
    QLoggingCategory::setFilterRules(u"*=true"_s);
    previousHandler = qInstallMessageHandler(capture);
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(u"MeterdeskTest"_s);
    QCoreApplication::setApplicationName(u"keyhygiene"_s);
    models::KeyStore::useSessionOnly(true); // never touch this machine's keychain
    if (const QString server = qEnvironmentVariable("MD_KEYHYGIENE_CHILD"); !server.isEmpty())
        return crashingConsole(QUrl(server));
    TestKeyHygiene test;
    const int result = QTest::qExec(&test, argc, argv);
    // Qt still logs while the process exits, after `logged` is destroyed:
    // capturing then corrupted the heap and hung the run in Qt Test's crash handler.
    qInstallMessageHandler(previousHandler);
    return result;
}

#include "tst_keyhygiene.moc"
