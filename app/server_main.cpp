// meterdesk-server: command line for workspaces and API keys over the engine.
#include "services/api/Version.h"
#include "services/engine/Engine.h"
#include "services/engine/ledger/LedgerRepair.h"
#include "services/engine/ledger/LedgerVerifier.h"
#include "services/engine/workspace/DemoWorkspace.h"
#include "services/server/ApiServer.h"
#include "services/server/KeyCommand.h"
#include "services/server/LimitOptions.h"
#include "services/server/MetricsServer.h"
#include "services/server/ShutdownSignals.h"
#include "services/server/WebhookSender.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QTextStream>

using namespace Qt::StringLiterals;
using namespace md;

namespace {

// Exit codes: 0 done, 1 the operation failed, 2 the command line is wrong.
constexpr int ExitFailed = 1;
constexpr int ExitUsage = 2;

QTextStream &out()
{
    static QTextStream stream(stdout);
    return stream;
}

QTextStream &err()
{
    static QTextStream stream(stderr);
    return stream;
}

int fail(const api::ApiError &error)
{
    err() << "meterdesk-server: " << error.message << Qt::endl;
    return ExitFailed;
}

int usage(const QString &problem)
{
    err() << "meterdesk-server: " << problem << "\n"
          << "Try 'meterdesk-server --help' for the commands and options." << Qt::endl;
    return ExitUsage;
}

std::unique_ptr<engine::Engine> openEngine(const QString &database, int &exitCode)
{
    auto engine = std::make_unique<engine::Engine>(database);
    if (auto opened = engine->open(); !opened) {
        exitCode = fail(opened.error());
        return nullptr;
    }
    return engine;
}

// Prices calls with the catalogue at `path` (none: the bundled one); false,
// having said why, when it cannot be loaded.
bool useCatalogue(engine::Engine &engine, const QString &path)
{
    if (path.isEmpty())
        return true;
    auto catalogue = engine::PriceCatalogue::fromFile(path);
    if (!catalogue) {
        fail(api::ApiError::internal(
            u"the price catalogue %1 was not loaded: %2"_s.arg(path, catalogue.error().message)));
        return false;
    }
    engine.setCatalogue(std::make_shared<engine::PriceCatalogue>(catalogue.value()));
    return true;
}

// The trial balance (docs/ledger.md): 0 when every balance is what its
// ledger adds up to, 1 with each difference named when not.
int verifyLedger(engine::Engine &engine)
{
    auto report = engine.withConnection([&](const QSqlDatabase &db) {
        return engine::LedgerVerifier::verify(db, engine.dialect());
    });
    if (!report)
        return fail(report.error());
    const engine::LedgerVerifier::Report &checked = report.value();
    if (checked.balanced()) {
        out() << "ledger balanced: " << checked.balances << " balances, " << checked.entries
              << " ledger entries" << Qt::endl;
        return 0;
    }
    constexpr qsizetype Shown = 50;
    for (const QString &difference :
         checked.differences.first(std::min(Shown, checked.differences.size())))
        out() << difference << '\n';
    if (checked.differences.size() > Shown)
        out() << "... and " << checked.differences.size() - Shown << " more\n";
    err() << "meterdesk-server: the ledger is out of balance: " << checked.differences.size()
          << " differences over " << checked.balances << " balances" << Qt::endl;
    return ExitFailed;
}

struct DemoSize
{
    int customers = 400;
    int balancesPerCustomer = 0;
};

int workspaceCommand(const QStringList &args, const QString &database, const DemoSize &size,
                     const QString &catalogue)
{
    const QString action = args.value(1);
    int exitCode = 0;
    if (action == "load"_L1) {
        if (args.size() != 3)
            return usage(u"usage: workspace load --database D FILE"_s);
        auto engine = openEngine(database, exitCode);
        if (!engine)
            return exitCode;
        auto loaded = engine->loadWorkspaceFile(args.at(2));
        if (!loaded)
            return fail(loaded.error());
        out() << "loaded " << loaded.value().organizations << " organizations, "
              << loaded.value().customers << " customers, " << loaded.value().balances
              << " balances, " << loaded.value().apiKeys << " API keys" << Qt::endl;
        return 0;
    }
    if (action == "dump"_L1) {
        if (args.size() > 3)
            return usage(u"usage: workspace dump --database D [FILE]"_s);
        auto engine = openEngine(database, exitCode);
        if (!engine)
            return exitCode;
        // Async calls already answered 204 are owed to the balances: apply
        // them first (priced as the server would: give it the same
        // --catalogue), so the dump holds them (a dump has no queue).
        if (!useCatalogue(*engine, catalogue))
            return ExitFailed;
        auto drained = engine->trackQueue().drain();
        if (!drained)
            return fail(drained.error());
        if (drained.value() > 0)
            err() << "meterdesk-server: applied " << drained.value()
                  << " queued track_tokens calls before dumping" << Qt::endl;
        auto dumped = engine->dumpWorkspace();
        if (!dumped)
            return fail(dumped.error());
        const QByteArray json = dumped.value().toJson(true);
        if (args.size() == 2) {
            QFile stdoutFile;
            if (!stdoutFile.open(stdout, QIODevice::WriteOnly) ||
                stdoutFile.write(json) != json.size())
                return fail(api::ApiError::internal(u"cannot write to standard output"_s));
            return 0;
        }
        QFile file(args.at(2));
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
            file.write(json) != json.size())
            return fail(api::ApiError::internal(
                u"cannot write %1: %2"_s.arg(args.at(2), file.errorString())));
        return 0;
    }
    if (action == "demo"_L1) {
        if (args.size() != 2)
            return usage(u"usage: workspace demo --database D"_s);
        auto engine = openEngine(database, exitCode);
        if (!engine)
            return exitCode;
        const engine::NewApiKey key = engine::ApiKeys::generate(engine::Environment::Sandbox);
        engine::DemoOptions options;
        options.customers = size.customers;
        options.balancesPerCustomer = size.balancesPerCustomer;
        options.nowMs = QDateTime::currentMSecsSinceEpoch();
        options.testSecret = key.secret;
        auto loaded = engine->loadWorkspace(engine::DemoWorkspace::build(options));
        if (!loaded)
            return fail(loaded.error());
        out() << "loaded the demo workspace: " << loaded.value().customers << " customers, "
              << loaded.value().balances << " balances\n"
              << "test API key (every scope; shown only now): " << key.secret << Qt::endl;
        return 0;
    }
    if (action == "verify"_L1) {
        if (args.size() != 2)
            return usage(u"usage: workspace verify --database D"_s);
        auto engine = openEngine(database, exitCode);
        if (!engine)
            return exitCode;
        return verifyLedger(*engine);
    }
    if (action == "repair"_L1) {
        if (args.size() != 2)
            return usage(u"usage: workspace repair --database D"_s);
        auto engine = openEngine(database, exitCode);
        if (!engine)
            return exitCode;
        auto repaired = engine->withConnection([&](const QSqlDatabase &db) {
            return engine::LedgerRepair::repair(db, engine->dialect(), engine->now());
        });
        if (!repaired)
            return fail(repaired.error());
        for (const QString &line : std::as_const(repaired.value().repaired))
            out() << line << '\n';
        out() << "repaired " << repaired.value().repaired.size() << " balances" << Qt::endl;
        return verifyLedger(*engine);
    }
    return usage(
        u"unknown workspace action \"%1\"; expected load, dump, demo, verify or repair"_s.arg(
            action));
}

