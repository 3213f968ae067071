// `meterdesk-server processors connect | disconnect | list` (docs/operations.md,
// "Processor keys"): an organization's Stripe secret keys, one per environment.
#include "app/ServerCommands.h"
#include "services/engine/processors/ProcessorKeys.h"

#include <QDateTime>
#include <QFile>

namespace md::cli {

using namespace Qt::StringLiterals;

namespace {

// The key in `path`: its one line, the line break after it ignored.
api::Result<QString> readSecret(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return api::ApiError::invalidInputs(
            u"--secret-file"_s, u"%1 cannot be read: %2"_s.arg(path, file.errorString()));
    const QByteArray text = file.read(4097);
    if (text.size() > 4096)
        return api::ApiError::invalidInputs(u"--secret-file"_s,
                                            u"%1 is longer than a key can be"_s.arg(path));
    QByteArray key = text;
    while (key.endsWith('\n') || key.endsWith('\r'))
        key.chop(1);
    if (file.permissions() & (QFile::ReadGroup | QFile::ReadOther))
        err() << "warning: " << path
              << " can be read by other users; keep it to its owner (chmod 600)" << Qt::endl;
    return QString::fromUtf8(key);
}

} // namespace

int processorsCommand(const QString &database, const ProcessorsArgs &args)
{
    const QString use = u"usage: processors connect|disconnect|list --org SLUG --env test|live"
                        " [--secret-file F]"_s;
    const auto env = engine::environmentFromWord(args.env);
    if (args.org.isEmpty() || (args.action != "list"_L1 && !env))
        return usage(use);
    if ((args.action == "connect"_L1) != !args.secretFile.isEmpty())
        return usage(u"--secret-file is for connect, and connect needs it; "_s + use);
    if (args.action != "connect"_L1 && args.action != "disconnect"_L1 && args.action != "list"_L1)
        return usage(use);
    int exitCode = 0;
    auto engine = openEngine(database, exitCode);
    if (!engine)
        return exitCode;
    auto key = engine->operatorKey(args.org, env.value_or(engine::Environment::Sandbox));
    if (!key)
        return fail(key.error());
    const engine::Scope &scope = key.value().scope;
    auto db = engine->database().connection();
    if (!db)
        return fail(db.error());
    if (args.action == "list"_L1) {
        auto connected = engine::ProcessorKeys::list(db.value(), scope.orgPk);
        if (!connected)
            return fail(connected.error());
        out() << "env\tkey\tconnected\n";
        for (const auto &one : std::as_const(connected.value()))
            out() << one.env << '\t' << one.hint << '\t'
                  << QDateTime::fromMSecsSinceEpoch(one.connectedAt, Qt::UTC).toString(Qt::ISODate)
                  << '\n';
        out().flush();
        return 0;
    }
    if (args.action == "disconnect"_L1) {
        if (auto gone = engine::ProcessorKeys::disconnect(db.value(), engine->dialect(), scope,
                                                          engine->now());
            !gone)
            return fail(gone.error());
        out() << "disconnected the " << scope.envWord() << " Stripe key of " << args.org
              << Qt::endl;
        return 0;
    }
    auto secret = readSecret(args.secretFile);
    if (!secret)
        return fail(secret.error());
    auto connected = engine::ProcessorKeys::connect(db.value(), engine->dialect(), scope,
                                                    secret.value(), engine->now());
    if (!connected)
        return fail(connected.error());
    out() << "connected the " << scope.envWord() << " Stripe key " << connected.value().hint
          << " to " << args.org << Qt::endl;
    return 0;
}

} // namespace md::cli
