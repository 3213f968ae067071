// meterdesk's HTTP/1.1 server, on Boost.Beast and Asio (docs/http-layer.md
// says why): two network threads, one request at a time per connection so
// answers leave in request order, the limits and timeouts of HttpLimits, TLS
// when given a certificate, and a drain that answers what was read before it
// stops. The handler runs on a network thread and must hand slow work off.
#pragma once

#include "services/api/Result.h"
#include "services/http/HttpExchange.h"
#include "services/http/HttpLimits.h"

#include <QHostAddress>

#include <chrono>
#include <functional>
#include <memory>

namespace md::http {

class HttpServer final
{
public:
    using Handler = std::function<void(HttpRequest request, HttpResponder responder)>;

    HttpServer(HttpLimits limits, Handler handler);
    ~HttpServer(); // closes every connection; call after the handler's work is done
    Q_DISABLE_COPY_MOVE(HttpServer)

    // Serve HTTPS: a PEM certificate chain (leaf first) and its RSA or EC key.
    api::Result<api::Done> useTls(const QByteArray &certificateChainPem,
                                  const QByteArray &privateKeyPem);
    // The port listened on (the chosen one when `port` is 0).
    api::Result<quint16> listen(const QHostAddress &address, quint16 port);
    // Stops accepting and closes idle connections; requests already read are
    // answered (then their connections close). `drained` runs once, on a
    // network thread, when no connection is left.
    void shutdown(std::function<void()> drained);
    bool isShuttingDown() const;
    // Runs `work` on a network thread once `delay` has passed (never, if the
    // server is destroyed first): a deadline for an answer made elsewhere.
    void after(std::chrono::milliseconds delay, std::function<void()> work);

    struct Stats
    {
        std::size_t open = 0;              // connections now
        std::size_t refused = 0;           // turned away by the connection limits
        std::size_t acceptErrors = 0;      // accept() failures (such as no file descriptors left)
        std::size_t refusedPerAddress = 0; // of `refused`, for the limit per address
    };
    Stats stats() const;

private:
    class Impl;
    std::shared_ptr<Impl> m_impl;
};

} // namespace md::http
