// What an operator relies on (docs/operations.md): a workspace dump applies
// async calls still queued rather than leaving them out; HTTPS serves a full
// certificate chain and takes an EC key; SIGTERM under steady load ends the
// server promptly, answering 503 to calls that arrive meanwhile.
#include "services/api/WireCodec.h"
#include "services/engine/Engine.h"
#include "tests/support/HttpClient.h"
#include "tests/support/ServerProcess.h"
#include "tests/support/TestDatabase.h"
#include "tests/trust/LedgerAudit.h"
#include "tests/trust/TrustWorkspace.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSignalSpy>
#include <QSslConfiguration>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <thread>

using namespace md;
using namespace Qt::StringLiterals;

namespace {

const QString Catalogue = QStringLiteral(MD_TEST_CONFORMANCE_DIR "/pricing-catalogue.json");

// Runs openssl in `dir`; empty on success, else its complaint.
QString openssl(const QTemporaryDir &dir, const QStringList &arguments)
{
    QProcess process;
    process.setWorkingDirectory(dir.path());
    process.start(u"openssl"_s, arguments);
    if (!process.waitForFinished(30000) || process.exitCode() != 0)
        return u"openssl "_s + arguments.join(u' ') + u": "_s +
               QString::fromUtf8(process.readAllStandardError());
    return {};
}

} // namespace

