#include "services/server/RequestHeaders.h"

#include "services/api/Identifier.h"

namespace md::server {

using namespace Qt::StringLiterals;
using api::ApiError;

namespace {

// RFC 9110 11.1: the auth scheme is case-insensitive; the token follows one space.
QString bearerSecret(const QByteArray &authorization)
{
    const qsizetype space = authorization.indexOf(' ');
    if (space < 0 || authorization.left(space).toLower() != "bearer")
        return {};
    return QString::fromUtf8(authorization.mid(space + 1)).trimmed();
}

std::optional<ApiError> versionProblem(const http::HttpRequest &request, bool versionRequired)
{
    const qsizetype sent = request.headerCount("x-api-version");
    const QByteArray version = request.header("x-api-version").trimmed();
    if (sent > 1 || version.contains(','))
        return ApiError{400, api::ErrorCode::InvalidApiVersion,
                        u"x-api-version takes one version, not a list; send 2.4.0"_s};
    // docs/api.md: required on balances.list, 2.4.0 assumed elsewhere.
    if (sent == 0)
        return versionRequired ? std::optional(ApiError{400, api::ErrorCode::InvalidApiVersion,
                                                        u"send the header x-api-version: 2.4.0"_s})
                               : std::nullopt;
    if (version == "2.4" || version.startsWith("2.4."))
        return std::nullopt;
    return ApiError{400, api::ErrorCode::InvalidApiVersion,
                    u"x-api-version %1 is not supported; send 2.4.0"_s.arg(
                        QString::fromLatin1(version.left(32)))};
}

std::optional<ApiError> idempotencyProblem(const http::HttpRequest &request,
                                           std::optional<QString> &key)
{
    const qsizetype sent = request.headerCount("idempotency-key");
    if (sent == 0)
        return std::nullopt;
    const auto invalid = [](const QString &problem) {
        return ApiError::invalidInputs(u"Idempotency-Key"_s, problem);
    };
    if (sent > 1)
        return invalid(u"send the header once"_s);
    const QByteArray value = request.header("idempotency-key");
    if (auto problem = api::idempotencyKeyProblem(value))
        return invalid(*problem);
    key = QString::fromLatin1(value);
    return std::nullopt;
}

} // namespace

RequestHeaders RequestHeaders::read(const http::HttpRequest &request, bool versionRequired)
{
    RequestHeaders headers;
    if (request.headerCount("authorization") == 1)
        headers.secret = bearerSecret(request.header("authorization"));
    headers.problem = versionProblem(request, versionRequired);
    if (auto problem = idempotencyProblem(request, headers.idempotencyKey); !headers.problem)
        headers.problem = std::move(problem);
    return headers;
}

} // namespace md::server
