#include "services/http/HttpPoster.h"

#include "services/api/StartedThread.h"
#include "services/http/HttpPostMessages.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <openssl/ssl.h>

#include <QThread>

#include <limits>
#include <mutex>
#include <thread>

namespace md::http {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace beasthttp = beast::http;
using tcp = asio::ip::tcp;
using namespace Qt::StringLiterals;

using post::KeptBody;
using post::requestFor;

namespace {

using Clock = std::chrono::steady_clock;

QString words(const beast::error_code &error)
{
    if (error == beast::error::timeout)
        return u"no answer within the deadline"_s;
    return QString::fromStdString(error.message());
}

QString originOf(const QUrl &url)
{
    return url.scheme() + u"://"_s + url.host() + u':' +
           QString::number(url.port(url.scheme() == "https"_L1 ? 443 : 80));
}

} // namespace

struct HttpPoster::Loop::Impl
{
    explicit Impl(Options o)
        : options(std::move(o))
    {
        tls.set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                        asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                        asio::ssl::context::no_tlsv1_1);
        beast::error_code error;
        tls.set_default_verify_paths(error);
        if (!options.caFile.isEmpty()) {
            tls.load_verify_file(options.caFile.toStdString(), error);
            if (error)
                tlsProblem =
                    u"the CA file %1 was not loaded: %2"_s.arg(options.caFile, words(error));
        }
        gate->ioc = &ioc;
    }

    Options options;
    asio::io_context ioc;
    asio::executor_work_guard<asio::io_context::executor_type> work = asio::make_work_guard(ioc);
    asio::ssl::context tls{asio::ssl::context::tls_client};
    QString tlsProblem;
    std::unique_ptr<QThread> thread;
    // How a name resolved on a thread of its own comes back: closed when the
    // loop stops, before a resolution that outlives it could use it.
    struct Gate
    {
        std::mutex mutex;
        asio::io_context *ioc = nullptr;
    };
    std::shared_ptr<Gate> gate = std::make_shared<Gate>();
};

HttpPoster::Loop::Loop(Options options)
    : d(std::make_unique<Impl>(std::move(options)))
{}

HttpPoster::Loop::~Loop()
{
    stop();
}

void HttpPoster::Loop::start()
{
    if (d->thread)
        return;
    d->thread = api::startThread(u"meterdesk-posts"_s, [impl = d.get()] { impl->ioc.run(); });
}

void HttpPoster::Loop::stop()
{
    {
        const std::lock_guard lock(d->gate->mutex);
        d->gate->ioc = nullptr;
    }
    d->work.reset();
    if (d->thread) {
        d->thread->wait();
        d->thread.reset();
    }
}

void HttpPoster::Loop::post(std::function<void()> work)
{
    asio::post(d->ioc, std::move(work));
}

// One connection and the post under way on it. Every step is a completion
// handler on the loop's thread holding the poster alive; a stream is made
// anew only in connect(), which no handler of that stream calls directly.
struct HttpPoster::Impl : std::enable_shared_from_this<HttpPoster::Impl>
{
    explicit Impl(Loop::Impl &l)
        : loop(l)
        , timer(l.ioc)
    {}
    ~Impl() { close(); }

    void connect();
    void connectTo(const std::vector<tcp::endpoint> &found);
    void handshake();
    void send();
    void receive();
    void received(const beast::error_code &error);
    void failedBeforeAnswer(Answer answer);
    void finish(Answer answer);
    void close();
    template <typename F> void onStream(F f)
    {
        if (secure)
            f(*secure);
        else
            f(*plain);
    }

    Loop::Impl &loop;
    QString origin; // scheme://host:port of the connection kept; empty: none
    std::unique_ptr<beast::tcp_stream> plain;
    std::unique_ptr<beast::ssl_stream<beast::tcp_stream>> secure;
    beast::flat_buffer buffer;
    std::vector<tcp::endpoint> endpoints; // being connected to

