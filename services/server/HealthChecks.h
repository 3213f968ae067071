// The routes a load balancer or an orchestrator asks, without a key and
// with nothing sensitive in their answers (docs/operations.md, "Health"):
// /healthz answers while the process serves; /readyz says whether this
// server should get requests: its database answers within a second, its
// schema is the one it knows, its async queue is below its limit.
#pragma once

#include "services/engine/Engine.h"
#include "services/http/HttpExchange.h"

namespace md::server {

class HealthChecks final
{
public:
    static constexpr qint64 DatabaseAnswerMs = 1000;

    static http::HttpResponse live();
    // Reads the database: run it on a worker, not a network thread.
    static http::HttpResponse ready(engine::Engine &engine);
};

} // namespace md::server
