// The HTTP/1.1 request reader of meterdesk-server: Beast's parser with the
// server's limits and rules (services/http/HttpRequestRules.h). Any input
// gives a request, a failure with a 4xx/5xx status, or "need more"; a
// request it lets through keeps the rules: one Host, a path target, a body
// within the limit.
#include "services/http/HttpRequestRules.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    md::http::HttpLimits limits;
    limits.maxBodyBytes = 4096; // small, so the fuzzer reaches the limit
    limits.maxHeaderBytes = 2048;
    const auto outcome = md::http::parseRequest(
        std::string_view(reinterpret_cast<const char *>(data), size), limits);
    if (const auto *failure = std::get_if<md::http::HttpFailure>(&outcome)) {
        if (failure->status < 400 || failure->status > 599)
            std::abort();
    } else if (const auto *request = std::get_if<md::http::HttpRequest>(&outcome)) {
        if (!request->path.startsWith('/') || request->body.size() > 4096 ||
            request->headerCount("host") > 1 || request->method.isEmpty())
            std::abort();
    }
    return 0;
}