int keysCommand(const QString &database, const server::KeyCommandArgs &args)
{
    if (const auto problem = server::KeyCommand::usageProblem(args))
        return usage(*problem);
    int exitCode = 0;
    auto engine = openEngine(database, exitCode);
    if (!engine)
        return exitCode;
    return server::KeyCommand(*engine, out(), err()).run(args);
}

struct ServeOptions
{
    QString listen;
    QString catalogue;
    QString tlsCert;
    QString tlsKey;
    int workers = 4;
    QString publicUrl; // where portal links point; the listen address when empty
    http::HttpLimits limits;
    engine::WebhookPolicy webhooks;
    QString webhooksCaFile;
    QString accessLog = u"off"_s; // off, stderr or a file
    QString metricsListen;        // HOST:PORT of GET /metrics; none when empty
};

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

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(u"meterdesk-server"_s);
    QCoreApplication::setApplicationVersion(md::api::meterdeskVersion());

    QCommandLineParser parser;
    // Laid out for people and for help2man, which writes the man page from it.
    parser.setApplicationDescription(
        u"Meterdesk billing engine: workspaces, API keys and the HTTP API.\n"
        "\n"
        "Commands (each needs --database D):\n"
        "  workspace load FILE    Load a workspace file, all or nothing.\n"
        "  workspace dump [FILE]  Write the whole workspace as JSON, to standard output\n"
        "                         without FILE; queued calls are applied first.\n"
        "  workspace demo         Load the built-in demo workspace and print a test key;\n"
        "                         --customers and --balances-per-customer size it.\n"
        "  workspace verify       Check every balance against what its ledger rows add\n"
        "                         up to (a trial balance); exit 1 naming each difference.\n"
        "  workspace repair       Take back to zero, with a compensating ledger entry,\n"
        "                         what was added to expired balances before that was\n"
        "                         refused; then verify as above.\n"
        "  keys list              List the API keys of --org SLUG --env test|live.\n"
        "  keys create            Create one [--scope S ...] [--name N] [--expires WHEN]\n"
        "                         and print its secret, shown only once.\n"
        "  keys revoke            Revoke key --id key_...: refused within a second.\n"
        "  keys roll              Give key --id a new secret (printed once); the old\n"
        "                         one works for --overlap SPAN more (default none).\n"
        "  serve                  Serve the API and billing portal pages on --listen\n"
        "                         HOST:PORT until SIGTERM or SIGINT, then answer the\n"
        "                         requests in flight and exit.\n"
        "\n"
        "D is a SQLite file path or a postgresql://user@host:port/database URL.\n"
        "\n"
        "Exit status:\n"
        "  0  Done; serve: stopped by SIGTERM or SIGINT.\n"
        "  1  The command failed; standard error says why.\n"
        "  2  The command line is wrong."_s);
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption database(u"database"_s, u"SQLite file or postgresql:// URL."_s,
                                      u"D"_s);
    const QCommandLineOption org(u"org"_s, u"Organization slug."_s, u"SLUG"_s);
    const QCommandLineOption env(u"env"_s, u"Environment: test or live."_s, u"ENV"_s);
    const QCommandLineOption scope(u"scope"_s, u"A scope the key holds (repeatable; default *)."_s,
                                   u"S"_s);
    const QCommandLineOption keyName(u"name"_s, u"keys create: what the key is for."_s, u"N"_s);
    const QCommandLineOption keyId(u"id"_s, u"keys revoke, roll: the key (key_...)."_s, u"ID"_s);
    const QCommandLineOption expires(
        u"expires"_s, u"keys create: when it stops working, ISO 8601 or a span (90d)."_s,
        u"WHEN"_s);
    const QCommandLineOption overlap(
        u"overlap"_s, u"keys roll: how long the old secret still works (1h, 7d)."_s, u"SPAN"_s);
    const QCommandLineOption customers(
        u"customers"_s, u"Demo: customers in the test environment."_s, u"N"_s, u"400"_s);
    const QCommandLineOption perCustomer(u"balances-per-customer"_s,
                                         u"Demo: pad every customer to M balance rows."_s, u"M"_s,
                                         u"0"_s);
    const QCommandLineOption listen(u"listen"_s, u"serve: address and port, HOST:PORT."_s,
                                    u"HOST:PORT"_s);
    const QCommandLineOption tlsCert(u"tls-cert"_s, u"serve: PEM certificate for HTTPS."_s, u"F"_s);
    const QCommandLineOption tlsKey(u"tls-key"_s, u"serve: PEM private key for HTTPS."_s, u"F"_s);
    const QCommandLineOption catalogue(
        u"catalogue"_s,
        u"serve, workspace dump: a models.dev price catalogue to use instead of the bundled one."_s,
        u"FILE"_s);
    const QCommandLineOption workers(
        u"workers"_s, u"serve: worker threads (each with its own connection)."_s, u"N"_s, u"4"_s);
    const QCommandLineOption publicUrl(
        u"public-url"_s, u"serve: the URL clients reach this server at, for portal links."_s,
        u"URL"_s);
    const QCommandLineOption webhooksAllowHttp(
        u"webhooks-allow-http"_s, u"serve: let webhook endpoints use plain http:// URLs."_s);
    const QCommandLineOption webhooksAllowPrivate(
        u"webhooks-allow-private"_s,
        u"serve: let webhooks go to loopback, private and link-local addresses."_s);
    const QCommandLineOption accessLog(
        u"access-log"_s,
        u"serve: one JSON line per request to stderr or a file (off, stderr or PATH)."_s,
        u"WHERE"_s, u"off"_s);
    const QCommandLineOption metricsListen(
        u"metrics-listen"_s, u"serve: Prometheus metrics on GET /metrics at HOST:PORT."_s,
        u"HOST:PORT"_s);
    const QCommandLineOption webhooksCaFile(
        u"webhooks-ca-file"_s,
        u"serve: PEM certificates webhook receivers may present, beside the system's."_s, u"F"_s);
    parser.addOptions({database,
                       org,
                       env,
                       scope,
                       keyName,
                       keyId,
                       expires,
                       overlap,
                       customers,
                       perCustomer,
                       listen,
                       tlsCert,
                       tlsKey,
                       workers,
                       catalogue,
                       publicUrl,
                       webhooksAllowHttp,
                       webhooksAllowPrivate,
                       webhooksCaFile,
                       accessLog,
                       metricsListen});
    server::LimitOptions::addTo(parser);
    parser.addPositionalArgument(u"command"_s, u"workspace, keys or serve, then the action."_s);
    // Unknown options are a wrong command line (2), like every other; process()
    // would exit 1 for them. It still answers --help, --help-all and --version.
    if (!parser.parse(QCoreApplication::arguments()))
        return usage(parser.errorText());
    parser.process(app);

    const QStringList args = parser.positionalArguments();
    if (args.isEmpty())
        return usage(u"no command given"_s);
    if (!parser.isSet(database))
        return usage(u"--database is required"_s);
    if (args.first() == "workspace"_L1) {
        bool customersOk = false;
        bool perCustomerOk = false;
        const DemoSize size{parser.value(customers).toInt(&customersOk),
                            parser.value(perCustomer).toInt(&perCustomerOk)};
        if (!customersOk || size.customers < 1 || !perCustomerOk || size.balancesPerCustomer < 0)
            return usage(
                u"--customers takes a positive number, --balances-per-customer zero or more"_s);
        return workspaceCommand(args, parser.value(database), size, parser.value(catalogue));
    }
    if (args.first() == "serve"_L1) {
        if (args.size() != 1 || !parser.isSet(listen))
            return usage(u"usage: serve --database D --listen HOST:PORT"_s);
        ServeOptions options{parser.value(listen),
                             parser.value(catalogue),
                             parser.value(tlsCert),
                             parser.value(tlsKey),
                             parser.value(workers).toInt(),
                             parser.value(publicUrl),
                             {},
                             {},
                             {},
                             u"off"_s,
                             {}};
        auto limits = server::LimitOptions::read(parser);
        if (!limits)
            return usage(limits.error().message);
        options.limits = limits.value();
        options.webhooks = {parser.isSet(webhooksAllowHttp), parser.isSet(webhooksAllowPrivate)};
        options.webhooksCaFile = parser.value(webhooksCaFile);
        options.accessLog = parser.value(accessLog);
        options.metricsListen = parser.value(metricsListen);
        if (!options.webhooksCaFile.isEmpty() && !QFile::exists(options.webhooksCaFile))
            return usage(u"--webhooks-ca-file %1 does not exist"_s.arg(options.webhooksCaFile));
        return serveCommand(parser.value(database), options);
    }
    if (args.first() == "keys"_L1)
        return keysCommand(parser.value(database),
                           {args.value(1), parser.value(org), parser.value(env),
                            parser.values(scope), parser.value(keyName), parser.value(keyId),
                            parser.value(expires), parser.value(overlap)});
    return usage(u"unknown command \"%1\""_s.arg(args.first()));
}
