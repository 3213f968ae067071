#include "services/api/FractionalNumbers.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QList>

namespace md::api {

namespace {

struct Level
{
    bool array = false;
    qsizetype index = 0; // arrays: the current item
    QString key;         // objects: the current member
};

QString pathOf(const QList<Level> &levels)
{
    QString path;
    for (const Level &level : levels) {
        if (level.array)
            path += u'[' + QString::number(level.index) + u']';
        else
            path += (path.isEmpty() ? QString() : QStringLiteral(".")) + level.key;
    }
    return path;
}

// A string token's text decoded as the JSON parser decodes it.
QString decodeString(QByteArrayView token)
{
    if (!token.contains('\\'))
        return QString::fromUtf8(token.sliced(1, token.size() - 2));
    const QJsonDocument document =
        QJsonDocument::fromJson(QByteArray("[") + token.toByteArray() + ']');
    return document.array().at(0).toString();
}

} // namespace

bool FractionalNumbers::isWhole(QByteArrayView literal)
{
    QByteArray digits; // the mantissa's digits, point removed
    qsizetype fractionDigits = 0;
    qsizetype i = literal.startsWith('-') ? 1 : 0;
    bool afterPoint = false;
    for (; i < literal.size() && literal[i] != 'e' && literal[i] != 'E'; ++i) {
        if (literal[i] == '.') {
            afterPoint = true;
            continue;
        }
        digits += literal[i];
        fractionDigits += afterPoint ? 1 : 0;
    }
    qint64 exponent = 0;
    if (i < literal.size()) {
        bool ok = false;
        exponent = literal.sliced(i + 1).toByteArray().toLongLong(&ok);
        if (!ok) // an exponent past 2^63: only zero is whole then
            return digits.count('0') == digits.size();
    }
    // The value is digits x 10^(exponent - fractionDigits): whole when the
    // mantissa's trailing zeros make up for a negative power.
    if (digits.count('0') == digits.size())
        return true;
    qsizetype trailingZeros = 0;
    while (digits.at(digits.size() - 1 - trailingZeros) == '0')
        ++trailingZeros;
    return exponent - fractionDigits + trailingZeros >= 0;
}

QSet<QString> FractionalNumbers::in(const QByteArray &json)
{
    QSet<QString> paths;
    QList<Level> levels;
    bool expectKey = false; // inside an object, before a member's colon
    const qsizetype n = json.size();
    for (qsizetype i = 0; i < n; ++i) {
        const char c = json[i];
        switch (c) {
        case '{':
            levels.append(Level{});
            expectKey = true;
            break;
        case '[':
            levels.append(Level{true, 0, {}});
            break;
        case '}':
        case ']':
            levels.removeLast();
            break;
        case ',':
            if (!levels.isEmpty() && levels.last().array)
                ++levels.last().index;
            else
                expectKey = true;
            break;
        case '"': {
            qsizetype end = i + 1;
            while (end < n && json[end] != '"')
                end += json[end] == '\\' ? 2 : 1;
            if (expectKey && !levels.isEmpty()) {
                levels.last().key = decodeString(QByteArrayView(json).sliced(i, end - i + 1));
                expectKey = false;
            }
            i = end;
            break;
        }
        default:
            if (c == '-' || (c >= '0' && c <= '9')) {
                qsizetype end = i;
                bool plain = true;
                while (end < n && (std::isdigit(static_cast<unsigned char>(json[end])) ||
                                   json[end] == '-' || json[end] == '+' || json[end] == '.' ||
                                   json[end] == 'e' || json[end] == 'E')) {
                    plain = plain && json[end] != '.' && json[end] != 'e' && json[end] != 'E';
                    ++end;
                }
                if (!plain && !isWhole(QByteArrayView(json).sliced(i, end - i)))
                    paths.insert(pathOf(levels));
                i = end - 1;
            }
            break;
        }
    }
    return paths;
}

} // namespace md::api
