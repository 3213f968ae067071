#include "tests/conformance/ConformanceHarness.h"

#include "services/embedded/EngineBackend.h"
#include "services/engine/Engine.h"
#include "services/remote/RemoteBackend.h"
#include "services/server/PortalServer.h"

#include <QFile>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>

namespace md::test {

using namespace Qt::StringLiterals;

QString conformanceMode()
{
    return qEnvironmentVariable("MD_CONFORMANCE", u"engine"_s);
}

bool overHttp()
{
    return conformanceMode().startsWith("remote"_L1);
}

QString cataloguePath()
{
    return QStringLiteral(MD_TEST_CONFORMANCE_DIR "/pricing-catalogue.json");
}

QStringList serverArguments()
{
    QStringList arguments{u"--catalogue"_s, cataloguePath()};
    if (conformanceMode() == "remote-tls"_L1)
        arguments += {u"--tls-cert"_s, QStringLiteral(MD_TEST_CONFORMANCE_DIR "/server.crt"),
                      u"--tls-key"_s, QStringLiteral(MD_TEST_CONFORMANCE_DIR "/server.key")};
    return arguments;
}

QList<QSslCertificate> testCa()
{
    QFile cert(QStringLiteral(MD_TEST_CONFORMANCE_DIR "/server.crt"));
    if (!cert.open(QIODevice::ReadOnly))
        qFatal("the test certificate is missing");
    return QSslCertificate::fromDevice(&cert);
}

QString openWorkspace(const TestDatabase &database, ServerProcess &server,
                      const QString &workspaceFile)
{
    if (!database.error().isEmpty())
        return database.error();
    {
        engine::Engine setup(database.location());
        if (auto opened = setup.open(); !opened)
            return opened.error().message;
        if (auto loaded = setup.loadWorkspaceFile(workspaceFile); !loaded)
            return loaded.error().message;
    }
    return overHttp() ? server.start(database.location(), serverArguments()) : QString();
}

std::unique_ptr<backend::BillingBackend>
backendFor(const TestDatabase &database, const ServerProcess &server, const QString &secret)
{
    if (overHttp()) {
        remote::RemoteBackend::Options options;
        options.timeoutMs = 10000;
        if (conformanceMode() == "remote-tls"_L1)
            options.caCertificates = testCa();
        return std::make_unique<remote::RemoteBackend>(server.url(), secret, options);
    }
    auto backend = std::make_unique<embedded::EngineBackend>(
        database.location(), engine::Clock(), secret, server::PortalServer::starter());
    auto prepared = backend->prepare(false);
    prepared.waitForFinished();
    auto catalogue = backend->loadCatalogue(cataloguePath());
    catalogue.waitForFinished();
    if (!catalogue.result())
        qFatal("%s", qPrintable(catalogue.result().error().message));
    return backend;
}

QJsonObject RawAnswer::json() const
{
    return QJsonDocument::fromJson(body).object();
}

RawAnswer rawRequest(const ServerProcess &server, const QString &path,
                     const QList<std::pair<QByteArray, QByteArray>> &headers,
                     const QByteArray &body, const QByteArray &verb)
{
    QNetworkAccessManager network;
    QUrl url = server.url();
    url.setPath(path, QUrl::TolerantMode); // a %2F in an id stays one
    QNetworkRequest request(url);
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);
    if (conformanceMode() == "remote-tls"_L1) {
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.addCaCertificates(testCa());
        request.setSslConfiguration(tls);
    }
    QNetworkReply *reply = network.sendCustomRequest(request, verb, body);
    QSignalSpy finished(reply, &QNetworkReply::finished);
    if (!finished.wait(10000))
        return {};
    RawAnswer answer;
    answer.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    answer.body = reply->readAll();
    for (const auto &pair : reply->rawHeaderPairs())
        answer.headers.append({pair.first.toLower(), pair.second});
    reply->deleteLater();
    return answer;
}

} // namespace md::test