    // The post under way.
    QUrl url;
    beasthttp::request<beasthttp::string_body> request;
    Clock::time_point deadline;
    std::function<void(Answer)> done;
    bool reused = false; // on a connection kept from an earlier post
    std::optional<beasthttp::response_parser<KeptBody>> parser;
    asio::steady_timer timer; // a resolution's deadline
    quint64 resolution = 0;   // the one awaited; a result of another is dropped
};

void HttpPoster::Impl::connect()
{
    close();
    secure.reset();
    plain.reset();
    buffer.clear();
    const bool https = url.scheme() == "https"_L1;
    if (https && !loop.tlsProblem.isEmpty())
        return finish({std::nullopt, {}, loop.tlsProblem});
    const std::string host = url.host(QUrl::FullyEncoded).toStdString();
    const auto port = quint16(url.port(https ? 443 : 80));
    beast::error_code notLiteral;
    if (const auto address = asio::ip::make_address(host, notLiteral); !notLiteral)
        return connectTo({tcp::endpoint(address, port)});
    const quint64 mine = ++resolution;
    timer.expires_at(deadline);
    timer.async_wait([self = shared_from_this(), mine](const beast::error_code &) {
        if (self->resolution != mine)
            return; // resolved first
        ++self->resolution;
        self->finish(
            {std::nullopt, {}, u"%1 was not resolved within the deadline"_s.arg(self->url.host())});
    });
    try {
        std::thread([gate = loop.gate, weak = weak_from_this(), mine, host, port] {
            asio::io_context own;
            tcp::resolver resolver(own);
            beast::error_code error;
            const auto results = resolver.resolve(host, std::to_string(port), error);
            const std::lock_guard lock(gate->mutex);
            if (!gate->ioc)
                return;
            asio::post(*gate->ioc, [weak, mine, error, results] {
                const auto self = weak.lock();
                if (!self || self->resolution != mine)
                    return; // past its deadline
                ++self->resolution;
                self->timer.cancel();
                if (error)
                    return self->finish(
                        {std::nullopt,
                         {},
                         u"%1 was not resolved: %2"_s.arg(self->url.host(), words(error))});
                std::vector<tcp::endpoint> found;
                for (const auto &entry : results)
                    found.push_back(entry.endpoint());
                self->connectTo(found);
            });
        }).detach();
    } catch (const std::system_error &error) {
        ++resolution;
        timer.cancel();
        finish(
            {std::nullopt,
             {},
             u"%1 was not resolved: %2"_s.arg(url.host(), QString::fromLocal8Bit(error.what()))});
    }
}

void HttpPoster::Impl::connectTo(const std::vector<tcp::endpoint> &found)
{
    endpoints.clear();
    QString refusal = u"%1 resolves to no address"_s.arg(url.host());
    for (const tcp::endpoint &endpoint : found) {
        const QString address = QString::fromStdString(endpoint.address().to_string());
        if (loop.options.addressProblem)
            if (const auto problem = loop.options.addressProblem(address)) {
                // The address itself is not said: the answer is shown to
                // API keys, which should not map the network through it.
                refusal = u"%1 resolves to %2; webhooks go to public addresses only"_s.arg(
                    url.host(), *problem);
                continue;
            }
        endpoints.push_back(endpoint);
    }
    if (endpoints.empty())
        return finish({std::nullopt, {}, refusal});
    plain = std::make_unique<beast::tcp_stream>(loop.ioc);
    plain->expires_at(deadline);
    plain->async_connect(endpoints, [self = shared_from_this()](const beast::error_code &error,
                                                                const tcp::endpoint &) {
        if (error) {
            self->close();
            return self->finish(
                {std::nullopt,
                 {},
                 u"cannot connect to %1: %2"_s.arg(self->url.host(), words(error))});
        }
        if (self->url.scheme() == "https"_L1)
            return self->handshake();
        self->origin = originOf(self->url);
        self->send();
    });
}

