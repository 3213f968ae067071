#include "services/api/ApiError.h"

namespace md::api {

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

ApiError ApiError::internal(const QString &message)
{
    return {500, QStringLiteral("internal_error"), message};
}

ApiError ApiError::notImplemented(const QString &operation)
{
    return {501, QStringLiteral("not_implemented"),
            QStringLiteral("%1 is not implemented by this Meterdesk yet").arg(operation)};
}

QJsonObject ApiError::toJson() const
{
    return QJsonObject{{QStringLiteral("message"), message}, {QStringLiteral("code"), code}};
}

ApiError ApiError::fromJson(int status, const QJsonObject &body)
{
    return {status, body.value(QStringLiteral("code")).toString(),
            body.value(QStringLiteral("message")).toString()};
}

} // namespace md::api
