#include "services/engine/products/RecordDiff.h"

#include "services/engine/sql/StoredJson.h"

#include <QSet>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::JsonValue;

namespace {

QString joined(const QString &path, const QString &key)
{
    return path.isEmpty() ? key : path + u'.' + key;
}

// An array whose items are objects named by a unique feature_id or code, as
// (name, item) pairs; nullopt for any other array.
std::optional<QList<std::pair<QString, JsonValue>>> named(const JsonValue &array)
{
    QList<std::pair<QString, JsonValue>> items;
    QSet<QString> names;
    for (qsizetype i = 0; i < array.size(); ++i) {
        const JsonValue &item = array.at(i);
        if (!item.isObject())
            return std::nullopt;
        QString name;
        for (const QLatin1StringView key : {"feature_id"_L1, "code"_L1})
            if (const JsonValue &value = item.value(key); value.isString()) {
                name = value.toString();
                break;
            }
        if (name.isEmpty() || names.contains(name))
            return std::nullopt;
        names.insert(name);
        items.append({name, item});
    }
    return items;
}

const JsonValue &memberOf(const QList<std::pair<QString, JsonValue>> &items, const QString &name)
{
    static const JsonValue none;
    for (const auto &[key, value] : items)
        if (key == name)
            return value;
    return none;
}

// The keys of both, in order: the first's, then those only the second has.
QStringList keysOf(const QStringList &first, const QStringList &second)
{
    QStringList keys = first;
    for (const QString &key : second)
        if (!keys.contains(key))
            keys.append(key);
    return keys;
}

void compare(const JsonValue &sandbox, const JsonValue &production, const QString &path,
             QList<api::FieldDifference> &out)
{
    if (sandbox == production)
        return;
    if (sandbox.isObject() && production.isObject()) {
        const auto keysOfObject = [](const JsonValue &object) {
            QStringList keys;
            for (qsizetype i = 0; i < object.size(); ++i)
                keys.append(object.keyAt(i));
            return keys;
        };
        for (const QString &key : keysOf(keysOfObject(sandbox), keysOfObject(production))) {
            const QByteArray latin = key.toLatin1();
            compare(sandbox.value(QLatin1StringView(latin)),
                    production.value(QLatin1StringView(latin)), joined(path, key), out);
        }
        return;
    }
    if (sandbox.isArray() && production.isArray()) {
        const auto left = named(sandbox);
        const auto right = named(production);
        if (left && right) {
            QStringList leftNames, rightNames;
            for (const auto &item : *left)
                leftNames.append(item.first);
            for (const auto &item : *right)
                rightNames.append(item.first);
            for (const QString &name : keysOf(leftNames, rightNames))
                compare(memberOf(*left, name), memberOf(*right, name), joined(path, name), out);
            return;
        }
    }
    out.append({path, sandbox, production});
}

} // namespace

JsonValue RecordDiff::comparable(const api::Product &product)
{
    JsonValue json = jsonOf(product);
    for (const QString &key : {u"id"_s, u"env"_s, u"version"_s, u"created_at"_s, u"archived"_s})
        json.remove(key);
    return json;
}

JsonValue RecordDiff::comparable(const api::RewardEntry &reward)
{
    JsonValue json = jsonOf(reward);
    // {"coupon": {...}} or {"feature_grant": {...}}: the record is inside.
    JsonValue record = json.at(0);
    for (const QString &key : {u"id"_s, u"created_at"_s})
        record.remove(key);
    json.insert(json.keyAt(0), record);
    return json;
}

QList<api::FieldDifference> RecordDiff::differences(const JsonValue &sandbox,
                                                    const JsonValue &production)
{
    QList<api::FieldDifference> out;
    // One side has none: every field of the other differs.
    compare(sandbox.isUndefined() ? JsonValue::object() : sandbox,
            production.isUndefined() ? JsonValue::object() : production, QString(), out);
    return out;
}

} // namespace md::engine
