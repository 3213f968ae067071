// The billing portal over HTTP: GET /portal/<token> answers the page a
// portal link shows (engine::PortalPage), rendered on a worker pool, with
// headers that keep it out of caches, frames and referrers. ApiServer serves
// it in meterdesk-server; the console runs a PortalServer of its own on a
// loopback port when an embedded workspace opens a portal.
#pragma once

#include "services/api/Result.h"
#include "services/engine/Engine.h"
#include "services/engine/PortalStarter.h"
#include "services/http/HttpServer.h"
#include "services/server/ServerWork.h"

namespace md::server {

class PortalServer final
{
public:
    // The answer to GET /portal/<token>; runs the engine, so off the network thread.
    static http::HttpResponse page(engine::Engine &engine, const QString &token);

    // Starts a PortalServer for an embedded engine (what EngineBackend is given).
    static engine::PortalStarter starter();

    explicit PortalServer(engine::Engine &engine);
    ~PortalServer();
    Q_DISABLE_COPY_MOVE(PortalServer)

    // Listens on 127.0.0.1 (a free port) and points the engine's portal links here.
    api::Result<QUrl> start();

private:
    void handle(http::HttpRequest request, http::HttpResponder responder);

    engine::Engine &m_engine;
    ServerWork m_work;
    http::HttpServer m_http; // last: its threads stop first
};

} // namespace md::server
