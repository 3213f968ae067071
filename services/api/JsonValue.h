// A parsed JSON value that keeps every number as the text it was written
// with, so an amount is read digit for digit (Qt's JSON, like most DOMs, holds
// numbers as doubles and rounds past 17 digits; docs/json.md). Parsing is
// RapidJSON's; this class only holds the tree. Copies share their data.
#pragma once

#include "services/api/ApiError.h"
#include "services/api/Decimal.h"
#include "services/api/Result.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <initializer_list>
#include <utility>

namespace md::api {

class JsonWriter;

class JsonValue final
{
public:
    enum class Type : quint8 { Undefined, Null, Bool, Number, String, Array, Object };

    JsonValue() = default; // undefined: a missing member
    // Values of the types the wire carries, for building documents.
    JsonValue(bool value);
    JsonValue(int value);
    JsonValue(qint64 value);
    JsonValue(const QString &value);
    JsonValue(Decimal value);
    JsonValue(const char *) = delete; // would be taken as a bool
    static JsonValue null();
    static JsonValue boolean(bool value);
    // `literal` must be a JSON number (JsonWriter writes it as it is).
    static JsonValue number(QByteArray literal);
    static JsonValue number(qint64 value);
    static JsonValue string(const QString &value);
    // What a person typed into a number field: a JSON number literal becomes
    // that number, its text kept (so "0.1234567891" reaches the decoder,
    // which says it has too many places); anything else stays a string, so
    // the decoder says a number was expected there.
    static JsonValue numberOrString(const QString &typed);
    static JsonValue array(std::initializer_list<JsonValue> items = {});
    static JsonValue
    object(std::initializer_list<std::pair<QLatin1StringView, JsonValue>> members = {});

    // Far above any request's shape, far below what could exhaust a stack.
    static constexpr int MaxDepth = 64;
    // Parses one JSON text. A syntax error, bad UTF-8, a lone surrogate, a
    // key twice in one object or nesting past `maxDepth` is 400
    // invalid_inputs naming the offset or wire path; `subject` names the
    // text in the message ("the body is not valid JSON ...").
    static Result<JsonValue> parse(QByteArrayView text, const QString &subject,
                                   int maxDepth = MaxDepth);

    Type type() const { return m_type; }
    bool isUndefined() const { return m_type == Type::Undefined; }
    bool isNull() const { return m_type == Type::Null; }
    bool isBool() const { return m_type == Type::Bool; }
    bool isNumber() const { return m_type == Type::Number; }
    bool isString() const { return m_type == Type::String; }
    bool isArray() const { return m_type == Type::Array; }
    bool isObject() const { return m_type == Type::Object; }

    bool toBool() const { return m_bool; }
    // Strings: the text; anything else: empty.
    QString toString() const;
    // Numbers: the literal as written ("12.50", "1e3"); anything else: empty.
    QByteArrayView numberText() const;

    // Arrays and objects: the number of items or members.
    qsizetype size() const { return m_items.size(); }
    const JsonValue &at(qsizetype i) const { return m_items.at(i); }
    // Objects: the member's value, or an undefined value when it is absent.
    const JsonValue &value(QLatin1StringView key) const;
    bool contains(QLatin1StringView key) const { return !value(key).isUndefined(); }
    QString keyAt(qsizetype i) const { return QString::fromUtf8(m_keys.at(i)); }

    // Building and editing: append to an array, insert (or replace) or
    // remove a member of an object (an undefined value becomes the array or
    // object), replace or remove an array's item.
    void append(JsonValue item);
    void insert(const QString &key, JsonValue value);
    void remove(const QString &key);
    void replace(qsizetype i, JsonValue item) { m_items[i] = std::move(item); }
    void removeAt(qsizetype i);

    void write(JsonWriter &writer) const;
    // The JSON text, numbers exactly as held.
    QByteArray toJson(bool indented = false) const;

    // Same structure, member order and number literals ("1.0" is not "1").
    friend bool operator==(const JsonValue &a, const JsonValue &b);

private:
    friend class JsonTreeBuilder;

    Type m_type = Type::Undefined;
    bool m_bool = false;
    QByteArray m_text;        // a number's literal or a string's UTF-8
    QList<QByteArray> m_keys; // objects: member keys (UTF-8), beside m_items
    QList<JsonValue> m_items; // array items or object member values
    QByteArray m_source;      // parsed values: the text m_text and m_keys point into
};

} // namespace md::api
