#include "services/server/MetricsServer.h"

#include "services/engine/sql/Sql.h"
#include "services/server/ApiAnswers.h"
#include "services/server/ApiServer.h"
#include "services/server/WebhookSender.h"

namespace md::server {

using namespace Qt::StringLiterals;

MetricsServer::MetricsServer(Metrics &metrics, http::HttpLimits limits)
    : m_metrics(metrics)
    , m_work(1)
    , m_http(limits, [this](http::HttpRequest request, http::HttpResponder responder) {
        handle(request, responder);
    })
{}

MetricsServer::~MetricsServer()
{
    m_work.stopAndWait(); // before m_http goes: the work answers through it
}

api::Result<quint16> MetricsServer::listen(const QHostAddress &address, quint16 port)
{
    return m_http.listen(address, port);
}

void MetricsServer::handle(const http::HttpRequest &request, const http::HttpResponder &responder)
{
    if (request.path != "/metrics")
        return responder.send(errorAnswer(api::ApiError::notFound(
            api::ErrorCode::NotFound, u"this address serves only GET /metrics"_s)));
    if (request.method != "GET")
        return responder.send(methodNotAllowed(request.path, "GET"));
    if (!m_work.start([this, responder] {
            responder.send({200,
                            "text/plain; version=0.0.4; charset=utf-8",
                            m_metrics.exposition(),
                            {},
                            false});
        }))
        responder.send(errorAnswer(shuttingDown()));
}

void MetricsServer::watch(Metrics &metrics, engine::Engine &engine, const ApiServer &api,
                          const WebhookSender *webhooks)
{
    metrics.addSource([&engine, &api, webhooks](QByteArray &out) {
        const auto sizes = engine.trackBatchSizes();
        Metrics::family(out, "meterdesk_track_batch_size", "histogram",
                        "Synchronous track_tokens calls per writer batch (one transaction).");
        quint64 cumulative = 0;
        for (int i = 0; i < engine::TrackWriter::BatchSizes::Buckets; ++i) {
            cumulative += sizes.atMost[std::size_t(i)];
            Metrics::sample(out, "meterdesk_track_batch_size_bucket",
                            "le=\"" + QByteArray::number(1 << i) + '"', double(cumulative));
        }
        Metrics::sample(out, "meterdesk_track_batch_size_bucket", "le=\"+Inf\"",
                        double(sizes.batches));
        Metrics::sample(out, "meterdesk_track_batch_size_sum", {}, double(sizes.calls));
        Metrics::sample(out, "meterdesk_track_batch_size_count", {}, double(sizes.batches));
        if (const auto queue = engine.trackQueue().totals()) {
            Metrics::family(out, "meterdesk_track_queue_pending", "gauge",
                            "Async track_tokens calls stored and not yet applied (all servers).");
            Metrics::sample(out, "meterdesk_track_queue_pending", {},
                            double(queue.value().pending));
            Metrics::family(
                out, "meterdesk_track_queue_failed", "gauge",
                "Async calls that failed after their 204, waiting for retry or discard.");
            Metrics::sample(out, "meterdesk_track_queue_failed", {}, double(queue.value().failed));
        }
        const http::HttpServer::Stats http = api.httpStats();
        Metrics::family(out, "meterdesk_http_connections_open", "gauge",
                        "Client connections open now.");
        Metrics::sample(out, "meterdesk_http_connections_open", {}, double(http.open));
        Metrics::family(out, "meterdesk_http_connections_refused_total", "counter",
                        "Connections turned away, by the limit that refused them.");
        Metrics::sample(out, "meterdesk_http_connections_refused_total", "limit=\"total\"",
                        double(http.refused - http.refusedPerAddress));
        Metrics::sample(out, "meterdesk_http_connections_refused_total", "limit=\"per_address\"",
                        double(http.refusedPerAddress));
        Metrics::family(out, "meterdesk_database_errors_total", "counter",
                        "Statements the database refused or could not run.");
        Metrics::sample(out, "meterdesk_database_errors_total", {},
                        double(engine::databaseErrorCount()));
        if (webhooks) {
            const auto attempts = webhooks->attempts();
            Metrics::family(out, "meterdesk_webhook_attempts_total", "counter",
                            "Webhook delivery attempts by this server, by outcome.");
            Metrics::sample(out, "meterdesk_webhook_attempts_total", "outcome=\"delivered\"",
                            double(attempts.delivered));
            Metrics::sample(out, "meterdesk_webhook_attempts_total", "outcome=\"failed\"",
                            double(attempts.failed));
        }
    });
}

} // namespace md::server
