#include "services/http/HttpPoster.h"

#include "services/api/Version.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <openssl/ssl.h>

namespace md::http {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace beasthttp = beast::http;
using tcp = asio::ip::tcp;
using namespace Qt::StringLiterals;

namespace {

// An answer is read whole so the connection can be kept; past this it is
// dropped instead (only the first keptAnswerBytes are kept anyway).
constexpr std::uint64_t MaxAnswerRead = 64 * 1024;

using Deadline = std::chrono::steady_clock::time_point;

// Runs one asynchronous operation to its end on `ioc` (the stream's
// expiry, set by the caller, bounds it).
template <typename Start> beast::error_code await(asio::io_context &ioc, Start start)
{
    beast::error_code result = asio::error::would_block;
    bool done = false;
    start([&](beast::error_code error, auto &&...) {
        result = error;
        done = true;
    });
    ioc.restart();
    while (!done && ioc.run_one() > 0) {
    }
    return result;
}

QString words(const beast::error_code &error)
{
    if (error == beast::error::timeout)
        return u"no answer within the deadline"_s;
    return QString::fromStdString(error.message());
}

} // namespace

struct HttpPoster::Impl
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
    }

    void drop()
    {
        beast::error_code ignored;
        if (secure)
            beast::get_lowest_layer(*secure).socket().close(ignored);
        if (plain)
            plain->socket().close(ignored);
        secure.reset();
        plain.reset();
        origin.clear();
        buffer.clear();
    }

    QString connect(const QUrl &url, Deadline deadline);
    template <typename Stream>
    Answer exchange(Stream &stream, const QUrl &url, const Headers &headers, const QByteArray &body,
                    Deadline deadline, bool &reusable, bool &answered);

    Options options;
    asio::io_context ioc;
    asio::ssl::context tls{asio::ssl::context::tls_client};
    QString tlsProblem;
    QString origin; // scheme://host:port of the connection kept
    std::unique_ptr<beast::tcp_stream> plain;
    std::unique_ptr<beast::ssl_stream<beast::tcp_stream>> secure;
    beast::flat_buffer buffer;
};

QString HttpPoster::Impl::connect(const QUrl &url, Deadline deadline)
{
    const bool https = url.scheme() == "https"_L1;
    if (https && !tlsProblem.isEmpty())
        return tlsProblem;
    const std::string host = url.host(QUrl::FullyEncoded).toStdString();
    const std::string port = std::to_string(url.port(https ? 443 : 80));
    tcp::resolver resolver(ioc);
    tcp::resolver::results_type results;
    beast::error_code resolved = asio::error::would_block;
    bool done = false;
    resolver.async_resolve(host, port, [&](beast::error_code error, auto found) {
        resolved = error;
        results = std::move(found);
        done = true;
    });
    ioc.restart();
    ioc.run_until(deadline);
    if (!done) {
        resolver.cancel();
        ioc.restart();
        ioc.run();
        return u"%1 was not resolved within the deadline"_s.arg(url.host());
    }
    if (resolved)
        return u"%1 was not resolved: %2"_s.arg(url.host(), words(resolved));
    std::vector<tcp::endpoint> allowed;
    QString refusal;
    for (const auto &entry : results) {
        const QString address = QString::fromStdString(entry.endpoint().address().to_string());
        if (options.addressProblem)
            if (const auto problem = options.addressProblem(address)) {
                // The address itself is not said: the answer is shown to
                // API keys, which should not map the network through it.
                refusal = u"%1 resolves to %2; webhooks go to public addresses only"_s.arg(
                    url.host(), *problem);
                continue;
            }
        allowed.push_back(entry.endpoint());
    }
    if (allowed.empty())
        return refusal;
    auto stream = std::make_unique<beast::tcp_stream>(ioc);
    stream->expires_at(deadline);
    if (const auto error =
            await(ioc, [&](auto handler) { stream->async_connect(allowed, std::move(handler)); }))
        return u"cannot connect to %1: %2"_s.arg(url.host(), words(error));
    if (!https) {
        plain = std::move(stream);
        return {};
    }
    secure = std::make_unique<beast::ssl_stream<beast::tcp_stream>>(std::move(*stream), tls);
    SSL_set_tlsext_host_name(secure->native_handle(), url.host().toStdString().c_str());
    secure->set_verify_mode(asio::ssl::verify_peer);
    secure->set_verify_callback(asio::ssl::host_name_verification(url.host().toStdString()));
    if (const auto error = await(ioc, [&](auto handler) {
            secure->async_handshake(asio::ssl::stream_base::client, std::move(handler));
        })) {
        secure.reset();
        return u"TLS with %1 failed: %2"_s.arg(url.host(), words(error));
    }
    return {};
}

