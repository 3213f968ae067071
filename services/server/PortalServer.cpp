#include "services/server/PortalServer.h"

#include <QtConcurrent/QtConcurrentRun>

namespace md::server {

using namespace Qt::StringLiterals;

void PortalServer::addRoute(QHttpServer &http, engine::Engine &engine, QThreadPool &pool)
{
    http.route(u"/portal/<arg>"_s, QHttpServerRequest::Method::Get,
               [&engine, &pool](const QString &token) {
                   return QtConcurrent::run(&pool, [&engine, token] {
                       const engine::PortalPage::Answer page = engine.portalPage(token);
                       QHttpServerResponse response("text/html; charset=utf-8", page.html,
                                                    QHttpServerResponse::StatusCode(page.status));
                       // The token is the credential: keep it out of caches and referrers.
                       response.setHeader("Cache-Control", "no-store");
                       response.setHeader("Referrer-Policy", "no-referrer");
                       response.setHeader("X-Frame-Options", "DENY");
                       response.setHeader("Content-Security-Policy",
                                          "default-src 'none'; style-src 'unsafe-inline'");
                       return response;
                   });
               });
}

PortalServer::PortalServer(engine::Engine &engine)
    : m_engine(engine)
{
    m_pool.setMaxThreadCount(2);
    addRoute(m_http, m_engine, m_pool);
}

PortalServer::~PortalServer()
{
    m_pool.waitForDone();
}

api::Result<QUrl> PortalServer::start()
{
    const quint16 port = m_http.listen(QHostAddress::LocalHost, 0);
    if (port == 0)
        return api::ApiError::internal(u"the local billing portal could not start listening"_s);
    const QUrl base(u"http://127.0.0.1:%1"_s.arg(port));
    m_engine.setPortalBase(base);
    return base;
}

} // namespace md::server
