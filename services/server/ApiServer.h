// The HTTP front of the engine: the seven routes of billing-api.md §4 and
// Meterdesk's read extensions, bearer-key authentication, JSON errors for
// everything (401, 403, 404, 405, 413, 400), and engine work on a bounded pool
// of worker threads, each with its own database connection.
#pragma once

#include "services/api/Result.h"
#include "services/engine/BillingService.h"

#include <QHostAddress>
#include <QHttpServer>
#include <QObject>
#include <QThreadPool>

#include <atomic>

class QSslCertificate;
class QSslKey;

namespace md::server {

class ApiServer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ApiServer)

public:
    struct Options
    {
        qsizetype maxBodyBytes = 1024 * 1024; // decisions.md: 1 MiB
        int workers = 4;
    };

    ApiServer(engine::Engine &engine, Options options, QObject *parent = nullptr);
    ~ApiServer() override;

    void useTls(const QList<QSslCertificate> &chain, const QSslKey &key);
    // The port listened on (the chosen one when `port` is 0), or an error.
    api::Result<quint16> listen(const QHostAddress &address, quint16 port);
    // Stops accepting connections; drained() follows once no request is in flight.
    void shutdown();
    int inFlight() const { return m_inFlight.load(); }

    // A route's answer: a JSON body, or none for 204 No Content.
    using Answer = api::Result<std::optional<QJsonObject>>;

Q_SIGNALS:
    void drained();

private:
    // What a route may read of the request besides its body.
    struct RequestInfo
    {
        std::optional<QString> idempotencyKey;
    };
    using Work = std::function<Answer(engine::BillingService &, const engine::KeyContext &,
                                      const QJsonValue &body, const RequestInfo &info)>;
    void addRoutes();
    void addRoute(const QString &path, bool versionRequired, Work work);
    QFuture<QHttpServerResponse> dispatch(const QHttpServerRequest &request, bool versionRequired,
                                          Work work);
    void finished();

    engine::Engine &m_engine;
    engine::BillingService m_service;
    Options m_options;
    QHttpServer m_http;
    QThreadPool m_pool;
    std::atomic<int> m_inFlight{0};
    std::atomic<bool> m_stopping{false};
    bool m_tls = false;
};

} // namespace md::server
