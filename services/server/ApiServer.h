// The HTTP front of the engine: the routes of ApiRoutes and the billing
// portal pages over md::http::HttpServer, bearer-key authentication, JSON
// errors for everything (401, 403, 404, 405, 413, 400), and engine work on a
// bounded pool of worker threads, each with its own database connection.
#pragma once

#include "services/api/Result.h"
#include "services/engine/ApiOperations.h"
#include "services/http/HttpServer.h"
#include "services/server/ApiRoutes.h"
#include "services/server/HealthChecks.h"
#include "services/server/Metrics.h"
#include "services/server/RequestLog.h"
#include "services/server/ServerWork.h"

#include <QElapsedTimer>
#include <QHostAddress>
#include <QObject>

namespace md::server {

class ApiServer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ApiServer)

public:
    struct Options
    {
        http::HttpLimits limits; // maxBodyBytes: 1 MiB (docs/operations.md)
        int workers = 4;
        // Both optional (--access-log, --metrics-listen); they outlive the server.
        RequestLog *log = nullptr;
        Metrics *metrics = nullptr;
    };

    ApiServer(engine::Engine &engine, Options options, QObject *parent = nullptr);
    ~ApiServer() override;

    // HTTPS with a PEM certificate chain and its private key.
    api::Result<api::Done> useTls(const QByteArray &certificateChainPem,
                                  const QByteArray &privateKeyPem);
    // The port listened on (the chosen one when `port` is 0), or an error.
    api::Result<quint16> listen(const QHostAddress &address, quint16 port);
    // Stops accepting; every request already read is answered (new ones on
    // open connections get 503), then drained() follows.
    void shutdown();
    // Open connections and refusals, for /metrics.
    http::HttpServer::Stats httpStats() const { return m_http.stats(); }

Q_SIGNALS:
    void drained();

private:
    // What the log and the metrics learn of a request as it goes.
    struct Seen
    {
        QByteArray requestId;
        QByteArray route;
        QString keyId; // set once the key is known
        qint64 arrivedMs = 0;
        QElapsedTimer timer;
    };
    void handle(http::HttpRequest request, http::HttpResponder responder);
    // The responder every answer goes through: it echoes X-Request-Id and
    // tells the log and the metrics.
    http::HttpResponder observed(const http::HttpRequest &request,
                                 const std::shared_ptr<Seen> &seen, http::HttpResponder responder);
    void run(const http::HttpRequest &request, const Route &route,
             const http::HttpResponder &responder, const std::shared_ptr<Seen> &seen);
    static http::HttpResponse response(const Answer &answer);

    engine::Engine &m_engine;
    RequestLog *m_log;
    Metrics *m_metrics;
    engine::ApiOperations m_service;
    ApiRoutes m_routes;
    ServerWork m_work;
    HealthChecks m_health;   // its deadlines are m_http's timers
    http::HttpServer m_http; // last: its threads stop first
};

} // namespace md::server
