#include "services/engine/sql/StoredJson.h"

namespace md::engine {

api::Result<api::JsonValue> storedJson(const QVariant &column)
{
    if (column.isNull())
        return api::JsonValue::null();
    auto parsed =
        api::JsonValue::parse(column.toString().toUtf8(), QStringLiteral("a stored value"));
    if (!parsed)
        return api::ApiError::internal(parsed.error().message);
    return parsed;
}

} // namespace md::engine