void HttpPoster::Impl::handshake()
{
    // The moved-from plain stream stays until the next connect().
    secure = std::make_unique<beast::ssl_stream<beast::tcp_stream>>(std::move(*plain), loop.tls);
    beast::get_lowest_layer(*secure).expires_at(deadline);
    const std::string host = url.host().toStdString();
    SSL_set_tlsext_host_name(secure->native_handle(), host.c_str());
    secure->set_verify_mode(asio::ssl::verify_peer);
    secure->set_verify_callback(asio::ssl::host_name_verification(host));
    secure->async_handshake(asio::ssl::stream_base::client, [self = shared_from_this()](
                                                                const beast::error_code &error) {
        if (error) {
            self->close();
            return self->finish({std::nullopt,
                                 {},
                                 u"TLS with %1 failed: %2"_s.arg(self->url.host(), words(error))});
        }
        self->origin = originOf(self->url);
        self->send();
    });
}

void HttpPoster::Impl::send()
{
    onStream([&](auto &stream) {
        beast::get_lowest_layer(stream).expires_at(deadline);
        beasthttp::async_write(
            stream, request,
            [self = shared_from_this()](const beast::error_code &error, std::size_t) {
                if (error)
                    return self->failedBeforeAnswer(
                        {std::nullopt,
                         {},
                         u"sending to %1 failed: %2"_s.arg(self->url.host(), words(error))});
                self->receive();
            });
    });
}

void HttpPoster::Impl::receive()
{
    parser.emplace();
    parser->body_limit(std::numeric_limits<std::uint64_t>::max()); // KeptBody stops the read
    parser->get().body().keep = std::size_t(loop.options.keptAnswerBytes);
    onStream([&](auto &stream) {
        beasthttp::async_read(stream, buffer, *parser,
                              [self = shared_from_this()](const beast::error_code &error,
                                                          std::size_t) { self->received(error); });
    });
}

void HttpPoster::Impl::received(const beast::error_code &error)
{
    if (error && !parser->is_header_done())
        return failedBeforeAnswer(
            {std::nullopt, {}, u"no answer from %1: %2"_s.arg(url.host(), words(error))});
    const auto &response = parser->get();
    const KeptBody::value_type &body = response.body();
    Answer answer{
        int(response.result_int()), QByteArray(body.kept.data(), qsizetype(body.kept.size())), {}};
    if (error && !body.tooLong)
        answer.error = u"the answer was cut short: %1"_s.arg(words(error));
    if (error || !response.keep_alive())
        close();
    finish(std::move(answer));
}

void HttpPoster::Impl::failedBeforeAnswer(Answer answer)
{
    close();
    // A kept connection the receiver closed meanwhile fails before any
    // answer: then once more on a new one.
    if (reused && Clock::now() < deadline) {
        reused = false;
        asio::post(loop.ioc, [self = shared_from_this()] { self->connect(); });
        return;
    }
    finish(std::move(answer));
}

void HttpPoster::Impl::finish(Answer answer)
{
    // Called from a handler of its own, later: the caller may post again at once.
    // A post answers once; a late handler of an ended one has nobody to tell.
    if (!done)
        return;
    asio::post(loop.ioc, [callback = std::exchange(done, nullptr), answer = std::move(answer)] {
        callback(answer);
    });
}

void HttpPoster::Impl::close()
{
    beast::error_code ignored;
    if (secure)
        beast::get_lowest_layer(*secure).socket().close(ignored);
    else if (plain)
        plain->socket().close(ignored);
    origin.clear();
}

HttpPoster::HttpPoster(Loop &loop)
    : m_impl(std::make_shared<Impl>(*loop.d))
{}

HttpPoster::~HttpPoster() = default;

void HttpPoster::post(const QUrl &url, const Headers &headers, const QByteArray &body,
                      std::function<void(Answer)> done)
{
    Impl &d = *m_impl;
    d.url = url;
    d.request = requestFor(url, headers, body);
    d.deadline = Clock::now() + d.loop.options.deadline;
    d.done = std::move(done);
    if (originOf(url) != d.origin)
        d.close();
    d.reused = !d.origin.isEmpty();
    if (d.reused)
        d.send();
    else
        d.connect();
}

bool HttpPoster::connected() const
{
    return !m_impl->origin.isEmpty();
}

} // namespace md::http
