// GET /metrics on an address of its own (--metrics-listen; off by default),
// so the API's port never shows them and a firewall can keep them for the
// scraper (docs/operations.md, "Metrics"). Scraping reads the queue's
// counts from the database, on a worker of its own.
#pragma once

#include "services/engine/Engine.h"
#include "services/http/HttpServer.h"
#include "services/server/Metrics.h"
#include "services/server/ServerWork.h"

namespace md::server {

class ApiServer;
class WebhookSender;

class MetricsServer final
{
public:
    MetricsServer(Metrics &metrics, http::HttpLimits limits);
    ~MetricsServer();
    Q_DISABLE_COPY_MOVE(MetricsServer)

    api::Result<quint16> listen(const QHostAddress &address, quint16 port);

    // The server's own families beside the requests: track calls and the
    // writer's batches, the queue, connections, database errors, webhook
    // attempts (none without senders).
    static void watch(Metrics &metrics, engine::Engine &engine, const ApiServer &api,
                      const WebhookSender *webhooks);

private:
    void handle(const http::HttpRequest &request, const http::HttpResponder &responder);

    Metrics &m_metrics;
    ServerWork m_work;
    http::HttpServer m_http; // last: its threads stop first
};

} // namespace md::server
