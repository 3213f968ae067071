#include "services/http/HttpServer.h"

#include "services/http/HttpSession.h"

#include "services/api/ErrorBody.h"

#include <QDebug>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <openssl/ssl.h>

#include <list>
#include <thread>

namespace md::http {

namespace asio = boost::asio;
namespace beast = boost::beast;
using tcp = asio::ip::tcp;
using namespace Qt::StringLiterals;

namespace {

// Two network threads: parsing and writing are cheap; the work is elsewhere.
constexpr int NetworkThreads = 2;

// The answer written straight to a connection the limits turn away.
std::string refusal(std::string_view status, std::string_view message)
{
    const std::string body =
        api::ErrorBody::of({status.starts_with("429") ? 429 : 503,
                            api::ErrorCode::TooManyConnections, QString::fromUtf8(message)})
            .toStdString();
    return "HTTP/1.1 " + std::string(status) +
           "\r\nContent-Type: application/json\r\nRetry-After: 1\r\nConnection: close\r\n"
           "Content-Length: " +
           std::to_string(body.size()) + "\r\n\r\n" + body;
}

const std::string TooMany = refusal("503 Service Unavailable",
                                    "this server has all the connections it takes; retry shortly");
const std::string TooManyFromAddress =
    refusal("429 Too Many Requests",
            "your address has all the connections it may hold; reuse one or close some");

void refuse(tcp::socket &socket, std::string_view answer)
{
    beast::error_code ignored;
    socket.non_blocking(true, ignored);
    ::send(socket.native_handle(), answer.data(), answer.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    socket.shutdown(tcp::socket::shutdown_both, ignored);
    socket.close(ignored);
}

} // namespace

class HttpServer::Impl final
{
public:
    Impl(HttpLimits limits, Handler handler)
        : m_shared(std::make_shared<HttpShared>(limits, std::move(handler)))
    {}

    ~Impl()
    {
        m_work.reset();
        m_io.stop();
        for (std::thread &thread : m_threads)
            thread.join();
    }

    // A handler that throws (an Asio call without an error code, say) must
    // cost one connection, not the server: log it and go on serving.
    void run()
    {
        for (;;) {
            try {
                m_io.run();
                return;
            } catch (const std::exception &error) {
                qCritical("a network handler failed (%s); serving on", error.what());
            }
        }
    }

    void startThreads()
    {
        if (!m_threads.empty())
            return;
        for (int i = 0; i < NetworkThreads; ++i)
            m_threads.emplace_back([this] { run(); });
    }

    void accept(tcp::acceptor &acceptor)
    {
        acceptor.async_accept(asio::make_strand(m_io),
                              [this, &acceptor](beast::error_code error, tcp::socket socket) {
                                  onAccept(acceptor, error, std::move(socket));
                              });
    }

    void onAccept(tcp::acceptor &acceptor, beast::error_code error, tcp::socket socket)
    {
        if (error == asio::error::operation_aborted || !acceptor.is_open())
            return;
        if (error) {
            // Out of file descriptors, say: wait a little instead of spinning
            // on a connection the kernel keeps offering.
            if (m_acceptErrors++ % 1000 == 0)
                qWarning("accepting a connection failed (%s); retrying in 100 ms",
                         error.message().c_str());
            auto timer = std::make_shared<asio::steady_timer>(m_io, std::chrono::milliseconds(100));
            timer->async_wait([this, &acceptor, timer](beast::error_code) {
                if (acceptor.is_open())
                    accept(acceptor);
            });
            return;
        }
        admit(std::move(socket));
        accept(acceptor);
    }

    void admit(tcp::socket socket)
    {
        beast::error_code error;
        const tcp::endpoint peer = socket.remote_endpoint(error);
        if (error)
            return;
        switch (m_shared->connections.admit(peer.address())) {
        case HttpConnections::Admission::TooMany:
            return refuse(socket, TooMany);
        case HttpConnections::Admission::TooManyFromAddress:
            return refuse(socket, TooManyFromAddress);
        case HttpConnections::Admission::Admitted:
            break;
        }
        if (m_tls)
            begin(std::make_shared<HttpSession<TlsStream>>(
                m_shared, TlsStream(beast::tcp_stream(std::move(socket)), *m_tls), peer.address()));
        else
            begin(std::make_shared<HttpSession<PlainStream>>(
                m_shared, PlainStream(std::move(socket)), peer.address()));
    }

    // Starts a session on its own strand, as every later step of it runs.
    template <class Session> void begin(const std::shared_ptr<Session> &session)
    {
        m_shared->connections.attach(session);
        asio::dispatch(session->executor(), [session] { session->start(); });
    }

