// The API's routes: the seven of the billing API and Meterdesk's extensions
// (docs/openapi.yaml), each a function from a decoded body to an answer,
// with what it asks of the key before anything of the request is read.
// Paths that carry an id (a product, a customer) are matched here; their id
// is decoded and held to the id rule when the route runs, after the key.
#pragma once

#include "services/api/Result.h"
#include "services/engine/ApiOperations.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QStringList>

#include <functional>
#include <optional>
#include <utility>

namespace md::server {

struct RequestInfo
{
    std::optional<QString> idempotencyKey;
    QByteArray query; // the URL's query, percent-encoded
};

// A route's answer: a JSON body's text and its status (200, or 202 for an
// async usage.batch), or no body for 204 No Content.
struct AnswerBody
{
    std::optional<QByteArray> json;
    int status = 200;
};
using Answer = api::Result<AnswerBody>;
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

// What a route asks of the key before its path's id or body is read
// (docs/api.md, "Keys and scopes"): one of `scopes` (none: any valid key),
// and a production key when `liveKey` or a sandbox key when `sandboxKey`.
// Where the scope needed depends on the body (a promotion's products need
// plans:write, its rewards rewards:write), `scopes` lists each that may do,
// and ApiOperations checks the body's own.
struct Access
{
    QStringList scopes;
    bool liveKey = false;
    bool sandboxKey = false;
};

struct Route
{
    Access access;
    bool versionRequired = false; // x-api-version must be sent (balances.list)
    Work work;                    // or, when set:
    LaterWork later = {};
    // Its path as docs/openapi.yaml writes it, for the log and the metrics.
    QByteArray name = {};
};

class ApiRoutes final
{
public:
    ApiRoutes();

    // The route for a path, or none.
    std::optional<Route> find(QByteArrayView path) const;
    // Every route: its path as docs/openapi.yaml writes it
    // ("/v1/products/{product_id}") and what it asks of the key, by path.
    QList<std::pair<QByteArray, Access>> listing() const;

private:
    using IdWork =
        std::function<Answer(engine::ApiOperations &, const engine::KeyContext &, const QString &id,
                             const api::JsonReader &body, const RequestInfo &info)>;
    // A route whose path is `prefix`, one id, then `suffix`.
    struct IdRoute
    {
        QByteArray prefix;
        QByteArray suffix;
        QString idName; // "customer_id": the id's name in errors and the listing
        Access access;
        IdWork work;
    };

    QHash<QByteArray, Route> m_exact;
    QList<IdRoute> m_withId;
};

} // namespace md::server
