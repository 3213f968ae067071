#include "services/server/KeyCommand.h"

#include "services/engine/ApiOperations.h"

#include <QDateTime>
#include <QRegularExpression>

namespace md::server {

using namespace Qt::StringLiterals;

namespace {

QString moment(const std::optional<qint64> &ms)
{
    return ms ? QDateTime::fromMSecsSinceEpoch(*ms, Qt::UTC).toString(Qt::ISODate) : u"-"_s;
}

} // namespace

KeyCommand::KeyCommand(engine::Engine &engine, QTextStream &out, QTextStream &err)
    : m_engine(engine)
    , m_out(out)
    , m_err(err)
{}

std::optional<qint64> KeyCommand::spanMs(const QString &text)
{
    static const QRegularExpression Span(u"^([0-9]{1,6})([dhms])$"_s);
    const QRegularExpressionMatch match = Span.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    static const QHash<QString, qint64> Unit{
        {u"d"_s, 86'400'000}, {u"h"_s, 3'600'000}, {u"m"_s, 60'000}, {u"s"_s, 1000}};
    return match.captured(1).toLongLong() * Unit.value(match.captured(2));
}

std::optional<QString> KeyCommand::usageProblem(const KeyCommandArgs &args)
{
    static const QStringList Actions{u"list"_s, u"create"_s, u"revoke"_s, u"roll"_s};
    if (!Actions.contains(args.action))
        return u"usage: keys list|create|revoke|roll --database D --org SLUG --env test|live"
               " [--scope S ...] [--name N] [--expires WHEN] [--id key_…] [--overlap SPAN]"_s;
    if (args.org.isEmpty() || !engine::environmentFromWord(args.env))
        return u"keys %1 needs --org SLUG and --env test or --env live"_s.arg(args.action);
    if ((args.action == "revoke"_L1 || args.action == "roll"_L1) && args.id.isEmpty())
        return u"keys %1 needs --id, the key's id as keys list shows it (key_…)"_s.arg(args.action);
    if (!args.overlap.isEmpty() &&
        (!spanMs(args.overlap) || *spanMs(args.overlap) > api::ApiKey::MaxOverlapMs))
        return u"--overlap takes a span of at most seven days, such as 1h or 7d"_s;
    if (!args.expires.isEmpty() && !spanMs(args.expires) &&
        (!QDateTime::fromString(args.expires, Qt::ISODate).isValid() ||
         QDateTime::fromString(args.expires, Qt::ISODate).timeSpec() == Qt::LocalTime))
        return u"--expires takes a moment with its zone (2027-01-31T00:00:00Z) or a span from"
               " now (90d)"_s;
    return std::nullopt;
}

int KeyCommand::run(const KeyCommandArgs &args)
{
    auto key = m_engine.operatorKey(args.org, *engine::environmentFromWord(args.env));
    if (!key)
        return fail(key.error());
    engine::ApiOperations operations(m_engine);
    if (args.action == "list"_L1) {
        auto keys = operations.listApiKeys(key.value());
        if (!keys)
            return fail(keys.error());
        m_out << "id\tname\tprefix\tscopes\tcreated\tlast used\texpires\trevoked\n";
        for (const api::ApiKey &listed : std::as_const(keys.value().list))
            print(listed);
        m_out.flush();
        return 0;
    }
    api::Result<api::ApiKey> answer = api::ApiError::internal(u"no action"_s);
    if (args.action == "create"_L1) {
        std::optional<qint64> expires;
        if (const auto span = spanMs(args.expires))
            expires = m_engine.now() + *span;
        else if (!args.expires.isEmpty())
            expires = QDateTime::fromString(args.expires, Qt::ISODate).toMSecsSinceEpoch();
        answer = operations.createApiKey(
            key.value(), {args.name.isEmpty() ? u"command line"_s : args.name,
                          args.scopes.isEmpty() ? QStringList{u"*"_s} : args.scopes, expires});
    } else if (args.action == "revoke"_L1) {
        answer = operations.revokeApiKey(key.value(), {args.id});
    } else {
        answer = operations.rollApiKey(key.value(), {args.id, spanMs(args.overlap).value_or(0)});
    }
    if (!answer)
        return fail(answer.error());
    if (answer.value().secret) {
        m_out << *answer.value().secret << Qt::endl;
        m_err << "the secret above (key " << answer.value().id
              << ") is shown only now; Meterdesk keeps only its hash" << Qt::endl;
    } else {
        m_err << "revoked " << answer.value().id << " at " << moment(answer.value().revokedAt)
              << "; every server refuses it within a second" << Qt::endl;
    }
    return 0;
}

int KeyCommand::fail(const api::ApiError &error)
{
    m_err << "meterdesk-server: " << error.message << Qt::endl;
    return 1;
}

void KeyCommand::print(const api::ApiKey &key)
{
    m_out << key.id << '\t' << key.name << '\t' << key.prefix << '\t' << key.scopes.join(u' ')
          << '\t' << moment(key.createdAt) << '\t' << moment(key.lastUsedAt) << '\t'
          << moment(key.expiresAt) << '\t' << moment(key.revokedAt) << '\n';
}

} // namespace md::server
