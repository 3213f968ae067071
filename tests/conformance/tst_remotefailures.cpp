// RemoteBackend when the other side misbehaves: every failure becomes a clear
// ApiError, never a hang or a crash.
#include "services/remote/RemoteBackend.h"
#include "tests/engine/EngineFixture.h"
#include "tests/support/ServerProcess.h"

#include <QTcpServer>
#include <QTcpSocket>

using namespace md;
using namespace Qt::StringLiterals;

namespace {

// Waits while the event loop runs, so servers on this thread can answer.
template <typename T> api::Result<T> settle(QFuture<api::Result<T>> future)
{
    QElapsedTimer guard;
    guard.start();
    while (!future.isFinished() && guard.elapsed() < 20000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    if (!future.isFinished())
        qFatal("the request neither finished nor failed");
    return future.result();
}

QUrl local(quint16 port, const char *scheme = "http")
{
    return QUrl(u"%1://127.0.0.1:%2"_s.arg(QLatin1StringView(scheme)).arg(port));
}

} // namespace

class TestRemoteFailures final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void refusedConnection()
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        const quint16 port = probe.serverPort();
        probe.close(); // nothing listens there now
        remote::RemoteBackend backend(local(port), u"sk_test_x"_s);
        auto result = settle(backend.listBalances({}));
        QVERIFY(!result.ok());
        QCOMPARE(result.error().code, u"connection_refused"_s);
        QVERIFY(result.error().message.contains(QString::number(port)));
    }

    void silentServerTimesOut()
    {
        QTcpServer silent; // accepts, never answers
        QVERIFY(silent.listen(QHostAddress::LocalHost));
        QList<QTcpSocket *> held;
        connect(&silent, &QTcpServer::newConnection, this,
                [&] { held.append(silent.nextPendingConnection()); });
        remote::RemoteBackend::Options options;
        options.timeoutMs = 300;
        remote::RemoteBackend backend(local(silent.serverPort()), u"sk_test_x"_s, options);
        auto result = settle(backend.listBalances({}));
        QVERIFY(!result.ok());
        QCOMPARE(result.error().code, u"timeout"_s);
    }

    void nonJsonAnswers_data()
    {
        QTest::addColumn<QByteArray>("answer");
        QTest::addColumn<int>("status");
        QTest::newRow("200 with text")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello") << 502;
        QTest::newRow("502 from a proxy")
            << QByteArray("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 11\r\n\r\nbad gateway")
            << 502;
        QTest::newRow("200 with the wrong shape")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                          "2\r\n\r\n{}")
            << 502;
        QTest::newRow("error without code")
            << QByteArray("HTTP/1.1 500 Oops\r\nContent-Type: application/json\r\nContent-Length: "
                          "2\r\n\r\n{}")
            << 500;
    }
    void nonJsonAnswers()
    {
        QFETCH(QByteArray, answer);
        QFETCH(int, status);
        QTcpServer fake;
        QVERIFY(fake.listen(QHostAddress::LocalHost));
        connect(&fake, &QTcpServer::newConnection, this, [&] {
            QTcpSocket *socket = fake.nextPendingConnection();
            connect(socket, &QTcpSocket::readyRead, socket, [socket, answer] {
                socket->readAll();
                socket->write(answer);
                socket->disconnectFromHost();
            });
        });
        remote::RemoteBackend backend(local(fake.serverPort()), u"sk_test_x"_s);
        auto result = settle(backend.listBalances({}));
        QVERIFY(!result.ok());
        QCOMPARE(result.error().status, status);
        QCOMPARE(result.error().code, u"invalid_response"_s);
    }

    void untrustedCertificateIsATlsError()
    {
        test::TestDatabase database;
        {
            engine::Engine setup(database.location());
            QVERIFY(setup.open().ok());
        }
        test::ServerProcess server;
        const QString problem =
            server.start(database.location(),
                         {u"--tls-cert"_s, QStringLiteral(MD_TEST_CONFORMANCE_DIR "/server.crt"),
                          u"--tls-key"_s, QStringLiteral(MD_TEST_CONFORMANCE_DIR "/server.key")});
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        remote::RemoteBackend backend(server.url(), u"sk_test_x"_s); // the test CA is not trusted
        auto result = settle(backend.listBalances({}));
        QVERIFY(!result.ok());
        QCOMPARE(result.error().code, u"tls_error"_s);
        QCOMPARE(server.stop(), 0);
    }
};

QTEST_GUILESS_MAIN(TestRemoteFailures)
#include "tst_remotefailures.moc"