    std::shared_ptr<HttpShared> m_shared;
    asio::io_context m_io;
    asio::executor_work_guard<asio::io_context::executor_type> m_work{m_io.get_executor()};
    std::list<tcp::acceptor> m_acceptors; // a list: accept handlers keep references
    std::optional<asio::ssl::context> m_tls;
    std::optional<asio::steady_timer> m_drainTimer;
    std::atomic<std::size_t> m_acceptErrors{0};
    std::vector<std::thread> m_threads;
};

HttpServer::HttpServer(HttpLimits limits, Handler handler)
    : m_impl(std::make_shared<Impl>(limits, std::move(handler)))
{}

HttpServer::~HttpServer() = default;

api::Result<api::Done> HttpServer::useTls(const QByteArray &certificateChainPem,
                                          const QByteArray &privateKeyPem)
{
    asio::ssl::context context(asio::ssl::context::tls_server);
    context.set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                        asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                        asio::ssl::context::no_tlsv1_1 | asio::ssl::context::single_dh_use);
    beast::error_code error;
    context.use_certificate_chain(
        asio::buffer(certificateChainPem.constData(), std::size_t(certificateChainPem.size())),
        error);
    if (error)
        return api::ApiError::internal(
            u"the TLS certificate is not a PEM certificate chain: %1"_s.arg(
                QString::fromStdString(error.message())));
    context.use_private_key(
        asio::buffer(privateKeyPem.constData(), std::size_t(privateKeyPem.size())),
        asio::ssl::context::pem, error);
    if (error)
        return api::ApiError::internal(
            u"the TLS key is not an RSA or EC private key in PEM without a passphrase: %1"_s.arg(
                QString::fromStdString(error.message())));
    if (SSL_CTX_check_private_key(context.native_handle()) != 1)
        return api::ApiError::internal(u"the TLS key does not belong to the certificate"_s);
    m_impl->m_tls.emplace(std::move(context));
    return api::Done{};
}

api::Result<quint16> HttpServer::listen(const QHostAddress &address, quint16 port)
{
    const auto fail = [&](const beast::error_code &error) {
        return api::ApiError::internal(u"cannot listen on %1:%2: %3"_s.arg(address.toString())
                                           .arg(port)
                                           .arg(QString::fromStdString(error.message())));
    };
    beast::error_code error;
    const asio::ip::address ip = asio::ip::make_address(address.toString().toStdString(), error);
    if (error)
        return fail(error);
    tcp::acceptor &acceptor = m_impl->m_acceptors.emplace_back(m_impl->m_io);
    const tcp::endpoint endpoint(ip, port);
    acceptor.open(endpoint.protocol(), error);
    if (!error)
        acceptor.set_option(asio::socket_base::reuse_address(true), error);
    if (!error)
        acceptor.bind(endpoint, error);
    if (!error)
        acceptor.listen(asio::socket_base::max_listen_connections, error);
    if (error) {
        m_impl->m_acceptors.pop_back();
        return fail(error);
    }
    const quint16 chosen = acceptor.local_endpoint().port();
    m_impl->accept(acceptor);
    m_impl->startThreads();
    return chosen;
}

void HttpServer::shutdown(std::function<void()> drained)
{
    Impl &impl = *m_impl;
    asio::post(impl.m_io, [&impl, drained = std::move(drained)]() mutable {
        for (tcp::acceptor &acceptor : impl.m_acceptors) {
            beast::error_code ignored;
            acceptor.close(ignored);
        }
        impl.m_drainTimer.emplace(impl.m_io, impl.m_shared->limits.drainTimeout);
        impl.m_drainTimer->async_wait([shared = impl.m_shared](beast::error_code error) {
            if (!error)
                shared->connections.closeReading();
        });
        impl.m_shared->connections.drain(std::move(drained));
    });
}

bool HttpServer::isShuttingDown() const
{
    return m_impl->m_shared->connections.draining();
}

void HttpServer::after(std::chrono::milliseconds delay, std::function<void()> work)
{
    auto timer = std::make_shared<asio::steady_timer>(m_impl->m_io, delay);
    timer->async_wait([timer, work = std::move(work)](beast::error_code error) {
        if (!error)
            work();
    });
}

HttpServer::Stats HttpServer::stats() const
{
    const auto [refused, perAddress] = m_impl->m_shared->connections.refusals();
    return {m_impl->m_shared->connections.open(), refused, m_impl->m_acceptErrors.load(),
            perAddress};
}

} // namespace md::http
