// What the conformance suites share: which of the three ways they run
// (MD_CONFORMANCE: EngineBackend on SQLite or PostgreSQL, "engine";
// RemoteBackend against a meterdesk-server on a loopback port, "remote" or
// "remote-tls"), a backend for a key that way, and raw HTTP for what only the
// wire shows. A case that passes one way and fails another is a bug.
#pragma once

#include "services/api/Decimal.h"
#include "services/backend/BillingBackend.h"
#include "tests/support/Await.h"
#include "tests/support/ServerProcess.h"
#include "tests/support/TestDatabase.h"

#include <QFuture>
#include <QJsonObject>
#include <QSslCertificate>

#include <memory>

namespace md::test {

QString conformanceMode();
bool overHttp();
// The server's options: the test price catalogue, and TLS in remote-tls mode.
QStringList serverArguments();
// The catalogue both the server and the embedded engine price with.
QString cataloguePath();
// The test certificate, for clients to trust.
QList<QSslCertificate> testCa();

inline api::Decimal dec(const char *text)
{
    return *api::Decimal::parse(QByteArrayView(text));
}

// Loads the workspace file into the database and, over HTTP, starts the
// server on it. Empty on success, else what went wrong.
QString openWorkspace(const TestDatabase &database, ServerProcess &server,
                      const QString &workspaceFile);

// A backend for `secret`: EngineBackend on the database, or RemoteBackend on the server.
std::unique_ptr<backend::BillingBackend>
backendFor(const TestDatabase &database, const ServerProcess &server, const QString &secret);

struct RawAnswer
{
    int status = 0; // 0: no answer in 10 s
    QByteArray body;
    QList<std::pair<QByteArray, QByteArray>> headers;
    QJsonObject json() const; // for the fields a test names; numbers through a double
};
// Sends raw bytes to the server with the given headers.
RawAnswer rawRequest(const ServerProcess &server, const QString &path,
                     const QList<std::pair<QByteArray, QByteArray>> &headers,
                     const QByteArray &body, const QByteArray &verb = "POST");

} // namespace md::test
