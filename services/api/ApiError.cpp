#include "services/api/ApiError.h"

#include "services/api/JsonValue.h"
#include "services/api/JsonWriter.h"

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

QByteArray ApiError::toJsonText() const
{
    JsonWriter writer;
    writer.beginObject().field("message"_L1, message).field("code"_L1, code).endObject();
    return writer.take();
}

ApiError ApiError::fromJsonText(int status, QByteArrayView body)
{
    const auto parsed = JsonValue::parse(body, u"the answer"_s);
    if (!parsed)
        return {status, QString(), QString()};
    return {status, parsed.value().value("code"_L1).toString(),
            parsed.value().value("message"_L1).toString()};
}

} // namespace md::api
