// What the API reads of a request's header fields: the bearer key (the
// scheme in any case), x-api-version (one version, 2.4.x) and the
// Idempotency-Key (1 to 255 visible ASCII characters). A problem is kept,
// not answered at once: a caller without a valid key hears 401 first.
#pragma once

#include "services/api/ApiError.h"
#include "services/http/HttpExchange.h"

#include <optional>

namespace md::server {

struct RequestHeaders
{
    QString secret; // empty when none was sent, or sent in a way we do not read
    std::optional<QString> idempotencyKey;
    std::optional<api::ApiError> problem;

    static RequestHeaders read(const http::HttpRequest &request, bool versionRequired);
};

} // namespace md::server
