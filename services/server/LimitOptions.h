// The connection limits and timeouts of HttpLimits as options of
// `meterdesk-server serve`, each with its default (docs/operations.md).
#pragma once

#include "services/api/Result.h"
#include "services/http/HttpLimits.h"

#include <QString>

#include <optional>

class QCommandLineParser;

namespace md::server {

class LimitOptions final
{
public:
    static void addTo(QCommandLineParser &parser);
    // The limits given on the command line, or the option that is wrong.
    static api::Result<http::HttpLimits> read(const QCommandLineParser &parser);
    // Raises the open-file soft limit to the hard one and keeps
    // maxConnections below it, with room for the database and logs; says
    // so when it had to lower maxConnections.
    static std::optional<QString> fitToDescriptors(http::HttpLimits &limits);
};

} // namespace md::server
