// Writes JSON text straight into a buffer, a value at a time (RapidJSON's
// writer underneath; docs/json.md says why). Decimals are written from their
// own digits, never through a double, so every amount leaves as it is held.
#pragma once

#include "services/api/Decimal.h"

#include <QByteArray>
#include <QLatin1StringView>
#include <QString>

#include <memory>
#include <optional>

namespace md::api {

class JsonWriter final
{
public:
    enum class Style { Compact, Indented };

    explicit JsonWriter(Style style = Style::Compact);
    ~JsonWriter();
    Q_DISABLE_COPY_MOVE(JsonWriter)

    JsonWriter &beginObject();
    JsonWriter &endObject();
    JsonWriter &beginArray();
    JsonWriter &endArray();
    JsonWriter &key(QLatin1StringView key);
    JsonWriter &key(const QString &key);

    JsonWriter &null();
    JsonWriter &value(bool b);
    JsonWriter &value(qint64 n);
    JsonWriter &value(int n) { return value(qint64(n)); }
    JsonWriter &value(Decimal d);
    JsonWriter &value(const QString &s);
    JsonWriter &value(QLatin1StringView s);
    // Null when absent.
    template <typename T> JsonWriter &value(const std::optional<T> &v)
    {
        return v ? value(*v) : null();
    }

    // A member: key then value.
    template <typename T> JsonWriter &field(QLatin1StringView name, const T &v)
    {
        key(name);
        return value(v);
    }

    // Written as they are: a number literal, UTF-8 text, a key in UTF-8.
    JsonWriter &rawNumber(QByteArrayView literal);
    JsonWriter &utf8(QByteArrayView text);
    JsonWriter &utf8Key(QByteArrayView text);

    // The text written so far; the writer is empty afterwards.
    QByteArray take();

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// Any wire type with `void write(JsonWriter &) const`, as JSON text.
template <typename T>
requires requires(const T &v, JsonWriter &w)
{
    v.write(w);
}
QByteArray toJsonText(const T &value, JsonWriter::Style style = JsonWriter::Style::Compact)
{
    JsonWriter writer(style);
    value.write(writer);
    return writer.take();
}

} // namespace md::api
