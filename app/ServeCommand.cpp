// meterdesk-server serve: the API, its portal pages, the webhook senders,
// the request log and the metrics, until SIGTERM or SIGINT.
#include "app/ServerCommands.h"

#include "services/server/ApiServer.h"
#include "services/server/LimitOptions.h"
#include "services/server/MetricsServer.h"
#include "services/server/ShutdownSignals.h"
#include "services/server/WebhookSender.h"

#include <QCoreApplication>
#include <QFile>

namespace md::cli {

using namespace Qt::StringLiterals;

namespace {

struct Address
{
    QHostAddress host;
    quint16 port = 0;
    QString shown; // as a URL writes it ([::1] for IPv6)
};

// HOST:PORT ([::1]:PORT for IPv6; localhost means 127.0.0.1), or none.
std::optional<Address> addressOf(const QString &text)
{
    const qsizetype colon = text.lastIndexOf(u':');
    bool portOk = false;
    const uint port = colon > 0 ? text.mid(colon + 1).toUInt(&portOk) : 0;
    QString host = colon > 0 ? text.left(colon) : QString();
    if (host.startsWith(u'[') && host.endsWith(u']'))
        host = host.mid(1, host.size() - 2);
    const QHostAddress address(host == "localhost"_L1 ? u"127.0.0.1"_s : host);
    if (!portOk || port > 65535 || address.isNull())
        return std::nullopt;
    return Address{address, quint16(port),
                   address.protocol() == QAbstractSocket::IPv6Protocol ? u'[' + host + u']' : host};
}

} // namespace

int serveCommand(const QString &database, const ServeOptions &options)
{
    const auto address = addressOf(options.listen);
    if (!address)
        return usage(u"--listen takes HOST:PORT, e.g. 127.0.0.1:8080 (port 0 picks a free one)"_s);
    const auto metricsAddress = addressOf(options.metricsListen);
    if (!options.metricsListen.isEmpty() && !metricsAddress)
        return usage(u"--metrics-listen takes HOST:PORT, e.g. 127.0.0.1:9464"_s);
    std::unique_ptr<server::RequestLog> log;
    if (options.accessLog != "off"_L1) {
        auto opened = server::RequestLog::open(options.accessLog);
        if (!opened)
            return fail(opened.error());
        log = std::move(opened).value();
    }
    if (options.tlsCert.isEmpty() != options.tlsKey.isEmpty())
        return usage(u"give both --tls-cert and --tls-key, or neither"_s);
    if (options.workers < 1 || options.workers > 256)
        return usage(u"--workers takes a number from 1 to 256"_s);
    if (const QUrl url(options.publicUrl);
        !options.publicUrl.isEmpty() &&
        (!url.isValid() || (url.scheme() != "https"_L1 && url.scheme() != "http"_L1)))
        return usage(u"--public-url takes the http(s) URL clients reach this server at"_s);
    const QUrl stripe(options.stripeApiBase);
    if (!options.stripeApiBase.isEmpty() &&
        (!stripe.isValid() || stripe.host().isEmpty() ||
         (stripe.scheme() != "https"_L1 && stripe.scheme() != "http"_L1) ||
         (!stripe.path().isEmpty() && stripe.path() != "/"_L1)))
        return usage(u"--stripe-api-base takes scheme://host[:port], without /v1"_s);

    int exitCode = 0;
    auto engine = openEngine(database, exitCode);
    if (!engine)
        return exitCode;
    if (!useCatalogue(*engine, options.catalogue))
        return ExitFailed;
    engine->trackQueue().startWorker(); // also applies calls queued before a restart
    engine->startTrackWriter();         // before clients can take every descriptor
    engine->startClock();               // resets and expiries due, applied as they come
    engine->setWebhookPolicy(options.webhooks);
    if (!options.stripeApiBase.isEmpty())
        engine->setStripeBase(stripe);
    server::WebhookSender::Options senderOptions;
    senderOptions.caFile = options.webhooksCaFile;
    server::WebhookSender webhooks(*engine, senderOptions);
    webhooks.start(); // also sends what an earlier run left pending
    http::HttpLimits limits = options.limits;
    if (const auto lowered = server::LimitOptions::fitToDescriptors(limits))
        err() << "meterdesk-server: " << *lowered << Qt::endl;
    server::Metrics metrics;
    server::ApiServer api(*engine, {limits, options.workers, log.get(),
                                    options.metricsListen.isEmpty() ? nullptr : &metrics});
    if (!options.tlsCert.isEmpty()) {
        QFile certFile(options.tlsCert);
        QFile keyFile(options.tlsKey);
        if (!certFile.open(QIODevice::ReadOnly) || !keyFile.open(QIODevice::ReadOnly))
            return fail(api::ApiError::internal(u"cannot read the TLS certificate or key"_s));
        // The whole chain (a fullchain.pem), so clients that trust only the
        // root still verify; an RSA or an EC key.
        if (auto tls = api.useTls(certFile.readAll(), keyFile.readAll()); !tls)
            return fail(tls.error());
    }
    auto listening = api.listen(address->host, address->port);
    if (!listening)
        return fail(listening.error());
    std::unique_ptr<server::MetricsServer> metricsServer;
    QString metricsUrl;
    if (metricsAddress) {
        server::MetricsServer::watch(metrics, *engine, api, &webhooks);
        metricsServer = std::make_unique<server::MetricsServer>(metrics, http::HttpLimits{});
        auto serving = metricsServer->listen(metricsAddress->host, metricsAddress->port);
        if (!serving)
            return fail(serving.error());
        metricsUrl = u"http://%1:%2/metrics"_s.arg(metricsAddress->shown).arg(serving.value());
    }
    server::ShutdownSignals signals;
    QObject::connect(&signals, &server::ShutdownSignals::received, &api,
                     &server::ApiServer::shutdown);
    QObject::connect(&api, &server::ApiServer::drained, qApp, &QCoreApplication::quit,
                     Qt::QueuedConnection);
    const QString listenUrl =
        u"%1://%2:%3"_s.arg(options.tlsCert.isEmpty() ? u"http"_s : u"https"_s, address->shown)
            .arg(listening.value());
    engine->setPortalBase(QUrl(options.publicUrl.isEmpty() ? listenUrl : options.publicUrl));
    out() << "listening on " << listenUrl << Qt::endl;
    if (!metricsUrl.isEmpty())
        out() << "metrics on " << metricsUrl << Qt::endl;
    return QCoreApplication::exec();
}

} // namespace md::cli
