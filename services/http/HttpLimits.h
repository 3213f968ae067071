// What one HTTP connection may cost the server: the time each phase of a
// request may take and the sizes and counts it may reach. The defaults are
// for a public port; docs/operations.md lists them with their options.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace md::http {

struct HttpLimits
{
    using Seconds = std::chrono::seconds;

    // From the first byte of a request to the end of its header; a client
    // sending one byte every few seconds is cut off here, not kept forever.
    Seconds headerTimeout{30};
    // From the end of the header to the end of the body.
    Seconds bodyTimeout{60};
    // Between the end of an answer and the first byte of the next request.
    Seconds idleTimeout{60};
    // For an answer to be taken by the client (one that never reads is dropped).
    Seconds writeTimeout{30};
    // After SIGTERM, how long requests still being read may take before
    // their connections are closed; requests already read are always answered.
    Seconds drainTimeout{20};

    std::size_t maxConnections = 4096;
    // 0: no limit (behind a proxy every connection comes from its address).
    std::size_t maxConnectionsPerAddress = 256;
    std::size_t maxHeaderBytes = 16 * 1024; // request line and fields; past it 431
    std::size_t maxHeaderFields = 100;      // past it 431
    std::size_t maxBodyBytes = 1024 * 1024; // past it 413
    // Paths that take larger bodies, each with its own limit (usage.batch's
    // 1,000 events); every other path has maxBodyBytes.
    std::vector<std::pair<std::string, std::size_t>> largerBodies;

    // The body limit of a request target (a path, maybe with a query).
    std::size_t bodyLimitFor(std::string_view target) const
    {
        const std::string_view path = target.substr(0, target.find('?'));
        for (const auto &[larger, limit] : largerBodies)
            if (path == larger)
                return limit;
        return maxBodyBytes;
    }
};

} // namespace md::http
