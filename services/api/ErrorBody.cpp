#include "services/api/ErrorBody.h"

#include "services/api/JsonValue.h"
#include "services/api/JsonWriter.h"

namespace md::api {

using namespace Qt::StringLiterals;

QByteArray ErrorBody::of(const ApiError &error)
{
    JsonWriter writer;
    writer.beginObject()
        .field("message"_L1, error.message)
        .field("code"_L1, error.code)
        .endObject();
    return writer.take();
}

ApiError ErrorBody::read(int status, QByteArrayView body)
{
    const auto parsed = JsonValue::parse(body, u"the answer"_s);
    if (!parsed)
        return ApiError::received(status, QString(), QString());
    return ApiError::received(status, parsed.value().value("code"_L1).toString(),
                              parsed.value().value("message"_L1).toString());
}

} // namespace md::api
