#include "services/api/JsonReader.h"

#include "services/api/FractionalNumbers.h"
#include "services/api/Identifier.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QVariant>

#include <algorithm>
#include <cmath>

namespace md::api {

JsonReader::JsonReader(QJsonValue value)
    : JsonReader(std::move(value), QString(), std::make_shared<State>())
{}

JsonReader::JsonReader(QJsonValue value, QString path, std::shared_ptr<State> state)
    : m_value(std::move(value))
    , m_base(std::move(path))
    , m_state(std::move(state))
{}

namespace {

// How deeply arrays and objects nest, counted before parsing (brackets
// inside strings do not count); stops early once past `limit`.
int nestingDepth(const QByteArray &json, int limit)
{
    int depth = 0;
    int deepest = 0;
    bool inString = false;
    for (qsizetype i = 0; i < json.size() && deepest <= limit; ++i) {
        const char c = json.at(i);
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            deepest = std::max(deepest, ++depth);
        } else if (c == '}' || c == ']') {
            --depth;
        }
    }
    return deepest;
}

} // namespace

JsonReader JsonReader::fromBody(const QByteArray &body)
{
    if (nestingDepth(body, MaxDepth) > MaxDepth) {
        JsonReader reader{QJsonValue()};
        reader.fail(QStringLiteral("the body nests arrays and objects deeper than %1 levels")
                        .arg(MaxDepth));
        return reader;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        JsonReader reader{QJsonValue()};
        reader.fail(QStringLiteral("the body is not valid JSON (%1 at offset %2)")
                        .arg(parseError.errorString())
                        .arg(parseError.offset));
        return reader;
    }
    JsonReader reader{document.isObject() ? QJsonValue(document.object()) : QJsonValue()};
    reader.m_state->fractional = FractionalNumbers::in(body);
    if (!document.isObject())
        reader.fail(QStringLiteral("the body must be a JSON object"));
    return reader;
}

JsonReader JsonReader::child(QJsonValue value, QString path) const
{
    return JsonReader(std::move(value), std::move(path), m_state);
}

QString JsonReader::path() const
{
    if (m_key.isEmpty())
        return m_base;
    return m_base.isEmpty() ? QString(m_key) : m_base + u'.' + m_key;
}

JsonReader JsonReader::childField(QJsonValue value, QLatin1StringView key) const
{
    JsonReader reader(std::move(value), path(), m_state);
    reader.m_key = key;
    return reader;
}

JsonReader JsonReader::field(QLatin1StringView key) const
{
    if (!m_value.isObject()) {
        if (!m_value.isUndefined() && !m_value.isNull())
            expect(false, "an object");
        return childField(QJsonValue(QJsonValue::Undefined), key);
    }
    return childField(m_value.toObject().value(key), key);
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
    if (m_value.isUndefined())
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
    return expect(m_value.isString(), "a string") ? m_value.toString() : QString();
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

bool JsonReader::boolean() const
{
    return expect(m_value.isBool(), "a boolean") && m_value.toBool();
}

qint64 JsonReader::integer(qint64 min, qint64 max) const
{
    if (!expect(m_value.isDouble(), "an integer"))
        return min;
    const QVariant v = m_value.toVariant();
    qint64 n = 0;
    if (!m_state->fractional.isEmpty() && m_state->fractional.contains(path())) {
        fail(QStringLiteral("expected an integer from %1 to %2, got a fraction").arg(min).arg(max));
        return min;
    }
    if (v.typeId() == QMetaType::LongLong) {
        n = v.toLongLong();
    } else {
        const double d = m_value.toDouble();
        // Integral doubles beyond 2^63 or with a fraction are not integers we accept.
        if (!(std::isfinite(d) && std::trunc(d) == d && std::fabs(d) <= double(MaxSafeInteger))) {
            fail(QStringLiteral("expected an integer from %1 to %2").arg(min).arg(max));
            return min;
        }
        n = qint64(d);
    }
    if (n < min || n > max) {
        fail(QStringLiteral("expected an integer from %1 to %2, got %3").arg(min).arg(max).arg(n));
        return min;
    }
    return n;
}

Decimal JsonReader::decimal() const
{
    if (!expect(m_value.isDouble(), "a number"))
        return {};
    const std::optional<Decimal> d = Decimal::fromJson(m_value);
    if (!d) {
        fail(QStringLiteral("the number is out of range or has more than %1 decimal places")
                 .arg(Decimal::Scale));
        return {};
    }
    return *d;
}

Decimal JsonReader::nonNegativeDecimal() const
{
    const Decimal d = decimal();
    if (ok() && d.isNegative())
        fail(QStringLiteral("must not be negative"));
    return d;
}

QJsonObject JsonReader::object() const
{
    return expect(m_value.isObject(), "an object") ? m_value.toObject() : QJsonObject();
}

QList<JsonReader> JsonReader::array() const
{
    QList<JsonReader> items;
    if (!expect(m_value.isArray(), "an array"))
        return items;
    const QJsonArray array = m_value.toArray();
    const QString base = path();
    items.reserve(array.size());
    for (qsizetype i = 0; i < array.size(); ++i)
        items.append(child(array.at(i), base + u'[' + QString::number(i) + u']'));
    return items;
}

QList<std::pair<QString, JsonReader>> JsonReader::members() const
{
    QList<std::pair<QString, JsonReader>> members;
    if (!expect(m_value.isObject(), "an object"))
        return members;
    const QJsonObject object = m_value.toObject();
    const QString base = path();
    members.reserve(object.size());
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        const QString key = it.key();
        members.append({key, child(it.value(), base.isEmpty() ? key : base + u'.' + key)});
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
