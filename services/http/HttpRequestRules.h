// The HTTP/1.1 rules a request must meet before any route sees it, on top of
// what Boost.Beast's parser already refuses: one Host, a chunked or
// Content-Length body (never both), an origin-form target, bounded fields.
// Shared by the connections and the fuzz target, so both judge alike.
#pragma once

#include "services/api/ErrorCode.h"
#include "services/http/HttpExchange.h"
#include "services/http/HttpLimits.h"

#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include <optional>
#include <string_view>
#include <variant>

namespace md::http {

using RequestParser = boost::beast::http::request_parser<boost::beast::http::string_body>;

// An answer that ends the connection: the request could not be read.
struct HttpFailure
{
    int status = 400;
    api::ErrorCode code = api::ErrorCode::BadRequest;
    QByteArray message;

    HttpResponse response() const;
};

// Applies the header limits to a new parser; limitBody() the body's, once
// checkHeader() has passed.
void configureParser(RequestParser &parser, const HttpLimits &limits);
void limitBody(RequestParser &parser, const HttpLimits &limits);
// What a complete header breaks, if anything.
std::optional<HttpFailure> checkHeader(const RequestParser &parser, const HttpLimits &limits);
// What to answer for an error of the parser; `received` is what the
// connection had read of this request (the request line tells a version
// this server does not speak, 505, from one that is not HTTP, 400).
HttpFailure failureFor(const boost::beast::error_code &error, std::string_view received);
// The request a finished parser holds, for the handler.
HttpRequest takeRequest(RequestParser &parser, const QHostAddress &peer);

// Reads one request from `bytes` the way a connection does (for the fuzz
// target and tests): the request, the failure to answer, or nothing yet.
struct Incomplete
{};
std::variant<HttpRequest, HttpFailure, Incomplete> parseRequest(std::string_view bytes,
                                                                const HttpLimits &limits);

} // namespace md::http
