// Connections: what is remembered (never a key), the key store without a
// system keychain, and the Connect dialog testing a real server.
#include "models/connection/Connection.h"
#include "models/connection/KeyStore.h"
#include "tests/engine/EngineFixture.h"
#include "tests/support/ServerProcess.h"
#include "views/connection/ConnectionDialog.h"

#include <QDialogButtonBox>
#include <QDirIterator>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSignalSpy>

using namespace md;
using namespace Qt::StringLiterals;
using models::Connection;

namespace {
const QString FixtureKey = u"sk_test_fixture0000000000000000000001"_s;
}

class TestConnection final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_settings;
    test::TestDatabase m_database;
    test::ServerProcess m_server;

    // Every byte the console has written to its settings.
    QByteArray settingsBytes() const
    {
        QSettings().sync();
        QByteArray all;
        QDirIterator files(m_settings.path(), QDir::Files, QDirIterator::Subdirectories);
        while (files.hasNext()) {
            QFile file(files.next());
            if (file.open(QIODevice::ReadOnly))
                all += file.readAll();
        }
        return all;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(u"MeterdeskTest"_s);
        QCoreApplication::setApplicationName(u"connection"_s);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
        // Nothing asked of a keychain yet: it is not said to be there.
        QCOMPARE(models::KeyStore::state(), models::KeyStore::Keychain::Unknown);
        QVERIFY(!models::KeyStore::available());
        models::KeyStore::useSessionOnly(true); // never touch this machine's keychain
        QCOMPARE(models::KeyStore::state(), models::KeyStore::Keychain::Absent);
        {
            engine::Engine setup(m_database.location());
            QVERIFY(setup.open().ok());
            QVERIFY(setup.loadWorkspace(test::smallWorkspace()).ok());
        }
        const QString problem = m_server.start(m_database.location());
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void cleanupTestCase() { QCOMPARE(m_server.stop(), 0); }

    void guessesTheKind_data()
    {
        QTest::addColumn<QString>("location");
        QTest::addColumn<int>("kind");
        QTest::newRow("file") << u"/tmp/x.db"_s << int(Connection::Kind::Sqlite);
        QTest::newRow("postgres") << u"postgresql://u:p@h/db"_s << int(Connection::Kind::Postgres);
        QTest::newRow("http") << u"http://127.0.0.1:8080"_s << int(Connection::Kind::Remote);
        QTest::newRow("https") << u"https://billing.example.com"_s << int(Connection::Kind::Remote);
    }
    void guessesTheKind()
    {
        QFETCH(QString, location);
        QFETCH(int, kind);
        QCOMPARE(int(Connection::guess(location).kind), kind);
    }

    void recentListKeepsNoPasswordsAndNoDuplicates()
    {
        models::RecentConnections::remember(
            {Connection::Kind::Postgres, u"postgresql://ana:s3cret@db.local/w"_s});
        for (int i = 0; i < 10; ++i)
            models::RecentConnections::remember(
                {Connection::Kind::Sqlite, u"/tmp/w%1.db"_s.arg(i)});
        models::RecentConnections::remember({Connection::Kind::Sqlite, u"/tmp/w3.db"_s});
        const QList<Connection> recent = models::RecentConnections::load();
        QCOMPARE(recent.size(), 8);
        QCOMPARE(recent.first().location, u"/tmp/w3.db"_s);
        QCOMPARE(recent.count({Connection::Kind::Sqlite, u"/tmp/w3.db"_s}), 1);
        QVERIFY(!settingsBytes().contains("s3cret"));
    }

    void sessionKeysAreNotWrittenAnywhere()
    {
        models::KeyStore::write(u"https://x.example"_s, FixtureKey).waitForFinished();
        auto read = models::KeyStore::read(u"https://x.example"_s);
        read.waitForFinished();
        QCOMPARE(read.result(), FixtureKey);
        QVERIFY(!models::KeyStore::available());
        QVERIFY(!settingsBytes().contains(FixtureKey.toUtf8()));
        models::KeyStore::forget(u"https://x.example"_s);
        auto gone = models::KeyStore::read(u"https://x.example"_s);
        gone.waitForFinished();
        QVERIFY(gone.result().isEmpty());
    }

    void dialogTestsTheServer_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("message");
        QTest::newRow("good key") << FixtureKey << true
                                  << u"organization alpha, test environment"_s;
        // Said as what to paste, not as the header an integrator sends.
        QTest::newRow("bad key") << u"sk_test_wrong000000000000000000000000"_s << false
                                 << u"Failed: The server did not accept this key. Paste the whole "
                                    "secret key"_s;
    }
    void dialogTestsTheServer()
    {
        QFETCH(QString, key);
        QFETCH(bool, ok);
        QFETCH(QString, message);
        views::ConnectionDialog dialog;
        dialog.show();
        dialog.setConnection({Connection::Kind::Remote, m_server.url().toString()});
        auto *keyField = dialog.findChild<QLineEdit *>(u"apiKey"_s);
        keyField->clear();
        QTest::keyClicks(keyField, key);
        QSignalSpy tested(&dialog, &views::ConnectionDialog::tested);
        dialog.testConnection();
        QVERIFY(tested.wait(10000));
        QCOMPARE(tested.first().at(0).toBool(), ok);
        QVERIFY2(tested.first().at(1).toString().contains(message),
                 qPrintable(tested.first().at(1).toString()));
        QCOMPARE(dialog.connection().kind, Connection::Kind::Remote);
        QCOMPARE(dialog.apiKey(), key);
        QVERIFY(!settingsBytes().contains(key.toUtf8()));
    }

    // No field's example is cut: each is as wide as its placeholder.
    void everyExampleFits()
    {
        views::ConnectionDialog dialog;
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        const auto fields = dialog.findChildren<QLineEdit *>();
        QVERIFY(fields.size() >= 4);
        for (const QLineEdit *field : fields) {
            if (field->placeholderText().isEmpty())
                continue;
            // The frame and the text's margins take a few pixels of each side.
            QVERIFY2(field->fontMetrics().horizontalAdvance(field->placeholderText()) <=
                         field->width() - 10,
                     qPrintable(field->placeholderText()));
        }
    }

    void connectNeedsACompleteChoice()
    {
        views::ConnectionDialog dialog;
        auto *connect = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
        dialog.setConnection({Connection::Kind::Remote, u"https://billing.example.com"_s});
        dialog.findChild<QLineEdit *>(u"apiKey"_s)->clear();
        QVERIFY(!connect->isEnabled()); // a server without a key
        dialog.setConnection({Connection::Kind::Sqlite, u"/tmp/file.db"_s});
        QVERIFY(connect->isEnabled());
    }
};

QTEST_MAIN(TestConnection)
#include "tst_connection.moc"
