#include "services/server/LimitOptions.h"

#include <QCommandLineParser>

#include <functional>
#include <vector>

#include <sys/resource.h>

namespace md::server {

using namespace Qt::StringLiterals;
using http::HttpLimits;

namespace {

struct LimitOption
{
    const char *name;
    const char *help;
    std::function<qint64(const HttpLimits &)> get;
    std::function<void(HttpLimits &, qint64)> set;
    qint64 min;
};

// A limit in seconds, or a count.
template <typename Member>
LimitOption option(const char *name, const char *help, Member member, qint64 min)
{
    using Value = std::remove_reference_t<decltype(std::declval<HttpLimits &>().*member)>;
    if constexpr (std::is_same_v<Value, HttpLimits::Seconds>)
        return {name, help, [member](const HttpLimits &l) { return qint64((l.*member).count()); },
                [member](HttpLimits &l, qint64 v) { l.*member = HttpLimits::Seconds(v); }, min};
    else
        return {name, help, [member](const HttpLimits &l) { return qint64(l.*member); },
                [member](HttpLimits &l, qint64 v) { l.*member = std::size_t(v); }, min};
}

const std::vector<LimitOption> &limitOptions()
{
    using L = HttpLimits;
    static const std::vector<LimitOption> options{
        option("header-timeout", "serve: seconds a request's header may take to arrive.",
               &L::headerTimeout, 1),
        option("body-timeout", "serve: seconds a request's body may take to arrive.",
               &L::bodyTimeout, 1),
        option("idle-timeout",
               "serve: seconds a kept-alive connection may wait for its next request.",
               &L::idleTimeout, 1),
        option("write-timeout", "serve: seconds a client may take to read an answer.",
               &L::writeTimeout, 1),
        option("drain-timeout",
               "serve: seconds after SIGTERM before requests still arriving are cut off.",
               &L::drainTimeout, 0),
        option("max-connections", "serve: connections open at once.", &L::maxConnections, 1),
        option("max-connections-per-address",
               "serve: connections open at once from one client address (0: no limit).",
               &L::maxConnectionsPerAddress, 0),
        option("max-header-bytes", "serve: bytes of a request's line and header fields.",
               &L::maxHeaderBytes, 1024),
        option("max-header-fields", "serve: header fields of a request.", &L::maxHeaderFields, 8),
    };
    return options;
}

} // namespace

void LimitOptions::addTo(QCommandLineParser &parser)
{
    const HttpLimits defaults;
    for (const LimitOption &limit : limitOptions())
        parser.addOption(QCommandLineOption(QString::fromLatin1(limit.name),
                                            QString::fromLatin1(limit.help), u"N"_s,
                                            QString::number(limit.get(defaults))));
}

api::Result<HttpLimits> LimitOptions::read(const QCommandLineParser &parser)
{
    HttpLimits limits;
    for (const LimitOption &limit : limitOptions()) {
        bool ok = false;
        const qint64 value = parser.value(QString::fromLatin1(limit.name)).toLongLong(&ok);
        if (!ok || value < limit.min || value > 1'000'000'000)
            return api::ApiError::invalidInputs(
                u"--"_s + QString::fromLatin1(limit.name),
                u"takes a whole number of at least %1"_s.arg(limit.min));
        limit.set(limits, value);
    }
    return limits;
}

std::optional<QString> LimitOptions::fitToDescriptors(HttpLimits &limits)
{
    rlimit files{};
    if (::getrlimit(RLIMIT_NOFILE, &files) != 0)
        return std::nullopt;
    if (files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &files);
        ::getrlimit(RLIMIT_NOFILE, &files);
    }
    constexpr rlim_t Reserve = 64;
    if (files.rlim_cur == RLIM_INFINITY || files.rlim_cur <= Reserve ||
        limits.maxConnections <= files.rlim_cur - Reserve)
        return std::nullopt;
    limits.maxConnections = std::size_t(files.rlim_cur - Reserve);
    return u"--max-connections lowered to %1 (the open-file limit is %2)"_s
        .arg(limits.maxConnections)
        .arg(files.rlim_cur);
}

} // namespace md::server
