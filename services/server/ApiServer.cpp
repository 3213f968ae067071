#include "services/server/ApiServer.h"

#include "services/api/WireCodec.h"
#include "services/server/LowDelayTcpServer.h"
#include "services/server/PortalServer.h"

#include <QHttpServerResponder>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QTcpServer>
#include <QtConcurrent/QtConcurrentRun>

namespace md::server {

using namespace Qt::StringLiterals;
using api::ApiError;

namespace {

QHttpServerResponse errorResponse(const ApiError &error)
{
    if (error.status != 500)
        return QHttpServerResponse(error.toJson(), QHttpServerResponse::StatusCode(error.status));
    // An internal error's words (the database's, say) name tables and values:
    // they go to the log under a reference, and the caller gets the reference.
    const QString reference = QString::number(QRandomGenerator::global()->generate(), 16);
    qWarning("internal error %s: %s", qPrintable(reference), qPrintable(error.message));
    const ApiError shown{
        500, error.code,
        u"internal error (reference %1); the server's log has the details"_s.arg(reference)};
    return QHttpServerResponse(shown.toJson(),
                               QHttpServerResponse::StatusCode::InternalServerError);
}

QFuture<QHttpServerResponse> ready(QHttpServerResponse response)
{
    return QtFuture::makeReadyFuture(std::move(response));
}

// The JSON of a decoded value, or its error, for a route's work function.
template <typename T> ApiServer::Answer json(const api::Result<T> &result)
{
    if (!result)
        return result.error();
    if constexpr (std::is_same_v<T, api::TrackTokensResponse>) {
        if (result.value().queued)
            return std::optional<QJsonObject>(); // async: 204, no body
    }
    return std::optional<QJsonObject>(result.value().toJson());
}

// Decodes `body` as T, then runs `call` with it.
template <typename T, typename F> ApiServer::Answer withBody(const QJsonValue &body, F &&call)
{
    auto request = api::decode<T>(body);
    if (!request)
        return request.error();
    return json(call(request.value()));
}

// A path segment as sent, percent-decoded.
QString segment(const QString &raw)
{
    return QUrl::fromPercentEncoding(raw.toUtf8());
}

} // namespace

ApiServer::ApiServer(engine::Engine &engine, Options options, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_service(engine)
    , m_options(options)
{
    m_pool.setMaxThreadCount(std::max(1, options.workers));
    m_pool.setExpiryTimeout(-1); // keep each worker's database connection
    addRoutes();
    PortalServer::addRoute(m_http, m_engine, m_pool);
    m_http.setMissingHandler(
        [](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
            const ApiError error = ApiError::notFound(
                u"not_found"_s,
                u"there is no route %1; the API lives under /v1/ (see docs/openapi.yaml)"_s.arg(
                    request.url().path()));
            responder.write(QJsonDocument(error.toJson()).toJson(QJsonDocument::Compact),
                            "application/json", QHttpServerResponder::StatusCode::NotFound);
        });
}

ApiServer::~ApiServer()
{
    m_pool.waitForDone();
}

void ApiServer::useTls(const QList<QSslCertificate> &chain, const QSslKey &key)
{
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    configuration.setLocalCertificateChain(chain);
    configuration.setPrivateKey(key);
    m_http.sslSetup(configuration);
    m_tls = true;
}

api::Result<quint16> ApiServer::listen(const QHostAddress &address, quint16 port)
{
    quint16 chosen = 0;
    if (m_tls) {
        chosen = m_http.listen(address, port);
    } else {
        // Plain HTTP runs on our own listener, tuned against TCP delays.
        auto *server = new LowDelayTcpServer(this);
        if (server->listen(address, port)) {
            m_http.bind(server);
            chosen = server->serverPort();
        } else {
            delete server;
        }
    }
    if (chosen == 0)
        return ApiError::internal(
            u"cannot listen on %1:%2; is the port in use?"_s.arg(address.toString()).arg(port));
    return chosen;
}

void ApiServer::shutdown()
{
    m_stopping = true;
    for (QTcpServer *server : m_http.servers())
        server->close();
    if (m_inFlight.load() == 0)
        Q_EMIT drained();
}

void ApiServer::finished()
{
    if (--m_inFlight == 0 && m_stopping)
        QMetaObject::invokeMethod(this, &ApiServer::drained, Qt::QueuedConnection);
}

QFuture<QHttpServerResponse> ApiServer::dispatch(const QHttpServerRequest &request,
                                                 bool versionRequired, Work work)
{
    if (request.method() != QHttpServerRequest::Method::Post)
        return ready(
            errorResponse({405, u"method_not_allowed"_s,
                           u"%1 takes POST with a JSON body"_s.arg(request.url().path())}));
    if (m_stopping) // answered at once, so the calls in flight finish and the server can exit
        return ready(errorResponse(
            {503, u"shutting_down"_s, u"this server is shutting down; send the request again"_s}));
    if (request.body().size() > m_options.maxBodyBytes)
        return ready(errorResponse(
            {413, u"payload_too_large"_s,
             u"the body is %1 bytes; this server accepts at most %2"_s.arg(request.body().size())
                 .arg(m_options.maxBodyBytes)}));
    const QByteArray authorization = request.value("authorization");
    const QByteArray version = request.value("x-api-version");
    RequestInfo info;
    if (const QByteArray key = request.value("idempotency-key"); !key.isEmpty())
        info.idempotencyKey = QString::fromUtf8(key.left(255));
    const QByteArray body = request.body();
    ++m_inFlight;
    return QtConcurrent::run(&m_pool, [this, authorization, version, versionRequired, body, info,
                                       work = std::move(work)] {
        const auto respond = [&]() -> QHttpServerResponse {
            const QString secret = authorization.startsWith("Bearer ")
                                       ? QString::fromUtf8(authorization.mid(7)).trimmed()
                                       : QString();
            auto key = m_engine.authenticate(secret);
            if (!key)
                return errorResponse(key.error());
            // decisions.md: required on balances.list, 2.4.0 assumed elsewhere.
            if (version.isEmpty() ? versionRequired
                                  : !(version == "2.4" || version.startsWith("2.4.")))
                return errorResponse({400, u"invalid_api_version"_s,
                                      version.isEmpty()
                                          ? u"send the header x-api-version: 2.4.0"_s
                                          : u"x-api-version %1 is not supported; send 2.4.0"_s.arg(
                                                QString::fromLatin1(version.left(32)))});
            const api::JsonReader reader =
                api::JsonReader::fromBody(body.isEmpty() ? QByteArray("{}") : body);
            if (!reader.ok())
                return errorResponse(*reader.error());
            auto result = work(m_service, key.value(), reader.raw(), info);
            if (!result)
                return errorResponse(result.error());
            if (!result.value())
                return QHttpServerResponse(QHttpServerResponse::StatusCode::NoContent);
            return QHttpServerResponse(*result.value());
        };
        QHttpServerResponse response = respond();
        finished();
        return response;
    });
}

void ApiServer::addRoute(const QString &path, bool versionRequired, Work work)
{
    m_http.route(path, [this, versionRequired, work](const QHttpServerRequest &request) {
        return dispatch(request, versionRequired, work);
    });
}

void ApiServer::addRoutes()
{
    using engine::BillingService;
    using engine::KeyContext;

    // Spec endpoints (billing-api.md §4).
    addRoute(
        u"/v1/balances.list"_s, true,
        [](BillingService &s, const KeyContext &k, const QJsonValue &body, const RequestInfo &) {
            return withBody<api::ListBalancesRequest>(
                body, [&](const auto &r) { return s.listBalances(k, r); });
        });
    addRoute(
        u"/v1/billing.import"_s, false,
        [](BillingService &s, const KeyContext &k, const QJsonValue &body, const RequestInfo &) {
            return withBody<api::ImportCustomerRequest>(
                body, [&](const auto &r) { return s.importCustomer(k, r); });
        });
    addRoute(u"/v1/balances.track_tokens"_s, false,
             [](BillingService &s, const KeyContext &k, const QJsonValue &body,
                const RequestInfo &info) {
                 return withBody<api::TrackTokensRequest>(
                     body, [&](const auto &r) { return s.trackTokens(k, r, info.idempotencyKey); });
             });
    addRoute(
        u"/v1/rewards.update"_s, false,
        [](BillingService &s, const KeyContext &k, const QJsonValue &body, const RequestInfo &) {
            return withBody<api::UpdateRewardRequest>(
                body, [&](const auto &r) { return s.updateReward(k, r); });
        });
    addRoute(
        u"/v1/platform/organizations/stripe"_s, false,
        [](BillingService &s, const KeyContext &k, const QJsonValue &body, const RequestInfo &) {
            return withBody<api::LinkOrganizationRequest>(
                body, [&](const auto &r) { return s.linkOrganization(k, r); });
        });
    m_http.route(u"/v1/customers/<arg>/billing_portal"_s,
                 [this](const QString &customerId, const QHttpServerRequest &request) {
                     return dispatch(
                         request, false,
                         [id = segment(customerId)](BillingService &s, const KeyContext &k,
                                                    const QJsonValue &body, const RequestInfo &) {
                             return withBody<api::BillingPortalRequest>(
                                 body, [&](const auto &r) { return s.billingPortal(k, id, r); });
                         });
                 });
    m_http.route(u"/v1/products/<arg>"_s, [this](const QString &productId,
                                                 const QHttpServerRequest &request) {
        return dispatch(request, false,
                        [id = segment(productId)](BillingService &s, const KeyContext &k,
                                                  const QJsonValue &body, const RequestInfo &) {
                            return withBody<api::UpdateProductRequest>(
                                body, [&](const auto &r) { return s.updateProduct(k, id, r); });
                        });
    });

    // Meterdesk extensions (docs/openapi.yaml).
    // Any valid key may ask who it is: the answer is only its own identity.
    addRoute(u"/v1/meterdesk/whoami"_s, false,
             [](BillingService &, const KeyContext &k, const QJsonValue &, const RequestInfo &) {
                 return Answer(QJsonObject{{u"organization"_s, QJsonObject{{u"id"_s, k.orgId},
                                                                           {u"slug"_s, k.orgSlug},
                                                                           {u"name"_s, k.orgName}}},
                                           {u"environment"_s, k.scope.envWord()},
                                           {u"scopes"_s, QJsonArray::fromStringList(k.scopes)}});
             });
    // Any valid key, too: the version and price catalogue are no organization's.
    addRoute(u"/v1/meterdesk/about"_s, false,
             [](BillingService &s, const KeyContext &, const QJsonValue &, const RequestInfo &) {
                 return Answer(s.about().toJson());
             });
    addRoute(
        u"/v1/meterdesk/customers.list"_s, false,
        [](BillingService &s, const KeyContext &k, const QJsonValue &body, const RequestInfo &) {
            return withBody<api::PageRequest>(body,
                                              [&](const auto &r) { return s.listCustomers(k, r); });
        });
    addRoute(u"/v1/meterdesk/customers.get"_s, false,
             [](BillingService &s, const KeyContext &k, const QJsonValue &body,
                const RequestInfo &) -> Answer {
                 const api::JsonReader reader(body);
                 const QString id = reader.field("customer_id"_L1).string();
                 if (!reader.ok())
                     return *reader.error();
                 return json(s.customer(k, id));
             });
    addRoute(u"/v1/meterdesk/features.list"_s, false,
             [](BillingService &s, const KeyContext &k, const QJsonValue &, const RequestInfo &) {
                 return json(s.listFeatures(k));
             });
    addRoute(u"/v1/meterdesk/products.list"_s, false,
             [](BillingService &s, const KeyContext &k, const QJsonValue &, const RequestInfo &) {
                 return json(s.listProducts(k));
             });
    addRoute(u"/v1/meterdesk/rewards.list"_s, false,
             [](BillingService &s, const KeyContext &k, const QJsonValue &, const RequestInfo &) {
                 return json(s.listRewards(k));
             });
    addRoute(u"/v1/meterdesk/organizations.list"_s, false,
             [](BillingService &s, const KeyContext &k, const QJsonValue &, const RequestInfo &) {
                 return json(s.listOrganizations(k));
             });
    addRoute(u"/v1/meterdesk/models.list"_s, false,
             [](BillingService &s, const KeyContext &k, const QJsonValue &, const RequestInfo &) {
                 return json(s.listModels(k));
             });
    addRoute(
        u"/v1/meterdesk/track_tokens.price"_s, false,
        [](BillingService &s, const KeyContext &k, const QJsonValue &body, const RequestInfo &) {
            return withBody<api::TrackTokensRequest>(
                body, [&](const auto &r) { return s.priceCall(k, r); });
        });
    addRoute(
        u"/v1/meterdesk/usage_events.list"_s, false,
        [](BillingService &s, const KeyContext &k, const QJsonValue &body, const RequestInfo &) {
            return withBody<api::PageRequest>(
                body, [&](const auto &r) { return s.listUsageEvents(k, r); });
        });
}

} // namespace md::server
