// The billing portal over HTTP: GET /portal/<token> answers the page a
// portal link shows (engine::PortalPage), rendered on a worker pool, with
// headers that keep it out of caches, frames and referrers. ApiServer adds
// the route to meterdesk-server; the console runs a PortalServer of its own
// on a loopback port when an embedded workspace opens a portal.
#pragma once

#include "services/api/Result.h"
#include "services/engine/Engine.h"

#include <QHttpServer>
#include <QThreadPool>

namespace md::server {

class PortalServer final
{
public:
    static void addRoute(QHttpServer &http, engine::Engine &engine, QThreadPool &pool);

    explicit PortalServer(engine::Engine &engine);
    ~PortalServer();
    Q_DISABLE_COPY_MOVE(PortalServer)

    // Listens on 127.0.0.1 (a free port) and points the engine's portal links here.
    api::Result<QUrl> start();

private:
    engine::Engine &m_engine;
    QHttpServer m_http;
    QThreadPool m_pool;
};

} // namespace md::server
