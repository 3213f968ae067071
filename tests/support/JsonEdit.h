// Editing one value of a JSON fixture by a dotted path, for tables of
// "this fixture with one thing wrong" in the wire and workspace suites.
#pragma once

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

#include <functional>

namespace md::test {

// One JSON value from its text ("5", "\"word\"", "null", "[]").
inline QJsonValue jsonValue(const QByteArray &text)
{
    return QJsonDocument::fromJson(QByteArray("[" + text + "]")).array().at(0);
}

// `json` with the value at a dotted path (`items.0.tiers.1.to`; numbers index
// arrays) replaced by `value`, or removed when `value` is empty.
inline QJsonObject replaced(const QJsonObject &json, const QString &pointer,
                            const QByteArray &value)
{
    const QStringList keys = pointer.split(u'.');
    std::function<QJsonValue(const QJsonValue &, qsizetype)> replace =
        [&](const QJsonValue &node, qsizetype depth) -> QJsonValue {
        const QString &key = keys.at(depth);
        const bool leaf = depth + 1 == keys.size();
        if (node.isArray()) {
            QJsonArray array = node.toArray();
            const qsizetype index = key.toInt();
            if (index < 0 || index >= array.size())
                qFatal("no element %s in the fixture", qPrintable(pointer));
            if (leaf && value.isEmpty())
                array.removeAt(index);
            else
                array[index] = leaf ? jsonValue(value) : replace(array.at(index), depth + 1);
            return array;
        }
        QJsonObject object = node.toObject();
        if (!leaf && !object.contains(key))
            qFatal("no member %s in the fixture", qPrintable(pointer));
        if (leaf && value.isEmpty())
            object.remove(key);
        else
            object[key] = leaf ? jsonValue(value) : replace(object.value(key), depth + 1);
        return object;
    };
    return replace(json, 0).toObject();
}

} // namespace md::test
