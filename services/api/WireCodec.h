// Entry points for decoding a wire value into a type with a static
// `T read(const JsonReader &)` and encoding it back with
// `void write(JsonWriter &) const`.
#pragma once

#include "services/api/JsonReader.h"
#include "services/api/JsonWriter.h"
#include "services/api/Result.h"

#include <QStringList>

namespace md::api {

template <typename T> Result<T> decode(const JsonValue &value)
{
    const JsonReader reader(value);
    T decoded = T::read(reader);
    if (!reader.ok())
        return *reader.error();
    return decoded;
}

// From a reader made by JsonReader::fromBody, which knows the body's text.
template <typename T> Result<T> decode(const JsonReader &reader)
{
    if (!reader.ok())
        return *reader.error();
    T decoded = T::read(reader);
    if (!reader.ok())
        return *reader.error();
    return decoded;
}

// From JSON text: a request body, an answer, a stored value.
template <typename T> Result<T> decodeBody(QByteArrayView body)
{
    return decode<T>(JsonReader::fromBody(body));
}

template <typename T> QList<T> readList(const JsonReader &reader)
{
    QList<T> items;
    for (const JsonReader &item : reader.array())
        items.append(T::read(item));
    return items;
}

// An array of wire values, each with `write(JsonWriter &)`.
template <typename T> void writeList(JsonWriter &writer, const QList<T> &items)
{
    writer.beginArray();
    for (const T &item : items)
        item.write(writer);
    writer.endArray();
}

inline void writeStrings(JsonWriter &writer, const QStringList &strings)
{
    writer.beginArray();
    for (const QString &s : strings)
        writer.value(s);
    writer.endArray();
}

// A wire value that may be null.
template <typename T> void writeNullable(JsonWriter &writer, const std::optional<T> &value)
{
    if (value)
        value->write(writer);
    else
        writer.null();
}

// Most of the wire is snake_case; the import response's customer object is
// camelCase (docs/api.md, The customer object). Types that appear in both read and write either.
enum class KeyCase { Snake, Camel };

inline QLatin1StringView wireKey(KeyCase keys, QLatin1StringView snake, QLatin1StringView camel)
{
    return keys == KeyCase::Camel ? camel : snake;
}

// The wire word of an enumeration value, from the same table that decodes it.
template <typename E, std::size_t N>
QLatin1StringView wordOf(const std::pair<QLatin1StringView, E> (&words)[N], E value)
{
    for (const auto &[wire, v] : words)
        if (v == value)
            return wire;
    return words[0].first;
}

// An object that may be null (nullopt) but must be present.
template <typename T> std::optional<T> readNullable(const JsonReader &reader)
{
    if (reader.isNull())
        return std::nullopt;
    return T::read(reader);
}

// An array of strings.
inline QStringList readStringList(const JsonReader &reader)
{
    QStringList strings;
    for (const JsonReader &item : reader.array())
        strings.append(item.string());
    return strings;
}

} // namespace md::api