template <typename Stream>
HttpPoster::Answer HttpPoster::Impl::exchange(Stream &stream, const QUrl &url,
                                              const Headers &headers, const QByteArray &body,
                                              Deadline deadline, bool &reusable, bool &answered)
{
    beast::get_lowest_layer(stream).expires_at(deadline);
    QString target = url.path(QUrl::FullyEncoded);
    if (target.isEmpty())
        target = u"/"_s;
    if (url.hasQuery())
        target += u'?' + url.query(QUrl::FullyEncoded);
    beasthttp::request<beasthttp::string_body> request{beasthttp::verb::post, target.toStdString(),
                                                       11};
    QString host = url.host(QUrl::FullyEncoded);
    if (host.contains(u':'))
        host = u'[' + host + u']';
    if (url.port() != -1)
        host += u':' + QString::number(url.port());
    request.set(beasthttp::field::host, host.toStdString());
    request.set(beasthttp::field::user_agent,
                "Meterdesk-Webhooks/" + api::meterdeskVersion().toStdString());
    request.set(beasthttp::field::content_type, "application/json");
    for (const auto &[name, value] : headers)
        request.set(name.toStdString(), value.toStdString());
    request.body().assign(body.constData(), std::size_t(body.size()));
    request.keep_alive(true);
    request.prepare_payload();
    if (const auto error = await(ioc, [&](auto handler) {
            beasthttp::async_write(stream, request, std::move(handler));
        }))
        return {std::nullopt, {}, u"sending to %1 failed: %2"_s.arg(url.host(), words(error))};
    beasthttp::response_parser<beasthttp::string_body> parser;
    parser.body_limit(MaxAnswerRead);
    const auto error = await(ioc, [&](auto handler) {
        beasthttp::async_read(stream, buffer, parser, std::move(handler));
    });
    answered = parser.is_header_done();
    if (error && !answered)
        return {std::nullopt, {}, u"no answer from %1: %2"_s.arg(url.host(), words(error))};
    const auto &response = parser.get();
    Answer answer{int(response.result_int()), {}, {}};
    const std::string &text = response.body();
    answer.body = QByteArray(
        text.data(), qsizetype(std::min(text.size(), std::size_t(options.keptAnswerBytes))));
    if (error)
        answer.error = u"the answer was cut short: %1"_s.arg(words(error));
    reusable = !error && response.keep_alive();
    return answer;
}

HttpPoster::HttpPoster(Options options)
    : m_impl(std::make_unique<Impl>(std::move(options)))
{}

HttpPoster::~HttpPoster()
{
    m_impl->drop();
}

HttpPoster::Answer HttpPoster::post(const QUrl &url, const Headers &headers, const QByteArray &body)
{
    Impl &d = *m_impl;
    const Deadline deadline = std::chrono::steady_clock::now() + d.options.deadline;
    const QString origin = url.scheme() + u"://"_s + url.host() + u':' +
                           QString::number(url.port(url.scheme() == "https"_L1 ? 443 : 80));
    if (origin != d.origin)
        d.drop();
    // A kept connection the receiver closed meanwhile fails before any
    // answer: then once more on a new one.
    for (int attempt = 0; attempt < 2; ++attempt) {
        const bool reused = d.plain || d.secure;
        if (!reused) {
            if (const QString problem = d.connect(url, deadline); !problem.isEmpty()) {
                d.drop();
                return {std::nullopt, {}, problem};
            }
            d.origin = origin;
        }
        bool reusable = false;
        bool answered = false;
        Answer answer =
            d.secure ? d.exchange(*d.secure, url, headers, body, deadline, reusable, answered)
                     : d.exchange(*d.plain, url, headers, body, deadline, reusable, answered);
        if (!reusable)
            d.drop();
        if (answered || !reused || std::chrono::steady_clock::now() >= deadline)
            return answer;
    }
    return {std::nullopt, {}, u"no answer from %1"_s.arg(url.host())};
}

} // namespace md::http
