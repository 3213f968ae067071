// Exit codes are a promise to scripts and to systemd (Restart=on-failure):
// 0 done, 1 the command failed, 2 the command line is wrong; --help and
// --version answer 0 without a display or a database.
#include <QFile>
#include <QProcess>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run run(const QString &program, const QStringList &arguments, bool withDisplay = true)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"LC_ALL"_s, u"C.UTF-8"_s);
    env.remove(u"LANGUAGE"_s);
    env.remove(u"QT_QPA_PLATFORM"_s);
    env.remove(u"DISPLAY"_s);
    env.remove(u"WAYLAND_DISPLAY"_s);
    if (withDisplay)
        env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    process.setProcessEnvironment(env);
    process.start(program, arguments);
    if (!process.waitForFinished(30000) || process.exitStatus() != QProcess::NormalExit)
        return {};
    return {process.exitCode(), QString::fromUtf8(process.readAllStandardOutput()),
            QString::fromUtf8(process.readAllStandardError())};
}

const QString Server = QStringLiteral(MD_SERVER_BINARY);
const QString Console = QStringLiteral(MD_CONSOLE_BINARY);

} // namespace

class CommandLineTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init() { QVERIFY(m_dir.isValid()); }

    void helpAndVersionAnswerWithoutADisplay_data()
    {
        QTest::addColumn<QString>("program");
        QTest::newRow("meterdesk") << Console;
        QTest::newRow("meterdesk-server") << Server;
    }
    void helpAndVersionAnswerWithoutADisplay()
    {
        QFETCH(QString, program);
        const Run help = run(program, {u"--help"_s}, false);
        QCOMPARE(help.exitCode, 0);
        QVERIFY2(help.out.contains("Exit status:"_L1), qPrintable(help.out));
        QVERIFY(help.out.contains("--database <D>"_L1));
        const Run version = run(program, {u"--version"_s}, false);
        QCOMPARE(version.exitCode, 0);
        QVERIFY2(version.out.contains(QStringLiteral(MD_VERSION)), qPrintable(version.out));
    }

    // --lang chooses the language of this run, the parser's words included.
    void aLanguageIsChosenForTheRun()
    {
        const Run german = run(Console, {u"--lang"_s, u"de"_s, u"--help"_s}, false);
        QCOMPARE(german.exitCode, 0);
        QVERIFY2(german.out.contains("Desktop-Konsole"_L1), qPrintable(german.out));
        QVERIFY(german.out.contains("--lang <LANG>"_L1));
        const Run english = run(Console, {u"--lang=en"_s, u"--version"_s}, false);
        QCOMPARE(english.exitCode, 0);
    }

    void aWrongCommandLineExits2WithAHint_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("says");
        QTest::newRow("console: unknown option")
            << Console << QStringList{u"--bogus"_s} << u"Unknown option 'bogus'"_s;
        QTest::newRow("console: option without its value")
            << Console << QStringList{u"--database"_s} << u"Missing value after '--database'"_s;
        QTest::newRow("console: a language it does not have")
            << Console << QStringList{u"--lang"_s, u"xx"_s}
            << u"--lang takes system, en, de, not \"xx\""_s;
        QTest::newRow("console: database and server")
            << Console << QStringList{u"--database"_s, u"a.db"_s, u"--server"_s, u"http://x"_s}
            << u"give --database or --server, not both"_s;
        QTest::newRow("server: unknown option")
            << Server << QStringList{u"--bogus"_s} << u"Unknown option 'bogus'"_s;
        QTest::newRow("server: no command") << Server << QStringList{} << u"no command given"_s;
        QTest::newRow("server: no database")
            << Server << QStringList{u"serve"_s} << u"--database is required"_s;
        QTest::newRow("server: unknown command")
            << Server << QStringList{u"frobnicate"_s, u"--database"_s, u"x.db"_s}
            << u"unknown command \"frobnicate\""_s;
        QTest::newRow("server: bad listen address")
            << Server
            << QStringList{u"serve"_s, u"--database"_s, u"x.db"_s, u"--listen"_s, u"nowhere"_s}
            << u"--listen takes HOST:PORT"_s;
        QTest::newRow("server: a limit of zero")
            << Server
            << QStringList{u"serve"_s,       u"--database"_s,       u"x.db"_s, u"--listen"_s,
                           u"127.0.0.1:0"_s, u"--header-timeout"_s, u"0"_s}
            << u"--header-timeout: takes a whole number of at least 1"_s;
        QTest::newRow("server: processors connect without its file")
            << Server << QStringList{u"processors"_s, u"connect"_s, u"--database"_s, u"x.db"_s,
                                     u"--org"_s,      u"demo"_s,    u"--env"_s,      u"test"_s}
            << u"--secret-file is for connect, and connect needs it"_s;
        QTest::newRow("server: a Stripe address with a path")
            << Server
            << QStringList{u"serve"_s,
                           u"--database"_s,
                           u"x.db"_s,
                           u"--listen"_s,
                           u"127.0.0.1:0"_s,
                           u"--stripe-api-base"_s,
                           u"http://127.0.0.1:9/v1"_s}
            << u"--stripe-api-base takes scheme://host[:port], without /v1"_s;
        QTest::newRow("server: key without environment")
            << Server << QStringList{u"keys"_s, u"create"_s, u"--database"_s, u"x.db"_s}
            << u"keys create needs --org SLUG and --env"_s;
    }
    void aWrongCommandLineExits2WithAHint()
    {
        QFETCH(QString, program);
        QFETCH(QStringList, arguments);
        QFETCH(QString, says);
        const Run result = runIn(program, arguments);
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(says), qPrintable(result.err));
        if (program == Server)
            QVERIFY2(result.err.contains("Try 'meterdesk-server --help'"_L1),
                     qPrintable(result.err));
        // Nothing was made from a wrong command line.
        QVERIFY(!QFile::exists(m_dir.filePath(u"x.db"_s)));
    }

    void aFailedCommandExits1AndSaysWhy()
    {
        const QString database = m_dir.filePath(u"w.db"_s);
        const QString missing = m_dir.filePath(u"missing.json"_s);
        Run load = run(Server, {u"workspace"_s, u"load"_s, u"--database"_s, database, missing});
        QCOMPARE(load.exitCode, 1);
        QVERIFY2(load.err.contains(missing), qPrintable(load.err));

        // A port already taken: systemd's Restart=on-failure retries exit 1.
        QTcpServer taken;
        QVERIFY(taken.listen(QHostAddress::LocalHost));
        Run serve = run(Server, {u"serve"_s, u"--database"_s, database, u"--listen"_s,
                                 u"127.0.0.1:%1"_s.arg(taken.serverPort())});
        QCOMPARE(serve.exitCode, 1);
        QVERIFY2(!serve.err.isEmpty(), "no reason given");

        const Run demo = run(Server, {u"workspace"_s, u"demo"_s, u"--database"_s, database});
        QCOMPARE(demo.exitCode, 0);
        QVERIFY(demo.out.contains("sk_test_"_L1));
    }

    // docs/operations.md, "Processor keys": the key file's line break is
    // not part of the key; only the hint is ever printed.
    void aProcessorKeyIsConnectedFromItsFile()
    {
        const QString database = m_dir.filePath(u"keys.db"_s);
        QCOMPARE(run(Server, {u"workspace"_s, u"demo"_s, u"--database"_s, database}).exitCode, 0);
        const QString file = m_dir.filePath(u"stripe.key"_s);
        const auto write = [&](const QByteArray &text) {
            QFile key(file);
            QVERIFY(key.open(QIODevice::WriteOnly | QIODevice::Truncate));
            key.write(text);
            key.close();
            key.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
        };
        const QStringList connect{u"processors"_s,    u"connect"_s, u"--database"_s, database,
                                  u"--org"_s,         u"demo"_s,    u"--env"_s,      u"test"_s,
                                  u"--secret-file"_s, file};
        write("sk_test_51CommandLine000000000042\n");
        const Run connected = run(Server, connect);
        QCOMPARE(connected.exitCode, 0);
        QVERIFY2(connected.out.contains(u"sk_test_…0042"_s), qPrintable(connected.out));
        QVERIFY(!connected.out.contains(u"51CommandLine"_s));
        const Run listed = run(
            Server, {u"processors"_s, u"list"_s, u"--database"_s, database, u"--org"_s, u"demo"_s});
        QCOMPARE(listed.exitCode, 0);
        QVERIFY2(listed.out.contains(u"test\tsk_test_…0042"_s), qPrintable(listed.out));
        write("sk_live_51CommandLine000000000042\n"); // a live key for test
        const Run refused = run(Server, connect);
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains(u"starts with sk_test_"_s), qPrintable(refused.err));
        QVERIFY(!refused.err.contains(u"51CommandLine"_s));
        const Run dumped = run(Server, {u"workspace"_s, u"dump"_s, u"--database"_s, database});
        QCOMPARE(dumped.exitCode, 0);
        QVERIFY(!dumped.out.contains(u"51CommandLine"_s));
    }

private:
    Run runIn(const QString &program, const QStringList &arguments)
    {
        QStringList inDir = arguments;
        for (QString &argument : inDir)
            if (argument == "x.db"_L1 || argument == "a.db"_L1)
                argument = m_dir.filePath(argument);
        return run(program, inDir);
    }

    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(CommandLineTest)
#include "tst_commandline.moc"
