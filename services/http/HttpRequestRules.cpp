#include "services/http/HttpRequestRules.h"

#include "services/api/ApiError.h"
#include "services/api/ErrorBody.h"

#include <boost/asio/buffer.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/error.hpp>

#include <limits>
#include <regex>

namespace md::http {

namespace beasthttp = boost::beast::http;
using namespace Qt::StringLiterals;

HttpResponse HttpFailure::response() const
{
    const api::ApiError error{status, code, QString::fromUtf8(message)};
    return {status, "application/json", api::ErrorBody::of(error), {}, true};
}

void configureParser(RequestParser &parser, const HttpLimits &limits)
{
    parser.header_limit(std::uint32_t(std::min<std::size_t>(limits.maxHeaderBytes, UINT32_MAX)));
    // The body's limit is checked by checkHeader, which can answer a
    // Content-Length past it better than the parser's error; limitBody()
    // then bounds a chunked body. (Not boost::none: Beast 1.74 compares a
    // length with it as "greater", refusing every body.)
    parser.body_limit(std::numeric_limits<std::uint64_t>::max());
}

void limitBody(RequestParser &parser, const HttpLimits &limits)
{
    parser.body_limit(limits.bodyLimitFor(parser.get().target()));
}

namespace {

HttpFailure badRequest(const QByteArray &message)
{
    return {400, api::ErrorCode::BadRequest, message};
}

bool equalsIgnoringCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

// RFC 9112 6.1: chunked must be the last coding; others this server cannot decode.
std::optional<HttpFailure> checkTransferEncoding(std::string_view value)
{
    const std::size_t comma = value.rfind(',');
    const std::string_view last =
        trimmed(comma == std::string_view::npos ? value : value.substr(comma + 1));
    if (!equalsIgnoringCase(last, "chunked"))
        return badRequest("Transfer-Encoding must end with chunked");
    if (comma != std::string_view::npos)
        return HttpFailure{501, api::ErrorCode::NotImplemented,
                           "this server decodes no transfer coding but chunked"};
    return std::nullopt;
}

} // namespace

std::optional<HttpFailure> checkHeader(const RequestParser &parser, const HttpLimits &limits)
{
    const auto &header = parser.get();
    std::size_t fields = 0;
    std::size_t hosts = 0;
    std::size_t encodings = 0;
    for (const auto &field : header) {
        ++fields;
        hosts += field.name() == beasthttp::field::host ? 1 : 0;
        encodings += field.name() == beasthttp::field::transfer_encoding ? 1 : 0;
    }
    if (fields > limits.maxHeaderFields)
        return HttpFailure{431, api::ErrorCode::HeaderTooLarge,
                           QByteArray("the request has ") + QByteArray::number(qulonglong(fields)) +
                               " header fields; this server accepts at most " +
                               QByteArray::number(qulonglong(limits.maxHeaderFields))};
    if (hosts > 1 || (hosts == 0 && header.version() >= 11))
        return badRequest("an HTTP/1.1 request needs exactly one Host field");
    const std::string_view target = header.target();
    if (target.empty() || target.front() != '/')
        return badRequest("the request target must be a path starting with /");
    if (encodings > 1)
        return badRequest("Transfer-Encoding must be sent once");
    if (encodings == 1) {
        if (auto failure = checkTransferEncoding(header[beasthttp::field::transfer_encoding]))
            return failure;
    }
    const std::size_t bodyLimit = limits.bodyLimitFor(target);
    if (const auto length = parser.content_length(); length && *length > bodyLimit)
        return HttpFailure{413, api::ErrorCode::PayloadTooLarge,
                           QByteArray("the body is ") + QByteArray::number(qulonglong(*length)) +
                               " bytes; this server accepts at most " +
                               QByteArray::number(qulonglong(bodyLimit))};
    return std::nullopt;
}

HttpFailure failureFor(const boost::beast::error_code &error, std::string_view received)
{
    using E = beasthttp::error;
    if (error == E::header_limit)
        return {431, api::ErrorCode::HeaderTooLarge,
                "the request header is larger than this server accepts"};
    if (error == E::body_limit)
        return {413, api::ErrorCode::PayloadTooLarge,
                "the body is larger than this server accepts"};
    if (error == E::bad_version) {
        // A well-formed version this server does not speak, such as HTTP/2.0 or HTTP/9.9.
        static const std::regex versionLine(R"(^[!-~]+ [!-~]+ HTTP/[0-9]\.[0-9]\r?\n)");
        const std::string_view line = received.substr(0, received.find('\n') + 1);
        if (std::regex_search(line.begin(), line.end(), versionLine))
            return {505, api::ErrorCode::HttpVersionNotSupported,
                    "this server speaks HTTP/1.1 and HTTP/1.0"};
        return badRequest("the request line is not method, target and HTTP version");
    }
    if (error == E::bad_content_length)
        return badRequest("Content-Length is malformed, or sent with another value or with "
                          "Transfer-Encoding");
    if (error == E::bad_transfer_encoding)
        return badRequest("Transfer-Encoding is sent twice or with Content-Length");
    if (error == E::bad_chunk || error == E::bad_chunk_extension)
        return badRequest("a chunk of the body is malformed");
    if (error == E::bad_field || error == E::bad_value || error == E::bad_obs_fold)
        return badRequest("a header line is not a field name, a colon and a value");
    if (error == E::bad_method || error == E::bad_target)
        return badRequest("the request line is not method, target and HTTP version");
    return badRequest(QByteArray("the request is malformed: ") + error.message().c_str());
}

HttpRequest takeRequest(RequestParser &parser, const QHostAddress &peer)
{
    auto message = parser.release();
    HttpRequest request;
    request.method =
        QByteArray(message.method_string().data(), qsizetype(message.method_string().size()));
    const std::string_view target = message.target();
    const std::size_t question = target.find('?');
    request.path = QByteArray(target.data(), qsizetype(std::min(question, target.size())));
    if (question != std::string_view::npos)
        request.query =
            QByteArray(target.data() + question + 1, qsizetype(target.size() - question - 1));
    for (const auto &field : message) {
        const std::string_view name = field.name_string();
        const std::string_view value = field.value();
        request.headers.append({QByteArray(name.data(), qsizetype(name.size())).toLower(),
                                QByteArray(value.data(), qsizetype(value.size()))});
    }
    request.body = QByteArray(message.body().data(), qsizetype(message.body().size()));
    request.peer = peer;
    return request;
}

std::variant<HttpRequest, HttpFailure, Incomplete> parseRequest(std::string_view bytes,
                                                                const HttpLimits &limits)
{
    RequestParser parser;
    configureParser(parser, limits);
    parser.eager(false);
    boost::beast::error_code error;
    std::size_t used = 0;
    // The header first, then the checks, then the body: as a connection does.
    while (!parser.is_header_done()) {
        used += parser.put(boost::asio::buffer(bytes.data() + used, bytes.size() - used), error);
        if (error == beasthttp::error::need_more)
            return Incomplete{};
        if (error)
            return failureFor(error, bytes);
    }
    if (auto failure = checkHeader(parser, limits))
        return *failure;
    limitBody(parser, limits);
    parser.eager(true);
    while (!parser.is_done()) {
        const std::size_t step =
            parser.put(boost::asio::buffer(bytes.data() + used, bytes.size() - used), error);
        used += step;
        if (error == beasthttp::error::need_more || (!error && step == 0))
            return Incomplete{};
        if (error)
            return failureFor(error, bytes);
    }
    return takeRequest(parser, QHostAddress());
}

} // namespace md::http
