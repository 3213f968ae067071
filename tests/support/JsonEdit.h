// Editing one value of a JSON fixture by a dotted path, for tables of
// "this fixture with one thing wrong" in the wire and workspace suites, and
// comparing JSON texts whatever the order of their members.
#pragma once

#include "services/api/JsonValue.h"
#include "services/api/JsonWriter.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

#include <algorithm>
#include <functional>
#include <numeric>

namespace md::test {

// One JSON value from its text ("5", "\"word\"", "null", "[]"), numbers exact.
inline api::JsonValue jsonValue(const QByteArray &text)
{
    const auto parsed = api::JsonValue::parse(text, QStringLiteral("the test's JSON"));
    if (!parsed)
        qFatal("not JSON: %s", qPrintable(parsed.error().message));
    return parsed.value();
}

// `json` with the value at a dotted path (`items.0.tiers.1.to`; numbers index
// arrays) replaced by `value`, or removed when `value` is empty.
inline api::JsonValue replaced(const api::JsonValue &json, const QString &pointer,
                               const QByteArray &value)
{
    const QStringList keys = pointer.split(u'.');
    std::function<api::JsonValue(api::JsonValue, qsizetype)> replace =
        [&](api::JsonValue node, qsizetype depth) -> api::JsonValue {
        const QString &key = keys.at(depth);
        const bool leaf = depth + 1 == keys.size();
        if (node.isArray()) {
            const qsizetype index = key.toInt();
            if (index < 0 || index >= node.size())
                qFatal("no element %s in the fixture", qPrintable(pointer));
            if (leaf && value.isEmpty())
                node.removeAt(index);
            else
                node.replace(index, leaf ? jsonValue(value) : replace(node.at(index), depth + 1));
            return node;
        }
        const QByteArray latin1 = key.toLatin1();
        const api::JsonValue &member = node.value(QLatin1StringView(latin1));
        if (!leaf && member.isUndefined())
            qFatal("no member %s in the fixture", qPrintable(pointer));
        if (leaf && value.isEmpty())
            node.remove(key);
        else
            node.insert(key, leaf ? jsonValue(value) : replace(member, depth + 1));
        return node;
    };
    return replace(json, 0);
}

// The value with every object's members sorted by key: two texts hold the
// same JSON when their canonical forms are equal (numbers compared as written).
inline api::JsonValue canonical(const api::JsonValue &json)
{
    if (json.isArray()) {
        api::JsonValue array = api::JsonValue::array();
        for (qsizetype i = 0; i < json.size(); ++i)
            array.append(canonical(json.at(i)));
        return array;
    }
    if (!json.isObject())
        return json;
    QList<qsizetype> order(json.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](qsizetype a, qsizetype b) { return json.keyAt(a) < json.keyAt(b); });
    api::JsonValue object = api::JsonValue::object();
    for (qsizetype i : std::as_const(order))
        object.insert(json.keyAt(i), canonical(json.at(i)));
    return object;
}

// Fixtures built with Qt's JSON, and back: only for values whose numbers a
// double holds exactly (short decimals, integers below 2^53).
inline api::JsonValue fromQt(const QJsonObject &object)
{
    return jsonValue(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

inline QJsonObject toQt(const api::JsonValue &value)
{
    return QJsonDocument::fromJson(value.toJson()).object();
}

// A wire value as JSON (through its `write(JsonWriter &)`).
template <typename T> api::JsonValue json(const T &value)
{
    return jsonValue(api::toJsonText(value));
}

// Canonical text, for QCOMPARE: equal when the JSON is the same.
inline QByteArray canonicalText(const api::JsonValue &value)
{
    return canonical(value).toJson();
}

template <typename T>
requires requires(const T &v, api::JsonWriter &w)
{
    v.write(w);
}
QByteArray canonicalText(const T &value)
{
    return canonicalText(json(value));
}

} // namespace md::test
