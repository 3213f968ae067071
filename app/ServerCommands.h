// meterdesk-server's commands (docs/operations.md): what main() parses the
// command line into, and the helpers they share for their output and exit
// codes (0 done, 1 the operation failed, 2 the command line is wrong).
#pragma once

#include "services/engine/Engine.h"
#include "services/engine/webhooks/WebhookUrlRule.h"
#include "services/http/HttpLimits.h"
#include "services/server/KeyCommand.h"

#include <QTextStream>

#include <memory>

namespace md::cli {

constexpr int ExitFailed = 1;
constexpr int ExitUsage = 2;

QTextStream &out();
QTextStream &err();
int fail(const api::ApiError &error);
int usage(const QString &problem);
std::unique_ptr<engine::Engine> openEngine(const QString &database, int &exitCode);
// A models.dev catalogue file, when one is given; false (said why) when it cannot be used.
bool useCatalogue(engine::Engine &engine, const QString &path);

struct DemoSize
{
    int customers = 400;
    int balancesPerCustomer = 0;
    int statementMonths = 3; // months of closed statements to start with
};

// workspace load | dump | demo | verify | repair (ServerCommands.cpp)
int workspaceCommand(const QStringList &args, const QString &database, const DemoSize &size,
                     const QString &catalogue);
// keys list | create | revoke | roll
int keysCommand(const QString &database, const server::KeyCommandArgs &args);

struct ProcessorsArgs
{
    QString action; // connect, disconnect or list
    QString org;
    QString env;        // test or live
    QString secretFile; // connect: the key, on one line
};

// processors connect | disconnect | list (ProcessorsCommand.cpp)
int processorsCommand(const QString &database, const ProcessorsArgs &args);

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
    QString accessLog = QStringLiteral("off"); // off, stderr or a file
    QString metricsListen;                     // HOST:PORT of GET /metrics; none when empty
    QString stripeApiBase;                     // Stripe's address, for tests; Stripe's when empty
};

// serve, until SIGTERM or SIGINT (ServeCommand.cpp)
int serveCommand(const QString &database, const ServeOptions &options);

} // namespace md::cli
