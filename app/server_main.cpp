// meterdesk-server: command line for workspaces and API keys over the engine.
#include "app/ServerCommands.h"
#include "services/api/Version.h"
#include "services/server/LimitOptions.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>

using namespace Qt::StringLiterals;
using namespace md;
using namespace md::cli;

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
        "                         --customers and --balances-per-customer size it;\n"
        "                         --statement-months N: months of closed statements.\n"
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
        "  processors connect     Store the Stripe secret key of --org SLUG --env test|live\n"
        "                         read from --secret-file F (one line), sealed; only\n"
        "                         its hint (sk_test_…1234) is ever shown.\n"
        "  processors disconnect  Forget it.\n"
        "  processors list        The keys connected to --org SLUG, by their hints.\n"
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
    const QCommandLineOption statementMonths(
        u"statement-months"_s, u"Demo: months of closed statements its customers start with."_s,
        u"N"_s, u"3"_s);
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
    const QCommandLineOption secretFile(
        u"secret-file"_s, u"processors connect: a file holding the key on one line."_s, u"F"_s);
    const QCommandLineOption stripeApiBase(
        u"stripe-api-base"_s,
        u"serve: where Stripe is, scheme://host[:port] without /v1 (tests); Stripe's by default."_s,
        u"URL"_s);
    parser.addOptions({database,
                       secretFile,
                       stripeApiBase,
                       org,
                       env,
                       scope,
                       keyName,
                       keyId,
                       expires,
                       overlap,
                       customers,
                       perCustomer,
                       statementMonths,
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
    parser.addPositionalArgument(u"command"_s,
                                 u"workspace, keys, processors or serve, then the action."_s);
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
        bool monthsOk = false;
        const DemoSize size{parser.value(customers).toInt(&customersOk),
                            parser.value(perCustomer).toInt(&perCustomerOk),
                            parser.value(statementMonths).toInt(&monthsOk)};
        if (!customersOk || size.customers < 1 || !perCustomerOk || size.balancesPerCustomer < 0 ||
            !monthsOk || size.statementMonths < 0 || size.statementMonths > 120)
            return usage(u"--customers takes a positive number, --balances-per-customer zero or"
                         " more, --statement-months 0 to 120"_s);
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
                             {},
                             {}};
        auto limits = server::LimitOptions::read(parser);
        if (!limits)
            return usage(limits.error().message);
        options.limits = limits.value();
        options.webhooks = {parser.isSet(webhooksAllowHttp), parser.isSet(webhooksAllowPrivate)};
        options.webhooksCaFile = parser.value(webhooksCaFile);
        options.accessLog = parser.value(accessLog);
        options.metricsListen = parser.value(metricsListen);
        options.stripeApiBase = parser.value(stripeApiBase);
        if (!options.webhooksCaFile.isEmpty() && !QFile::exists(options.webhooksCaFile))
            return usage(u"--webhooks-ca-file %1 does not exist"_s.arg(options.webhooksCaFile));
        return serveCommand(parser.value(database), options);
    }
    if (args.first() == "processors"_L1)
        return processorsCommand(
            parser.value(database),
            {args.value(1), parser.value(org), parser.value(env), parser.value(secretFile)});
    if (args.first() == "keys"_L1)
        return keysCommand(parser.value(database),
                           {args.value(1), parser.value(org), parser.value(env),
                            parser.values(scope), parser.value(keyName), parser.value(keyId),
                            parser.value(expires), parser.value(overlap)});
    return usage(u"unknown command \"%1\""_s.arg(args.first()));
}
