#include "services/http/HttpSession.h"

#include "services/api/ErrorBody.h"

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <atomic>

namespace md::http {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace beasthttp = boost::beast::http;

namespace {

constexpr std::size_t ReadChunk = 16 * 1024;
// RFC 9112 2.2: empty lines before a request line are ignored (some clients
// send one after a body); a few bytes of them, not an endless stream.
constexpr std::size_t MaxEmptyLineBytes = 8;
// After an error answer, what a client may still send (a refused body, say)
// before the connection closes; reading it keeps the kernel from resetting
// the connection before the client has read the answer.
constexpr std::size_t LingerBytes = 2 * 1024 * 1024;
constexpr std::chrono::seconds LingerTime{2};
// A body refused for its size is still read (and dropped) up to this size
// before the 413, for clients that read no answer before their upload ends
// (Qt's QNetworkAccessManager, say); a larger one is answered at once.
constexpr std::uint64_t DiscardBytes = 16 * 1024 * 1024;

// Linux delays ACKs; a client whose POST body waits for the header's ACK
// (Nagle on its side) would wait 40 ms. Asked for again before each body read.
void quickAck(asio::ip::tcp::socket &socket)
{
#ifdef TCP_QUICKACK
    const int on = 1;
    ::setsockopt(socket.native_handle(), IPPROTO_TCP, TCP_QUICKACK, &on, sizeof on);
#else
    Q_UNUSED(socket)
#endif
}

bool clientGone(const beast::error_code &error)
{
    return error == beasthttp::error::end_of_stream || error == beasthttp::error::partial_message ||
           error == asio::error::eof || error == asio::error::connection_reset ||
           error == asio::error::operation_aborted || error == asio::error::broken_pipe ||
           error == asio::ssl::error::stream_truncated;
}

} // namespace

template <class Stream>
HttpSession<Stream>::HttpSession(std::shared_ptr<HttpShared> shared, Stream stream,
                                 asio::ip::address peer)
    : m_shared(std::move(shared))
    , m_stream(std::move(stream))
    , m_peer(std::move(peer))
    , m_deadline(m_stream.get_executor())
{}

template <class Stream> HttpSession<Stream>::~HttpSession()
{
    m_shared->connections.release(m_peer, this);
}

template <class Stream> beast::tcp_stream &HttpSession<Stream>::tcp()
{
    return beast::get_lowest_layer(m_stream);
}

template <class Stream> void HttpSession<Stream>::armDeadline(std::chrono::seconds limit)
{
    m_timedOut = false;
    m_deadline.expires_after(limit);
    m_deadline.async_wait([weak = this->weak_from_this()](beast::error_code error) {
        const auto self = weak.lock();
        if (error || !self)
            return;
        self->m_timedOut = true;
        beast::error_code ignored;
        self->tcp().socket().cancel(ignored);
    });
}

template <class Stream> void HttpSession<Stream>::start()
{
    // A connection its client reset before it was accepted refuses options;
    // the read that follows fails and closes it.
    beast::error_code ignored;
    tcp().socket().set_option(asio::ip::tcp::no_delay(true), ignored);
    if constexpr (IsTls) {
        m_phase = Phase::Handshake;
        tcp().expires_after(m_shared->limits.headerTimeout);
        m_stream.async_handshake(
            asio::ssl::stream_base::server,
            beast::bind_front_handler(&HttpSession::onHandshake, this->shared_from_this()));
    } else {
        readRequest();
    }
}

template <class Stream> void HttpSession<Stream>::onHandshake(beast::error_code error)
{
    if (error)
        return close();
    readRequest();
}

template <class Stream> void HttpSession<Stream>::readRequest()
{
    if (m_shared->connections.draining() && m_buffer.size() == 0)
        return close();
    m_parser.emplace();
    configureParser(*m_parser, m_shared->limits);
    m_emptyLineBytes = 0;
    skipEmptyLines();
    if (m_buffer.size() != 0) // pipelined: the next request is here already
        return readHeader();
    m_phase = Phase::Idle;
    tcp().expires_never();
    armDeadline(m_shared->limits.idleTimeout);
    readFirstBytes();
}

template <class Stream> void HttpSession<Stream>::readFirstBytes()
{
    m_stream.async_read_some(
        m_buffer.prepare(ReadChunk),
        beast::bind_front_handler(&HttpSession::onFirstBytes, this->shared_from_this()));
}

template <class Stream> void HttpSession<Stream>::skipEmptyLines()
{
    while (m_buffer.size() != 0 && m_emptyLineBytes < MaxEmptyLineBytes) {
        const char c = *static_cast<const char *>(m_buffer.cdata().data());
        if (c != '\r' && c != '\n')
            return;
        m_buffer.consume(1);
        ++m_emptyLineBytes;
    }
}

template <class Stream>
void HttpSession<Stream>::onFirstBytes(beast::error_code error, std::size_t bytes)
{
    if (m_phase == Phase::Closed)
        return;
    if (error) // idle too long, or the client closed between requests: nothing to answer
        return close();
    m_buffer.commit(bytes);
    skipEmptyLines();
    if (m_buffer.size() == 0) // only empty lines so far: still idle
        return readFirstBytes();
    readHeader();
}

template <class Stream> void HttpSession<Stream>::readHeader()
{
    m_phase = Phase::Header;
    tcp().expires_never();
    armDeadline(m_shared->limits.headerTimeout);
    beasthttp::async_read_header(
        m_stream, m_buffer, *m_parser,
        beast::bind_front_handler(&HttpSession::onHeader, this->shared_from_this()));
}

template <class Stream> void HttpSession<Stream>::onHeader(beast::error_code error, std::size_t)
{
    if (m_phase == Phase::Closed)
        return;
    if (error)
        return failed(error);
    m_version = m_parser->get().version();
    m_keepAlive = m_parser->keep_alive();
    m_head = m_parser->get().method() == beasthttp::verb::head;
    const bool expectsContinue =
        beast::iequals(m_parser->get()[beasthttp::field::expect], "100-continue");
    if (auto failure = checkHeader(*m_parser, m_shared->limits)) {
        const auto length = m_parser->content_length();
        if (failure->status == 413 && !expectsContinue && length && *length <= DiscardBytes) {
            // Read whole, the connection is clean again: it stays open.
            HttpResponse refused = failure->response();
            refused.close = false;
            armDeadline(m_shared->limits.bodyTimeout);
            return discardThenAnswer(*length, std::move(refused));
        }
        return answer(failure->response());
    }
    limitBody(*m_parser, m_shared->limits);
    if (m_parser->is_done())
        return onBody({}, 0);
    if (expectsContinue) {
        // The client waits for this before it sends the body.
        static constexpr std::string_view Continue = "HTTP/1.1 100 Continue\r\n\r\n";
        asio::async_write(m_stream, asio::buffer(Continue.data(), Continue.size()),
                          [self = this->shared_from_this()](beast::error_code e, std::size_t) {
                              if (self->m_phase == Phase::Closed)
                                  return;
                              if (e)
                                  return self->close();
                              self->readBody();
                          });
        return;
    }
    readBody();
}

template <class Stream> void HttpSession<Stream>::readBody()
{
    m_phase = Phase::Body;
    armDeadline(m_shared->limits.bodyTimeout);
    quickAck(tcp().socket());
    beasthttp::async_read(
        m_stream, m_buffer, *m_parser,
        beast::bind_front_handler(&HttpSession::onBody, this->shared_from_this()));
}

template <class Stream> void HttpSession<Stream>::onBody(beast::error_code error, std::size_t)
{
    if (m_phase == Phase::Closed)
        return;
    if (error)
        return failed(error);
    m_phase = Phase::Processing;
    m_deadline.cancel();
    m_keepAlive = m_parser->keep_alive();
    HttpRequest request =
        takeRequest(*m_parser, QHostAddress(QString::fromStdString(m_peer.to_string())));
    m_parser.reset();
    // The handler answers once, from any thread; the answer joins this
    // connection's strand, where a closed connection drops it.
    auto once = std::make_shared<std::atomic_bool>(false);
    HttpResponder responder([self = this->shared_from_this(), once](HttpResponse response) {
        if (once->exchange(true))
            return;
        asio::post(self->m_stream.get_executor(), [self, response = std::move(response)]() mutable {
            self->answer(std::move(response));
        });
    });
    m_shared->handler(std::move(request), std::move(responder));
}

template <class Stream> void HttpSession<Stream>::failed(beast::error_code error)
{
    if (m_timedOut) {
        // Part of a request came, not all of it in time: say so, then close.
        // (A TLS stream whose read was cut off mid-record cannot write on.)
        if (!IsTls && (m_phase == Phase::Header || m_phase == Phase::Body))
            return answer(
                {408,
                 "application/json",
                 api::ErrorBody::of({408, api::ErrorCode::RequestTimeout,
                                     QStringLiteral("the request was not received in time")}),
                 {},
                 true});
        return close();
    }
    if (clientGone(error))
        return close();
    const auto data = m_buffer.cdata();
    answer(failureFor(error, std::string_view(static_cast<const char *>(data.data()), data.size()))
               .response());
}

template <class Stream>
void HttpSession<Stream>::discardThenAnswer(std::uint64_t left, HttpResponse response)
{
    m_phase = Phase::Body;
    const std::size_t here = std::size_t(std::min<std::uint64_t>(left, m_buffer.size()));
    m_buffer.consume(here);
    left -= here;
    if (left == 0)
        return answer(std::move(response));
    m_stream.async_read_some(
        m_buffer.prepare(ReadChunk),
        [self = this->shared_from_this(), left,
         response = std::move(response)](beast::error_code error, std::size_t bytes) mutable {
            if (self->m_phase == Phase::Closed)
                return;
            if (error)
                return self->failed(error);
            self->m_buffer.commit(bytes);
            self->discardThenAnswer(left, std::move(response));
        });
}

template <class Stream> void HttpSession<Stream>::answer(HttpResponse response)
{
    if (m_phase == Phase::Closed) // the connection went while the answer was made
        return;
    m_phase = Phase::Writing;
    m_deadline.cancel();
    m_closeAfterWrite = response.close || !m_keepAlive || m_shared->connections.draining();
    auto &message = m_response.emplace();
    message.version(m_version == 10 ? 10 : 11);
    message.result(unsigned(response.status));
    if (!response.contentType.isEmpty())
        message.set(beasthttp::field::content_type,
                    std::string_view(response.contentType.constData(),
                                     std::size_t(response.contentType.size())));
    for (const auto &[name, value] : response.headers)
        message.set(std::string_view(name.constData(), std::size_t(name.size())),
                    std::string_view(value.constData(), std::size_t(value.size())));
    message.body().assign(response.body.constData(), std::size_t(response.body.size()));
    if (m_head) { // only the health routes answer HEAD: without a body, then the connection
        message.body().clear();
        m_closeAfterWrite = true;
    }
    message.keep_alive(!m_closeAfterWrite);
    // RFC 9110 8.6: no Content-Length on a 204 (nor a 1xx, which no route sends).
    if (response.status != 204)
        message.prepare_payload();
    tcp().expires_after(m_shared->limits.writeTimeout);
    beasthttp::async_write(
        m_stream, message,
        beast::bind_front_handler(&HttpSession::onWritten, this->shared_from_this()));
}

template <class Stream> void HttpSession<Stream>::onWritten(beast::error_code error, std::size_t)
{
    m_response.reset();
    if (m_phase == Phase::Closed)
        return;
    if (error)
        return close();
    if (m_closeAfterWrite)
        return closeGracefully();
    readRequest();
}

// Sends FIN (after TLS's close_notify), then reads and drops what the client
// still sends for a moment.
template <class Stream> void HttpSession<Stream>::closeGracefully()
{
    if constexpr (IsTls) {
        m_phase = Phase::Closed;
        tcp().expires_after(LingerTime);
        m_stream.async_shutdown(
            [self = this->shared_from_this()](beast::error_code) { self->close(); });
        return;
    }
    beast::error_code ignored;
    tcp().socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
    m_phase = Phase::Closed;
    m_buffer.clear();
    tcp().expires_after(LingerTime);
    discardUntilClosed();
}

template <class Stream> void HttpSession<Stream>::discardUntilClosed()
{
    // Below TLS: the records a client sends after our close need no decoding.
    tcp().async_read_some(m_buffer.prepare(ReadChunk),
                          [self = this->shared_from_this()](beast::error_code e, std::size_t n) {
                              self->m_buffer.clear();
                              if (e || (self->m_lingered += n) > LingerBytes)
                                  return self->close();
                              self->discardUntilClosed();
                          });
}

template <class Stream> void HttpSession<Stream>::close()
{
    m_phase = Phase::Closed;
    m_deadline.cancel();
    beast::error_code ignored;
    tcp().socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    tcp().close();
}

template <class Stream> void HttpSession<Stream>::drain()
{
    asio::post(m_stream.get_executor(), [self = this->shared_from_this()] {
        beast::error_code error;
        const std::size_t waiting = self->tcp().socket().available(error);
        if (self->m_phase == Phase::Idle && self->m_buffer.size() == 0 && waiting == 0)
            self->close();
    });
}

template <class Stream> void HttpSession<Stream>::closeIfReading()
{
    asio::post(m_stream.get_executor(), [self = this->shared_from_this()] {
        switch (self->m_phase) {
        case Phase::Handshake:
        case Phase::Idle:
        case Phase::Header:
        case Phase::Body:
            self->close();
            break;
        case Phase::Processing:
        case Phase::Writing:
        case Phase::Closed:
            break;
        }
    });
}

template class HttpSession<PlainStream>;
template class HttpSession<TlsStream>;

} // namespace md::http
