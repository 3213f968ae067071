// The routes a load balancer or an orchestrator asks, without a key and
// with nothing sensitive in their answers (docs/operations.md, "Health"):
// /healthz answers while the process serves; /readyz says whether this
// server should get requests: its database answers within a second, its
// schema is the one it knows, its async queue is below its limit.
//
// /readyz reads the database on a thread and a connection of its own, and
// its answer has a deadline: a database that hangs is 503 after a second
// (issue 51: it was 10 s, or never), and holds neither a worker nor a
// network thread meanwhile.
#pragma once

#include "services/engine/Engine.h"
#include "services/http/HttpExchange.h"

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace md::server {

class HealthChecks final
{
public:
    static constexpr std::chrono::milliseconds DatabaseAnswer{1000};
    // Runs a function once a delay has passed, on another thread (the HTTP
    // server's timers): how a probe that hangs still gets its answer out.
    using After = std::function<void(std::chrono::milliseconds, std::function<void()>)>;

    HealthChecks(engine::Engine &engine, After after);
    ~HealthChecks(); // stop()
    Q_DISABLE_COPY_MOVE(HealthChecks)

    static http::HttpResponse live();
    // Answers within DatabaseAnswer from a read of the database begun after
    // this call, or 503 if none answered by then. Returns at once.
    void ready(const http::HttpResponder &responder);
    // Ends the probe's thread once a probe under way returns; a ready()
    // after it is answered by its deadline.
    void stop();

private:
    void probeLoop();
    http::HttpResponse probe();

    engine::Engine &m_engine;
    After m_after;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::vector<http::HttpResponder> m_asking; // for the next probe
    bool m_stopping = false;
    std::thread m_prober; // last: it uses the rest
};

} // namespace md::server
