// meterdesk-server's workspace and keys commands, and the helpers every
// command shares (ServerCommands.h).
#include "app/ServerCommands.h"

#include "services/engine/ledger/LedgerRepair.h"
#include "services/engine/ledger/LedgerVerifier.h"
#include "services/engine/workspace/DemoWorkspace.h"

#include <QDateTime>
#include <QFile>

namespace md::cli {

using namespace Qt::StringLiterals;

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

namespace {

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

} // namespace

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
        if (loaded.value().accessListsIgnored > 0)
            out() << "note: the accessible_accounts of " << loaded.value().accessListsIgnored
                  << " organizations were left out: the platform link asks Stripe now"
                     " (connect a key with `processors connect`)"
                  << Qt::endl;
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
        options.statementMonths = size.statementMonths;
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

} // namespace md::cli
