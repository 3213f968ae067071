#include "services/api/ApiError.h"

#include <utility>

namespace md::api {

using namespace Qt::StringLiterals;

ApiError::ApiError(int httpStatus, ErrorCode word, QString sentence)
    : status(httpStatus)
    , code(wordOf(word))
    , message(std::move(sentence))
{}

ApiError ApiError::invalidInputs(const QString &path, const QString &problem)
{
    return {400, ErrorCode::InvalidInputs,
            path.isEmpty() ? problem : path + QStringLiteral(": ") + problem};
}

ApiError ApiError::invalidRequest(const QString &message)
{
    return {400, ErrorCode::InvalidRequest, message};
}

ApiError ApiError::invalidCursor(const QString &message)
{
    return {400, ErrorCode::InvalidCursor, message};
}

ApiError ApiError::notFound(ErrorCode code, const QString &message)
{
    return {404, code, message};
}

ApiError ApiError::local(const QString &code, const QString &message)
{
    return received(0, code, message);
}

ApiError ApiError::received(int status, const QString &code, const QString &message)
{
    ApiError error;
    error.status = status;
    error.code = code;
    error.message = message;
    return error;
}

ApiError ApiError::internal(const QString &message)
{
    return {500, ErrorCode::InternalError, message};
}

ApiError ApiError::notImplemented(const QString &operation)
{
    return {501, ErrorCode::NotImplemented,
            QStringLiteral("%1 is not implemented by this Meterdesk yet").arg(operation)};
}

} // namespace md::api