class TestOperations final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void dumpAppliesQueuedCalls()
    {
        test::TestDatabase database;
        QVERIFY2(database.error().isEmpty(), qPrintable(database.error()));
        QString problem = test::loadTrustWorkspace(database.location(), 2);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        {
            // Queued as a server would, with no worker to apply them.
            engine::Engine engine(database.location());
            QVERIFY(engine.open().ok());
            auto catalogue = engine::PriceCatalogue::fromFile(Catalogue);
            QVERIFY(catalogue.ok());
            engine.setCatalogue(std::make_shared<engine::PriceCatalogue>(catalogue.value()));
            const engine::Scope scope = engine.authenticate(test::TrustKey).value().scope;
            for (int i = 0; i < 5; ++i) {
                auto request =
                    api::decodeBody<api::TrackTokensRequest>(test::trackBody(u"c1"_s, 3, true));
                QVERIFY(request.ok());
                const auto queued =
                    engine.trackQueue().enqueue(scope, request.value(), u"q%1"_s.arg(i));
                QVERIFY2(queued.ok(), queued.ok() ? "" : qPrintable(queued.error().message));
            }
        }
        QCOMPARE(test::LedgerAudit::queuedCalls(database.location()), qsizetype(5));

        QProcess dump;
        dump.start(QStringLiteral(MD_SERVER_BINARY),
                   {u"workspace"_s, u"dump"_s, u"--database"_s, database.location(),
                    u"--catalogue"_s, Catalogue});
        QVERIFY(dump.waitForFinished(30000));
        QCOMPARE(dump.exitCode(), 0);
        QVERIFY(dump.readAllStandardError().contains("applied 5 queued track_tokens calls"));
        const QJsonObject workspace =
            QJsonDocument::fromJson(dump.readAllStandardOutput()).object();
        const QJsonArray customers =
            workspace.value(u"organizations"_s)[0][u"test"_s][u"customers"_s].toArray();
        QJsonObject c1;
        for (const QJsonValue &customer : customers)
            if (customer[u"id"_s] == "c1"_L1)
                c1 = customer.toObject();
        QCOMPARE(c1[u"balances"_s][0][u"usage"_s].toInteger(), 15);
        QCOMPARE(test::LedgerAudit::queuedCalls(database.location()), qsizetype(0));
    }

    void tlsServesTheChainAndTakesAnEcKey()
    {
        QTemporaryDir dir;
        // A root, an intermediate it signs, and a leaf with an EC key the
        // intermediate signs; the server gets leaf + intermediate.
        for (const QStringList &step : QList<QStringList>{
                 {u"req"_s, u"-x509"_s, u"-newkey"_s, u"ec"_s, u"-pkeyopt"_s,
                  u"ec_paramgen_curve:P-256"_s, u"-nodes"_s, u"-keyout"_s, u"root.key"_s, u"-out"_s,
                  u"root.crt"_s, u"-subj"_s, u"/CN=Test root"_s, u"-days"_s, u"2"_s, u"-addext"_s,
                  u"basicConstraints=critical,CA:TRUE"_s},
                 {u"req"_s, u"-newkey"_s, u"ec"_s, u"-pkeyopt"_s, u"ec_paramgen_curve:P-256"_s,
                  u"-nodes"_s, u"-keyout"_s, u"mid.key"_s, u"-out"_s, u"mid.csr"_s, u"-subj"_s,
                  u"/CN=Test intermediate"_s},
                 {u"x509"_s, u"-req"_s, u"-in"_s, u"mid.csr"_s, u"-CA"_s, u"root.crt"_s,
                  u"-CAkey"_s, u"root.key"_s, u"-CAcreateserial"_s, u"-out"_s, u"mid.crt"_s,
                  u"-days"_s, u"2"_s, u"-extfile"_s, u"ca.ext"_s},
                 {u"req"_s, u"-newkey"_s, u"ec"_s, u"-pkeyopt"_s, u"ec_paramgen_curve:P-256"_s,
                  u"-nodes"_s, u"-keyout"_s, u"leaf.key"_s, u"-out"_s, u"leaf.csr"_s, u"-subj"_s,
                  u"/CN=127.0.0.1"_s},
                 {u"x509"_s, u"-req"_s, u"-in"_s, u"leaf.csr"_s, u"-CA"_s, u"mid.crt"_s,
                  u"-CAkey"_s, u"mid.key"_s, u"-CAcreateserial"_s, u"-out"_s, u"leaf.crt"_s,
                  u"-days"_s, u"2"_s, u"-extfile"_s, u"leaf.ext"_s}}) {
            if (step.contains(u"ca.ext"_s)) {
                QFile ext(dir.filePath(u"ca.ext"_s));
                QVERIFY(ext.open(QIODevice::WriteOnly));
                ext.write("basicConstraints=critical,CA:TRUE\n");
            }
            if (step.contains(u"leaf.ext"_s)) {
                QFile ext(dir.filePath(u"leaf.ext"_s));
                QVERIFY(ext.open(QIODevice::WriteOnly));
                ext.write("subjectAltName=IP:127.0.0.1\n");
            }
            const QString failed = openssl(dir, step);
            QVERIFY2(failed.isEmpty(), qPrintable(failed));
        }
        QFile leaf(dir.filePath(u"leaf.crt"_s));
        QFile mid(dir.filePath(u"mid.crt"_s));
        QFile chain(dir.filePath(u"chain.pem"_s));
        QVERIFY(leaf.open(QIODevice::ReadOnly) && mid.open(QIODevice::ReadOnly) &&
                chain.open(QIODevice::WriteOnly));
        chain.write(leaf.readAll() + mid.readAll());
        chain.close();

        test::TestDatabase database;
        QVERIFY(test::loadTrustWorkspace(database.location(), 1).isEmpty());
        test::ServerProcess server;
        const QString problem =
            server.start(database.location(), {u"--tls-cert"_s, chain.fileName(), u"--tls-key"_s,
                                               dir.filePath(u"leaf.key"_s)});
        QVERIFY2(problem.isEmpty(), qPrintable(problem));

        // A client that trusts only the root.
        QNetworkAccessManager network;
        QNetworkRequest request(QUrl(server.url().toString() + u"/v1/meterdesk/whoami"_s));
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.setCaCertificates(QSslCertificate::fromPath(dir.filePath(u"root.crt"_s)));
        request.setSslConfiguration(tls);
        request.setRawHeader("Authorization", "Bearer " + test::TrustKey.toLatin1());
        request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
        QNetworkReply *reply = network.post(request, QByteArray("{}"));
        QSignalSpy finished(reply, &QNetworkReply::finished);
        QVERIFY(finished.wait(20000));
        QVERIFY2(reply->error() == QNetworkReply::NoError, qPrintable(reply->errorString()));
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
        reply->deleteLater();
        QCOMPARE(server.stop(), 0);
    }

    void sigtermUnderLoadEndsPromptly()
    {
        test::TestDatabase database;
        QVERIFY(test::loadTrustWorkspace(database.location(), 4).isEmpty());
        test::ServerProcess server;
        const QString problem = server.start(database.location(), {u"--catalogue"_s, Catalogue});
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        std::atomic<int> answered = 0;
        std::atomic<int> refused = 0;
        std::atomic<int> other = 0;
        std::vector<std::thread> clients;
        for (int c = 0; c < 8; ++c)
            clients.emplace_back([&, c] {
                test::HttpClient client(server.url(), test::TrustKey.toLatin1(), 10000);
                for (;;) {
                    const auto response =
                        client.post("/v1/balances.track_tokens",
                                    test::trackBody(u"c%1"_s.arg(c % 4), 1, false));
                    if (response.status == 0)
                        return; // the server has gone
                    ++(response.status == 200   ? answered
                       : response.status == 503 ? refused
                                                : other);
                }
            });
        QTRY_VERIFY_WITH_TIMEOUT(answered.load() > 200, 20000); // steady load
        // Exits 0 within ServerProcess::stop's 20 s (a kill would be -1):
        // before, keep-alive clients kept it serving as long as they called.
        QCOMPARE(server.stop(), 0);
        for (std::thread &client : clients)
            client.join();
        QCOMPARE(other.load(), 0);
        qInfo("%d answered, %d refused while stopping", answered.load(), refused.load());
    }
};

QTEST_MAIN(TestOperations)
#include "tst_operations.moc"
