// One client connection (plain or TLS): reads a request under the header and
// body deadlines, hands it to the handler, writes the answer, then reads the
// next, so pipelined requests are answered in the order sent. The session
// lives while a read, a write or an unanswered request holds it.
#pragma once

#include "services/http/HttpConnections.h"
#include "services/http/HttpRequestRules.h"
#include "services/http/HttpServer.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include <memory>
#include <optional>

namespace md::http {

// What every connection of one server shares; outlives the server's threads.
struct HttpShared
{
    explicit HttpShared(HttpLimits l, HttpServer::Handler h)
        : limits(l)
        , handler(std::move(h))
        , connections(limits)
    {}
    const HttpLimits limits;
    const HttpServer::Handler handler;
    HttpConnections connections;
};

using PlainStream = boost::beast::tcp_stream;
using TlsStream = boost::beast::ssl_stream<boost::beast::tcp_stream>;

template <class Stream>
class HttpSession final : public HttpConnection,
                          public std::enable_shared_from_this<HttpSession<Stream>>
{
public:
    HttpSession(std::shared_ptr<HttpShared> shared, Stream stream, boost::asio::ip::address peer);
    ~HttpSession() override;
    Q_DISABLE_COPY_MOVE(HttpSession)

    auto executor() { return m_stream.get_executor(); }
    void start();
    void drain() override;
    void closeIfReading() override;

private:
    enum class Phase { Handshake, Idle, Header, Body, Processing, Writing, Closed };
    static constexpr bool IsTls = std::is_same_v<Stream, TlsStream>;

    boost::beast::tcp_stream &tcp();
    // The deadline of a read phase; when it passes the read is cancelled, so
    // the session can still answer 408 (Beast's own timeout closes the socket).
    void armDeadline(std::chrono::seconds limit);
    void onHandshake(boost::beast::error_code error);
    void readRequest();
    void readFirstBytes();
    void skipEmptyLines();
    void onFirstBytes(boost::beast::error_code error, std::size_t bytes);
    void readHeader();
    void onHeader(boost::beast::error_code error, std::size_t bytes);
    void readBody();
    void onBody(boost::beast::error_code error, std::size_t bytes);
    void failed(boost::beast::error_code error);
    // Reads and drops `left` bytes of a refused body, then answers.
    void discardThenAnswer(std::uint64_t left, HttpResponse response);
    void answer(HttpResponse response);
    void onWritten(boost::beast::error_code error, std::size_t bytes);
    void closeGracefully();
    void discardUntilClosed();
    void close();

    std::shared_ptr<HttpShared> m_shared;
    Stream m_stream;
    boost::asio::ip::address m_peer;
    boost::asio::steady_timer m_deadline;
    bool m_timedOut = false;
    boost::beast::flat_buffer m_buffer;
    std::optional<RequestParser> m_parser;
    std::optional<boost::beast::http::response<boost::beast::http::string_body>> m_response;
    Phase m_phase = Phase::Idle;
    unsigned m_version = 11;
    bool m_keepAlive = true;
    bool m_closeAfterWrite = false;
    bool m_head = false; // the request was HEAD: its answer carries no body
    std::size_t m_lingered = 0;
    std::size_t m_emptyLineBytes = 0; // skipped before this request's line
};

} // namespace md::http
