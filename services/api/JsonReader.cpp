#include "services/api/JsonReader.h"

#include "services/api/Identifier.h"
#include "services/api/TextRule.h"

namespace md::api {

using namespace Qt::StringLiterals;

namespace {

const JsonValue &undefined()
{
    static const JsonValue value;
    return value;
}

} // namespace

JsonReader::JsonReader(JsonValue value)
    : m_state(std::make_shared<State>())
{
    m_state->root = std::move(value);
    m_value = &m_state->root;
}

JsonReader::JsonReader(const JsonValue &value, QString path, std::shared_ptr<State> state)
    : m_value(&value)
    , m_base(std::move(path))
    , m_state(std::move(state))
{}

JsonReader JsonReader::fromText(QByteArrayView text, const QString &subject)
{
    auto parsed = JsonValue::parse(text, subject, MaxDepth);
    if (!parsed) {
        JsonReader reader{JsonValue()};
        reader.m_state->error = parsed.error();
        return reader;
    }
    return JsonReader{std::move(parsed).value()};
}

JsonReader JsonReader::fromBody(QByteArrayView body, const QString &subject)
{
    const QString name = subject.isEmpty() ? u"the body"_s : subject;
    JsonReader reader = fromText(body, name);
    if (reader.ok() && !reader.m_value->isObject())
        reader.fail(u"%1 must be a JSON object"_s.arg(name));
    return reader;
}

JsonReader JsonReader::child(const JsonValue &value, QString path) const
{
    return JsonReader(value, std::move(path), m_state);
}

QString JsonReader::path() const
{
    if (m_key.isEmpty())
        return m_base;
    return m_base.isEmpty() ? QString(m_key) : m_base + u'.' + m_key;
}

JsonReader JsonReader::childField(const JsonValue &value, QLatin1StringView key) const
{
    JsonReader reader(value, path(), m_state);
    reader.m_key = key;
    return reader;
}

JsonReader JsonReader::field(QLatin1StringView key) const
{
    if (!m_value->isObject()) {
        if (!m_value->isUndefined() && !m_value->isNull())
            expect(false, "an object");
        return childField(undefined(), key);
    }
    return childField(m_value->value(key), key);
}

void JsonReader::fail(const QString &problem) const
{
    if (!m_state->error)
        m_state->error = ApiError::invalidInputs(path(), problem);
}

bool JsonReader::expect(bool condition, const char *expected) const
{
    if (condition)
        return true;
    if (m_value->isUndefined())
        fail(QStringLiteral("is required"));
    else
        fail(QStringLiteral("expected %1").arg(QLatin1StringView(expected)));
    return false;
}

void JsonReader::failWords(const QString &got, const QString &allowed) const
{
    fail(QStringLiteral("\"%1\" is not one of %2").arg(got, allowed));
}

QString JsonReader::string() const
{
    return expect(m_value->isString(), "a string") ? m_value->toString() : QString();
}

QString JsonReader::identifier() const
{
    const QString id = string();
    if (ok())
        if (const auto problem = identifierProblem(id))
            fail(*problem);
    return id;
}

std::optional<QString> JsonReader::optIdentifier() const
{
    return isMissing() ? std::nullopt : std::optional(identifier());
}

std::optional<QString> JsonReader::nullableIdentifier() const
{
    return isNull() ? std::nullopt : std::optional(identifier());
}

QString JsonReader::freeText(qsizetype maxLength) const
{
    const QString text = string();
    if (ok())
        if (const auto problem = freeTextProblem(text, maxLength))
            fail(*problem);
    return text;
}

std::optional<QString> JsonReader::optFreeText(qsizetype maxLength) const
{
    return isMissing() ? std::nullopt : std::optional(freeText(maxLength));
}

bool JsonReader::boolean() const
{
    return expect(m_value->isBool(), "a boolean") && m_value->toBool();
}

qint64 JsonReader::integer(qint64 min, qint64 max) const
{
    if (!expect(m_value->isNumber(), "an integer"))
        return min;
    // Read from the literal: 1.0 and 2e1 are whole, 1.5 and
    // 1.0000000000000001 are not (a double would have rounded that to 1).
    const std::optional<Decimal> exact = Decimal::parse(m_value->numberText());
    if (exact && !exact->isInteger()) {
        fail(u"expected an integer from %1 to %2, got a fraction"_s.arg(min).arg(max));
        return min;
    }
    const Int128 whole = exact ? exact->raw() / Decimal::One : 0;
    if (!exact || whole < min || whole > max) {
        fail(u"expected an integer from %1 to %2, got %3"_s.arg(min).arg(max).arg(
            QString::fromLatin1(m_value->numberText().first(
                std::min<qsizetype>(40, m_value->numberText().size())))));
        return min;
    }
    return qint64(whole);
}

namespace {

// The decimal places a number literal has once trailing zeros are dropped
// and its exponent applied ("1.50" 1, "1.5e-7" 8, "2e3" 0).
qsizetype decimalPlaces(QByteArrayView literal)
{
    qsizetype point = -1;
    qsizetype end = 0;
    while (end < literal.size() && literal[end] != 'e' && literal[end] != 'E') {
        if (literal[end] == '.')
            point = end;
        ++end;
    }
    qsizetype places = 0;
    if (point >= 0) {
        qsizetype last = end;
        while (last > point + 1 && literal[last - 1] == '0')
            --last;
        places = last - point - 1;
    }
    if (end < literal.size())
        places -= literal.sliced(end + 1).toByteArray().toLongLong();
    return std::max<qsizetype>(0, places);
}

} // namespace

namespace {

// Why `text` is not a decimal of the range `range` names ("amounts are
// below 10^20 in size").
QString decimalProblem(QByteArrayView text, QLatin1StringView range)
{
    const QString shown = QString::fromLatin1(text.first(std::min<qsizetype>(60, text.size())));
    if (const qsizetype places = decimalPlaces(text); places > Decimal::Scale)
        return u"%1 has %2 decimal places; amounts keep at most %3 and are never rounded"_s
            .arg(shown)
            .arg(places)
            .arg(Decimal::Scale);
    return u"%1 is out of range (%2)"_s.arg(shown, range);
}

} // namespace

Decimal JsonReader::decimal() const
{
    if (!expect(m_value->isNumber(), "a number"))
        return {};
    if (const std::optional<Decimal> d = Decimal::parse(m_value->numberText()))
        return *d;
    fail(decimalProblem(m_value->numberText(), "amounts are below 10^20 in size"_L1));
    return {};
}

Decimal JsonReader::sum() const
{
    if (!expect(m_value->isNumber(), "a number"))
        return {};
    if (const std::optional<Decimal> d = Decimal::parseSum(m_value->numberText()))
        return *d;
    fail(decimalProblem(m_value->numberText(), "sums of amounts are below 10^29 in size"_L1));
    return {};
}

Decimal JsonReader::nonNegativeDecimal() const
{
    const Decimal d = decimal();
    if (ok() && d.isNegative())
        fail(QStringLiteral("must not be negative"));
    return d;
}

JsonValue JsonReader::object() const
{
    return expect(m_value->isObject(), "an object") ? *m_value : JsonValue::object();
}

QList<JsonReader> JsonReader::array() const
{
    QList<JsonReader> items;
    if (!expect(m_value->isArray(), "an array"))
        return items;
    const QString base = path();
    items.reserve(m_value->size());
    for (qsizetype i = 0; i < m_value->size(); ++i)
        items.append(child(m_value->at(i), base + u'[' + QString::number(i) + u']'));
    return items;
}

QList<std::pair<QString, JsonReader>> JsonReader::members() const
{
    QList<std::pair<QString, JsonReader>> members;
    if (!expect(m_value->isObject(), "an object"))
        return members;
    const QString base = path();
    members.reserve(m_value->size());
    for (qsizetype i = 0; i < m_value->size(); ++i) {
        const QString key = m_value->keyAt(i);
        members.append({key, child(m_value->at(i), base.isEmpty() ? key : base + u'.' + key)});
    }
    return members;
}

std::optional<QString> JsonReader::optString() const
{
    return isMissing() ? std::nullopt : std::optional(string());
}

std::optional<bool> JsonReader::optBoolean() const
{
    return isMissing() ? std::nullopt : std::optional(boolean());
}

std::optional<qint64> JsonReader::optInteger(qint64 min, qint64 max) const
{
    return isMissing() ? std::nullopt : std::optional(integer(min, max));
}

std::optional<Decimal> JsonReader::optDecimal() const
{
    return isMissing() ? std::nullopt : std::optional(decimal());
}

std::optional<QList<JsonReader>> JsonReader::optArray() const
{
    return isMissing() ? std::nullopt : std::optional(array());
}

std::optional<QString> JsonReader::optNullableString() const
{
    return isMissing() ? std::nullopt : nullableString();
}

std::optional<Decimal> JsonReader::optNullableDecimal() const
{
    return isMissing() ? std::nullopt : nullableDecimal();
}

std::optional<QString> JsonReader::nullableString() const
{
    return isNull() ? std::nullopt : std::optional(string());
}

std::optional<qint64> JsonReader::nullableInteger(qint64 min, qint64 max) const
{
    return isNull() ? std::nullopt : std::optional(integer(min, max));
}

std::optional<Decimal> JsonReader::nullableDecimal() const
{
    return isNull() ? std::nullopt : std::optional(decimal());
}

} // namespace md::api
