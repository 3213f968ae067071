#include "services/api/JsonValue.h"

#include "services/api/JsonWriter.h"

#define RAPIDJSON_SSE2
#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

#include <QRegularExpression>
#include <QSet>

namespace md::api {

using namespace Qt::StringLiterals;

JsonValue::JsonValue(bool value)
    : m_type(Type::Bool)
    , m_bool(value)
{}

JsonValue::JsonValue(int value)
    : JsonValue(qint64(value))
{}

JsonValue::JsonValue(qint64 value)
    : m_type(Type::Number)
    , m_text(QByteArray::number(value))
{}

JsonValue::JsonValue(const QString &value)
    : m_type(Type::String)
    , m_text(value.toUtf8())
{}

JsonValue::JsonValue(Decimal value)
    : m_type(Type::Number)
{
    char digits[Decimal::MaxTextLength];
    m_text = QByteArray(digits, value.format(digits));
}

JsonValue JsonValue::null()
{
    JsonValue v;
    v.m_type = Type::Null;
    return v;
}

JsonValue JsonValue::boolean(bool value)
{
    JsonValue v;
    v.m_type = Type::Bool;
    v.m_bool = value;
    return v;
}

JsonValue JsonValue::number(QByteArray literal)
{
    JsonValue v;
    v.m_type = Type::Number;
    v.m_text = std::move(literal);
    return v;
}

JsonValue JsonValue::number(qint64 value)
{
    return JsonValue(value);
}

JsonValue JsonValue::string(const QString &value)
{
    return JsonValue(value);
}

JsonValue JsonValue::numberOrString(const QString &typed)
{
    static const QRegularExpression literal(
        u"\\A-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?\\z"_s);
    const QString text = typed.trimmed();
    if (literal.match(text).hasMatch())
        return number(text.toLatin1());
    return JsonValue(text);
}

JsonValue JsonValue::array(std::initializer_list<JsonValue> items)
{
    JsonValue v;
    v.m_type = Type::Array;
    v.m_items = QList<JsonValue>(items);
    return v;
}

JsonValue JsonValue::object(std::initializer_list<std::pair<QLatin1StringView, JsonValue>> members)
{
    JsonValue v;
    v.m_type = Type::Object;
    for (const auto &[key, value] : members) {
        v.m_keys.append(QByteArray(key.data(), key.size()));
        v.m_items.append(value);
    }
    return v;
}

QString JsonValue::toString() const
{
    return m_type == Type::String ? QString::fromUtf8(m_text) : QString();
}

QByteArrayView JsonValue::numberText() const
{
    return m_type == Type::Number ? QByteArrayView(m_text) : QByteArrayView();
}

const JsonValue &JsonValue::value(QLatin1StringView key) const
{
    static const JsonValue undefined;
    const QByteArrayView wanted(key.data(), key.size());
    for (qsizetype i = 0; i < m_keys.size(); ++i)
        if (m_keys.at(i) == wanted)
            return m_items.at(i);
    return undefined;
}

void JsonValue::append(JsonValue item)
{
    if (m_type == Type::Undefined)
        m_type = Type::Array;
    m_items.append(std::move(item));
}

void JsonValue::insert(const QString &key, JsonValue value)
{
    if (m_type == Type::Undefined)
        m_type = Type::Object;
    const QByteArray utf8 = key.toUtf8();
    const qsizetype at = m_keys.indexOf(utf8);
    if (at >= 0) {
        m_items[at] = std::move(value);
        return;
    }
    m_keys.append(utf8);
    m_items.append(std::move(value));
}

void JsonValue::remove(const QString &key)
{
    const qsizetype at = m_keys.indexOf(key.toUtf8());
    if (at >= 0) {
        m_keys.removeAt(at);
        m_items.removeAt(at);
    }
}

void JsonValue::removeAt(qsizetype i)
{
    if (m_type == Type::Object)
        m_keys.removeAt(i);
    m_items.removeAt(i);
}

bool operator==(const JsonValue &a, const JsonValue &b)
{
    if (a.m_type != b.m_type || a.m_bool != b.m_bool || a.m_text != b.m_text ||
        a.m_keys != b.m_keys || a.m_items.size() != b.m_items.size())
        return false;
    for (qsizetype i = 0; i < a.m_items.size(); ++i)
        if (!(a.m_items.at(i) == b.m_items.at(i)))
            return false;
    return true;
}

void JsonValue::write(JsonWriter &writer) const
{
    switch (m_type) {
    case Type::Undefined:
    case Type::Null:
        writer.null();
        break;
    case Type::Bool:
        writer.value(m_bool);
        break;
    case Type::Number:
        writer.rawNumber(m_text);
        break;
    case Type::String:
        writer.utf8(m_text);
        break;
    case Type::Array:
        writer.beginArray();
        for (const JsonValue &item : m_items)
            item.write(writer);
        writer.endArray();
        break;
    case Type::Object:
        writer.beginObject();
        for (qsizetype i = 0; i < m_items.size(); ++i) {
            writer.utf8Key(m_keys.at(i));
            m_items.at(i).write(writer);
        }
        writer.endObject();
        break;
    }
}

QByteArray JsonValue::toJson(bool indented) const
{
    JsonWriter writer(indented ? JsonWriter::Style::Indented : JsonWriter::Style::Compact);
    write(writer);
    return writer.take();
}

// Builds the tree from RapidJSON's events. Numbers arrive as their literal
// (kParseNumbersAsStringsFlag); everything else is checked as it arrives.
class JsonTreeBuilder final
    : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, JsonTreeBuilder>
{
public:
    // `source` is the text being parsed in place: every string, number and
    // key of the tree is a view into it, and every node keeps it alive.
    JsonTreeBuilder(const QByteArray &source, const QString &subject, int maxDepth)
        : m_source(source)
        , m_subject(subject)
        , m_maxDepth(maxDepth)
    {}

    bool Null() { return add(node(JsonValue::Type::Null)); }
    bool Bool(bool b)
    {
        JsonValue v = node(JsonValue::Type::Bool);
        v.m_bool = b;
        return add(std::move(v));
    }
    bool RawNumber(const char *text, rapidjson::SizeType length, bool)
    {
        JsonValue v = node(JsonValue::Type::Number);
        v.m_text = QByteArray::fromRawData(text, length);
        return add(std::move(v));
    }
    bool String(const char *text, rapidjson::SizeType length, bool)
    {
        if (!checkUnicode(text, length))
            return false;
        JsonValue v = node(JsonValue::Type::String);
        v.m_text = QByteArray::fromRawData(text, length);
        return add(std::move(v));
    }
    bool StartObject() { return open(node(JsonValue::Type::Object)); }
    bool Key(const char *text, rapidjson::SizeType length, bool)
    {
        const QByteArray key = QByteArray::fromRawData(text, length);
        if (!checkUnicode(text, length))
            return false;
        Level &level = m_stack.last();
        QList<QByteArray> &keys = level.value.m_keys;
        // Few keys are compared one by one; a map of many (a workspace's) by hash.
        constexpr qsizetype HashFrom = 16;
        if (keys.size() == HashFrom)
            level.keys = QSet<QByteArray>(keys.cbegin(), keys.cend());
        if (keys.size() >= HashFrom ? level.keys.contains(key) : keys.contains(key)) {
            m_problem = u"the key \"%1\" appears twice"_s.arg(QString::fromUtf8(key));
            m_problemInObject = true;
            return false;
        }
        if (keys.size() >= HashFrom)
            level.keys.insert(key);
        keys.append(key);
        return true;
    }
    bool EndObject(rapidjson::SizeType) { return close(); }
    bool StartArray() { return open(node(JsonValue::Type::Array)); }
    bool EndArray(rapidjson::SizeType) { return close(); }

    JsonValue root;
    QString m_problem;              // why a handler stopped the parse
    bool m_problemInObject = false; // the problem is the innermost object's, not a member's
    bool m_problemAtRoot = false;   // the problem is the whole text's

    // The wire path of where the parser is, as JsonReader spells paths.
    QString path() const
    {
        QString text;
        if (m_problemAtRoot)
            return text;
        for (qsizetype i = 0; i < m_stack.size(); ++i) {
            const Level &level = m_stack.at(i);
            if (m_problemInObject && i + 1 == m_stack.size())
                break;
            if (level.value.isArray()) {
                text += u'[' + QString::number(level.value.m_items.size()) + u']';
            } else if (!level.value.m_keys.isEmpty()) {
                const QString key = QString::fromUtf8(level.value.m_keys.last());
                text += text.isEmpty() ? key : u'.' + key;
            }
        }
        return text;
    }

private:
    JsonValue node(JsonValue::Type type) const
    {
        JsonValue v;
        v.m_type = type;
        v.m_source = m_source;
        return v;
    }

    struct Level
    {
        JsonValue value;
        QSet<QByteArray> keys; // objects of many members: the keys seen so far
    };

    bool add(JsonValue v)
    {
        if (m_stack.isEmpty()) {
            root = std::move(v);
            return true;
        }
        m_stack.last().value.m_items.append(std::move(v));
        return true;
    }
    bool open(JsonValue v)
    {
        if (m_stack.size() >= m_maxDepth) {
            m_problem = u"%1 nests arrays and objects deeper than %2 levels"_s.arg(m_subject).arg(
                m_maxDepth);
            m_problemAtRoot = true;
            return false;
        }
        m_stack.append({std::move(v), {}});
        return true;
    }
    bool close()
    {
        JsonValue done = std::move(m_stack.last().value);
        m_stack.removeLast();
        return add(std::move(done));
    }
    // Input bytes are validated as UTF-8; a \uD800-style escape without its
    // pair is the one way RapidJSON lets a surrogate through (as 0xED 0xA0..).
    bool checkUnicode(const char *text, rapidjson::SizeType length)
    {
        for (rapidjson::SizeType i = 0; i + 1 < length; ++i)
            if (quint8(text[i]) == 0xED && quint8(text[i + 1]) >= 0xA0) {
                m_problem = u"is not valid Unicode: a lone surrogate"_s;
                return false;
            }
        return true;
    }

    QByteArray m_source;
    QString m_subject;
    int m_maxDepth;
    QList<Level> m_stack;
};

Result<JsonValue> JsonValue::parse(QByteArrayView text, const QString &subject, int maxDepth)
{
    if (text.size() > qsizetype(std::numeric_limits<rapidjson::SizeType>::max()))
        return ApiError::invalidInputs(QString(), u"%1 is larger than 4 GiB"_s.arg(subject));
    // Parsed in place in a copy of its own (strings are unescaped where they
    // stand), which ends at its NUL: a NUL inside would hide what follows.
    if (text.contains('\0'))
        return ApiError::invalidInputs(
            QString(), u"%1 is not valid JSON (a NUL byte at offset %2)"_s.arg(subject).arg(
                           text.indexOf('\0')));
    // RapidJSON's SSE2 whitespace skip reads whole aligned 16-byte blocks,
    // up to 15 bytes past the NUL: the copy owns those bytes.
    QByteArray source;
    source.reserve(text.size() + 16);
    source.append(text);
    constexpr unsigned Flags = rapidjson::kParseInsituFlag | rapidjson::kParseIterativeFlag |
                               rapidjson::kParseValidateEncodingFlag |
                               rapidjson::kParseNumbersAsStringsFlag;
    rapidjson::Reader reader;
    rapidjson::InsituStringStream stream(source.data());
    JsonTreeBuilder builder(source, subject, maxDepth);
    const rapidjson::ParseResult result = reader.Parse<Flags>(stream, builder);
    if (result)
        return std::move(builder.root);
    if (!builder.m_problem.isEmpty())
        return ApiError::invalidInputs(builder.path(), builder.m_problem);
    // "\ud800" without its pair: refused, never replaced (docs/api.md, Identifiers).
    if (result.Code() == rapidjson::kParseErrorStringUnicodeSurrogateInvalid)
        return ApiError::invalidInputs(builder.path(), u"is not valid Unicode: a lone surrogate"_s);
    return ApiError::invalidInputs(
        QString(), u"%1 is not valid JSON (%2 at offset %3)"_s
                       .arg(subject, QString::fromUtf8(rapidjson::GetParseError_En(result.Code())))
                       .arg(result.Offset()));
}

} // namespace md::api
