// The API's routes: the seven of the billing API and Meterdesk's extensions
// (docs/openapi.yaml), each a function from a decoded body to an answer.
// Paths that carry an id (a product, a customer) are matched here and their
// id decoded and checked by the id rule.
#pragma once

#include "services/api/Result.h"
#include "services/engine/ApiOperations.h"

#include <QByteArray>
#include <QHash>

#include <functional>
#include <optional>

namespace md::server {

struct RequestInfo
{
    std::optional<QString> idempotencyKey;
    QByteArray query; // the URL's query, percent-encoded
};

// A route's answer: a JSON body's text, or none for 204 No Content.
using Answer = api::Result<std::optional<QByteArray>>;
// `body` is read from the request's text (JsonReader::fromBody).
using Work = std::function<Answer(engine::ApiOperations &, const engine::KeyContext &,
                                  const api::JsonReader &body, const RequestInfo &info)>;

// A route answered later, maybe on another thread (a synchronous
// track_tokens waits for its batch's commit without holding a worker):
// `reply` runs exactly once.
using Reply = std::function<void(Answer)>;
using LaterWork =
    std::function<void(engine::ApiOperations &, const engine::KeyContext &,
                       const api::JsonReader &body, const RequestInfo &info, Reply reply)>;

struct Route
{
    bool versionRequired = false; // x-api-version must be sent (balances.list)
    Work work;                    // or, when set:
    LaterWork later = {};
};

class ApiRoutes final
{
public:
    ApiRoutes();

    // The route for a path: none when there is no such route, an error
    // when the path's id breaks the id rule.
    std::optional<api::Result<Route>> find(QByteArrayView path) const;

private:
    QHash<QByteArray, Route> m_exact;
};

} // namespace md::server
