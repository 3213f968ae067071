#include "services/api/JsonWriter.h"

// Without RAPIDJSON_SSE2: RapidJSON 1.1.0's SSE2 string scan lets
// U+001A..U+001F through unescaped in strings of 16 bytes or more, which is
// not JSON (tests/api/tst_jsonwriter.cpp); the plain scan measured as fast
// on a balances.list page (bench_json, 171 against 187 µs).
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <variant>

namespace md::api {

struct JsonWriter::Impl
{
    rapidjson::StringBuffer buffer;
    std::variant<rapidjson::Writer<rapidjson::StringBuffer>,
                 rapidjson::PrettyWriter<rapidjson::StringBuffer>>
        writer;

    explicit Impl(Style style)
        : writer(std::in_place_index<0>, buffer)
    {
        if (style == Style::Indented) {
            writer.emplace<1>(buffer);
            std::get<1>(writer).SetIndent(' ', 2);
        }
    }
    template <typename F> void apply(F &&f) { std::visit(f, writer); }
};

JsonWriter::JsonWriter(Style style)
    : m_impl(std::make_unique<Impl>(style))
{}

JsonWriter::~JsonWriter() = default;

JsonWriter &JsonWriter::beginObject()
{
    m_impl->apply([](auto &w) { w.StartObject(); });
    return *this;
}

JsonWriter &JsonWriter::endObject()
{
    m_impl->apply([](auto &w) { w.EndObject(); });
    return *this;
}

JsonWriter &JsonWriter::beginArray()
{
    m_impl->apply([](auto &w) { w.StartArray(); });
    return *this;
}

JsonWriter &JsonWriter::endArray()
{
    m_impl->apply([](auto &w) { w.EndArray(); });
    return *this;
}

JsonWriter &JsonWriter::key(QLatin1StringView key)
{
    // Keys are ASCII wire names: Latin-1 and UTF-8 agree on them.
    m_impl->apply([&](auto &w) { w.Key(key.data(), rapidjson::SizeType(key.size()), false); });
    return *this;
}

JsonWriter &JsonWriter::key(const QString &key)
{
    return utf8Key(key.toUtf8());
}

JsonWriter &JsonWriter::utf8Key(QByteArrayView text)
{
    m_impl->apply([&](auto &w) { w.Key(text.data(), rapidjson::SizeType(text.size()), false); });
    return *this;
}

JsonWriter &JsonWriter::null()
{
    m_impl->apply([](auto &w) { w.Null(); });
    return *this;
}

JsonWriter &JsonWriter::value(bool b)
{
    m_impl->apply([&](auto &w) { w.Bool(b); });
    return *this;
}

JsonWriter &JsonWriter::value(qint64 n)
{
    m_impl->apply([&](auto &w) { w.Int64(n); });
    return *this;
}

JsonWriter &JsonWriter::value(Decimal d)
{
    char digits[Decimal::MaxTextLength];
    const int length = d.format(digits);
    return rawNumber(QByteArrayView(digits, length));
}

namespace {

// A QString can hold a lone surrogate, which UTF-8 cannot: toUtf8() would
// turn it into U+FFFD and the id rule would never see it. Such a string is
// written with the surrogate as a \u escape, the way a client would have to
// send it, so the reader refuses it as the wire does.
bool hasLoneSurrogate(const QString &s)
{
    for (qsizetype i = 0; i < s.size(); ++i) {
        const QChar c = s.at(i);
        if (c.isHighSurrogate() && i + 1 < s.size() && s.at(i + 1).isLowSurrogate())
            ++i;
        else if (c.isSurrogate())
            return true;
    }
    return false;
}

QByteArray escapedLiteral(const QString &s)
{
    QByteArray literal = "\"";
    for (qsizetype i = 0; i < s.size(); ++i) {
        const QChar c = s.at(i);
        const bool pair = c.isHighSurrogate() && i + 1 < s.size() && s.at(i + 1).isLowSurrogate();
        if (c == u'"' || c == u'\\') {
            literal += '\\';
            literal += char(c.unicode());
        } else if (c.unicode() < 0x20 || (c.isSurrogate() && !pair)) {
            literal +=
                QByteArray("\\u") + QByteArray::number(c.unicode(), 16).rightJustified(4, '0');
        } else if (pair) {
            literal += QString(s.mid(i, 2)).toUtf8();
            ++i;
        } else {
            literal += QString(c).toUtf8();
        }
    }
    return literal + '"';
}

} // namespace

JsonWriter &JsonWriter::value(const QString &s)
{
    if (Q_UNLIKELY(hasLoneSurrogate(s))) {
        const QByteArray literal = escapedLiteral(s);
        m_impl->apply([&](auto &w) {
            w.RawValue(literal.constData(), size_t(literal.size()), rapidjson::kStringType);
        });
        return *this;
    }
    return utf8(s.toUtf8());
}

JsonWriter &JsonWriter::value(QLatin1StringView s)
{
    // Wire words are ASCII; anything else goes through UTF-8.
    for (char c : s)
        if (quint8(c) >= 0x80)
            return value(QString(s));
    return utf8(QByteArrayView(s.data(), s.size()));
}

JsonWriter &JsonWriter::rawNumber(QByteArrayView literal)
{
    m_impl->apply([&](auto &w) {
        w.RawValue(literal.data(), size_t(literal.size()), rapidjson::kNumberType);
    });
    return *this;
}

JsonWriter &JsonWriter::utf8(QByteArrayView text)
{
    m_impl->apply([&](auto &w) { w.String(text.data(), rapidjson::SizeType(text.size()), false); });
    return *this;
}

QByteArray JsonWriter::take()
{
    QByteArray text(m_impl->buffer.GetString(), qsizetype(m_impl->buffer.GetSize()));
    m_impl->buffer.Clear();
    m_impl->apply([&](auto &w) { w.Reset(m_impl->buffer); });
    return text;
}

} // namespace md::api
