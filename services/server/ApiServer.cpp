#include "services/server/ApiServer.h"

#include "services/server/ApiAnswers.h"
#include "services/server/HealthChecks.h"
#include "services/server/PortalServer.h"
#include "services/server/RequestHeaders.h"

#include <QDateTime>

namespace md::server {

using namespace Qt::StringLiterals;
using api::ApiError;
using engine::ApiOperations;

namespace {

// What a route asks of the key, refused as ApiOperations refuses it.
std::optional<ApiError> refusal(const Access &access, const engine::KeyContext &key)
{
    if (auto denied = key.missingScope(access.scopes))
        return denied;
    if (access.sandboxKey && key.scope.env != engine::Environment::Sandbox)
        return sandboxOnly();
    return access.liveKey ? key.missingLiveKey() : std::nullopt;
}

// usage.batch takes up to 1,000 events in one body: 4 MiB (4 KiB an event),
// or the server's own limit when that is larger. Only that path.
http::HttpLimits withBatchBodies(http::HttpLimits limits)
{
    constexpr std::size_t BatchBodyBytes = 4 * 1024 * 1024;
    limits.largerBodies.emplace_back("/v1/meterdesk/usage.batch",
                                     std::max(limits.maxBodyBytes, BatchBodyBytes));
    return limits;
}

} // namespace

ApiServer::ApiServer(engine::Engine &engine, Options options, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_log(options.log)
    , m_metrics(options.metrics)
    , m_service(engine)
    , m_work(options.workers)
    , m_health(engine, [this](std::chrono::milliseconds delay,
                              std::function<void()> work) { m_http.after(delay, std::move(work)); })
    , m_http(withBatchBodies(options.limits),
             [this](http::HttpRequest request, http::HttpResponder responder) {
                 handle(std::move(request), std::move(responder));
             })
{}

ApiServer::~ApiServer()
{
    // Before m_http goes: the work and the probes answer through it.
    m_work.stopAndWait();
    m_health.stop();
}

api::Result<api::Done> ApiServer::useTls(const QByteArray &certificateChainPem,
                                         const QByteArray &privateKeyPem)
{
    return m_http.useTls(certificateChainPem, privateKeyPem);
}

api::Result<quint16> ApiServer::listen(const QHostAddress &address, quint16 port)
{
    auto listening = m_http.listen(address, port);
    if (!listening)
        return ApiError::internal(listening.error().message + u"; is the port in use?"_s);
    return listening;
}

void ApiServer::shutdown()
{
    // From now on the work refused is answered 503, so the calls in
    // flight finish and the server can exit.
    m_work.stop();
    m_http.shutdown([this] {
        // After the last answer left: on the network thread, so queue it.
        QMetaObject::invokeMethod(this, &ApiServer::drained, Qt::QueuedConnection);
    });
}

http::HttpResponder ApiServer::observed(const http::HttpRequest &request,
                                        const std::shared_ptr<Seen> &seen,
                                        http::HttpResponder responder)
{
    if (!m_log && !m_metrics)
        return http::HttpResponder([seen, inner = std::move(responder)](http::HttpResponse answer) {
            answer.headers.append({"x-request-id", seen->requestId});
            inner.send(std::move(answer));
        });
    return http::HttpResponder([this, seen, method = request.method.left(16),
                                remote = request.peer.toString(),
                                inner = std::move(responder)](http::HttpResponse answer) {
        answer.headers.append({"x-request-id", seen->requestId});
        const qint64 micros = seen->timer.nsecsElapsed() / 1000;
        if (m_metrics)
            m_metrics->observe(seen->route, answer.status, micros);
        if (m_log)
            m_log->write({seen->arrivedMs, seen->requestId, remote, method, seen->route,
                          answer.status, answer.body.size(), micros, seen->keyId});
        inner.send(std::move(answer));
    });
}

void ApiServer::handle(http::HttpRequest request, http::HttpResponder plain)
{
    auto seen = std::make_shared<Seen>();
    seen->timer.start();
    seen->requestId = requestIdOf(request.header("x-request-id"));
    if (m_log)
        seen->arrivedMs = QDateTime::currentMSecsSinceEpoch();
    const auto route = m_routes.find(request.path);
    if (route)
        seen->route = route->name;
    else if (request.path.startsWith("/portal/"))
        seen->route = "/portal/{token}";
    else if (request.path == "/healthz" || request.path == "/readyz")
        seen->route = request.path;
    else
        seen->route = "unknown"; // a scanner's paths would make a metric per path
    const http::HttpResponder responder = observed(request, seen, std::move(plain));
    // Billing portal pages: GET, no key (the link's token is the credential).
    if (request.path.startsWith("/portal/")) {
        if (request.method != "GET")
            return responder.send(methodNotAllowed(request.path, "GET"));
        const QString token =
            QString::fromUtf8(QByteArray::fromPercentEncoding(request.path.mid(8)));
        if (!m_work.start(
                [this, token, responder] { responder.send(PortalServer::page(m_engine, token)); }))
            responder.send(errorAnswer(shuttingDown()));
        return;
    }
    // Health, for load balancers: GET or HEAD, no key.
    if (request.path == "/healthz" || request.path == "/readyz") {
        if (request.method != "GET" && request.method != "HEAD")
            return responder.send(methodNotAllowed(request.path, "GET, HEAD"));
        if (request.path == "/healthz")
            return responder.send(HealthChecks::live());
        // A server shutting down is not ready: its balancer stops sending.
        if (m_work.stopping())
            return responder.send(errorAnswer(shuttingDown()));
        return m_health.ready(responder);
    }
    if (!route)
        return responder.send(errorAnswer(ApiError::notFound(
            api::ErrorCode::NotFound,
            u"there is no route %1; the API lives under /v1/ (see docs/openapi.yaml)"_s.arg(
                QString::fromUtf8(request.path.left(200))))));
    if (request.method != "POST")
        return responder.send(methodNotAllowed(request.path, "POST"));
    run(request, *route, responder, seen);
}

void ApiServer::run(const http::HttpRequest &request, const Route &route,
                    const http::HttpResponder &responder, const std::shared_ptr<Seen> &seen)
{
    const bool started =
        m_work.start([this, body = request.body, query = request.query, route, seen,
                      headers = RequestHeaders::read(request, route.versionRequired), responder] {
            // The key first: a caller without one learns nothing else.
            auto key = m_engine.authenticate(headers.secret);
            if (!key)
                return responder.send(errorAnswer(key.error()));
            seen->keyId = key.value().keyId;
            // Then whether it may call the route at all, before the headers,
            // the path's id or the body are read (docs/api.md, "Keys and scopes").
            if (const auto refused = refusal(route.access, key.value()))
                return responder.send(errorAnswer(*refused));
            if (headers.problem)
                return responder.send(errorAnswer(*headers.problem));
            const api::JsonReader reader =
                api::JsonReader::fromBody(body.isEmpty() ? QByteArray("{}") : body);
            if (!reader.ok())
                return responder.send(errorAnswer(*reader.error()));
            const RequestInfo info{headers.idempotencyKey, query};
            if (!route.later)
                return responder.send(response(route.work(m_service, key.value(), reader, info)));
            route.later(m_service, key.value(), reader, info,
                        [responder, held = m_work.hold()](Answer answer) {
                            responder.send(response(answer));
                        });
        });
    if (!started)
        responder.send(errorAnswer(shuttingDown()));
}

http::HttpResponse ApiServer::response(const Answer &answer)
{
    if (!answer)
        return errorAnswer(answer.error());
    if (!answer.value().json)
        return {204, {}, {}, {}, false};
    return jsonAnswer(answer.value().status, *answer.value().json);
}

} // namespace md::server
