#include "services/server/PortalServer.h"

#include "services/server/ApiAnswers.h"

namespace md::server {

using namespace Qt::StringLiterals;

http::HttpResponse PortalServer::page(engine::Engine &engine, const QString &token)
{
    const engine::PortalPage::Answer page = engine.portalPage(token);
    // The token is the credential: keep it out of caches and referrers.
    return {page.status,
            "text/html; charset=utf-8",
            page.html,
            {{"Cache-Control", "no-store"},
             {"Referrer-Policy", "no-referrer"},
             {"X-Frame-Options", "DENY"},
             {"Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'"}},
            false};
}

engine::PortalStarter PortalServer::starter()
{
    return [](engine::Engine &engine) -> api::Result<std::shared_ptr<void>> {
        auto server = std::make_shared<PortalServer>(engine);
        if (auto started = server->start(); !started)
            return started.error();
        return std::shared_ptr<void>(std::move(server));
    };
}

PortalServer::PortalServer(engine::Engine &engine)
    : m_engine(engine)
    , m_work(2)
    , m_http(http::HttpLimits(), [this](http::HttpRequest request, http::HttpResponder responder) {
        handle(std::move(request), std::move(responder));
    })
{}

PortalServer::~PortalServer()
{
    m_work.stopAndWait(); // before m_http goes: the work answers through it
}

void PortalServer::handle(http::HttpRequest request, http::HttpResponder responder)
{
    if (!request.path.startsWith("/portal/"))
        return responder.send(errorAnswer(api::ApiError::notFound(
            api::ErrorCode::NotFound, u"this local server answers only billing portal links"_s)));
    if (request.method != "GET")
        return responder.send(methodNotAllowed(request.path, "GET"));
    const QString token = QString::fromUtf8(QByteArray::fromPercentEncoding(request.path.mid(8)));
    // Refused only while the console closes: the connection closes unanswered.
    m_work.start([this, token, responder] { responder.send(page(m_engine, token)); });
}

api::Result<QUrl> PortalServer::start()
{
    auto port = m_http.listen(QHostAddress::LocalHost, 0);
    if (!port)
        return api::ApiError::internal(
            u"the local billing portal could not start listening: %1"_s.arg(port.error().message));
    const QUrl base(u"http://127.0.0.1:%1"_s.arg(port.value()));
    m_engine.setPortalBase(base);
    return base;
}

} // namespace md::server
