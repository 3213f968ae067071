#include "services/api/ApiError.h"

namespace md::api {

using namespace Qt::StringLiterals;

ApiError ApiError::invalidInputs(const QString &path, const QString &problem)
{
    return {400, QStringLiteral("invalid_inputs"),
            path.isEmpty() ? problem : path + QStringLiteral(": ") + problem};
}

ApiError ApiError::invalidRequest(const QString &message)
{
    return {400, QStringLiteral("invalid_request"), message};
}

ApiError ApiError::invalidCursor(const QString &message)
{
    return {400, QStringLiteral("invalid_cursor"), message};
}

ApiError ApiError::notFound(const QString &code, const QString &message)
{
    return {404, code, message};
}

ApiError ApiError::local(const QString &code, const QString &message)
{
    return {0, code, message};
}

ApiError ApiError::internal(const QString &message)
{
    return {500, QStringLiteral("internal_error"), message};
}

ApiError ApiError::notImplemented(const QString &operation)
{
    return {501, QStringLiteral("not_implemented"),
            QStringLiteral("%1 is not implemented by this Meterdesk yet").arg(operation)};
}

} // namespace md::api
