// JSON the engine keeps in text columns (balance prices, product items and
// trials, reward records, event tokens and properties, customer metadata),
// read and written with every number exact (docs/json.md).
#pragma once

#include "services/api/WireCodec.h"

#include <QVariant>

namespace md::engine {

// A column's JSON; a NULL column is JSON null.
api::Result<api::JsonValue> storedJson(const QVariant &column);

// A column read by `read(const JsonReader &)`; a damaged value is a 500
// naming `what` (a stored value is the engine's own, never a caller's).
template <typename F>
auto decodeStored(const QVariant &column, const QString &what, F &&read)
    -> api::Result<decltype(read(std::declval<const api::JsonReader &>()))>
{
    const api::JsonReader reader =
        api::JsonReader::fromText(column.toString().toUtf8(), QStringLiteral("the stored value"));
    auto value = read(reader);
    if (!reader.ok())
        return api::ApiError::internal(
            QStringLiteral("stored %1 is damaged: %2").arg(what, reader.error()->message));
    return value;
}

// A column holding one T (with `static T read(const JsonReader &)`).
template <typename T> api::Result<T> decodeStored(const QVariant &column, const QString &what)
{
    return decodeStored(column, what, [](const api::JsonReader &r) { return T::read(r); });
}

// A wire value as a JSON value (an audit entry's before and after).
template <typename T> api::JsonValue jsonOf(const T &value)
{
    auto parsed = api::JsonValue::parse(api::toJsonText(value), QString(), 64);
    return parsed ? parsed.value() : api::JsonValue::null();
}

// The text to store for a wire value or a JSON value.
template <typename T> QString storedText(const T &value)
{
    return QString::fromUtf8(api::toJsonText(value));
}

template <typename T> QString storedText(const QList<T> &items)
{
    api::JsonWriter writer;
    api::writeList(writer, items);
    return QString::fromUtf8(writer.take());
}

} // namespace md::engine
