#include "services/api/Identifier.h"

#include "services/api/TextRule.h"

namespace md::api {

using namespace Qt::StringLiterals;

std::optional<QString> identifierProblem(const QString &id)
{
    if (id.trimmed().isEmpty())
        return u"must not be empty"_s;
    qsizetype characters = 0;
    for (qsizetype i = 0; i < id.size(); ++i) {
        const QChar unit = id.at(i);
        char32_t c = unit.unicode();
        if (unit.isHighSurrogate() && i + 1 < id.size() && id.at(i + 1).isLowSurrogate()) {
            c = QChar::surrogateToUcs4(unit, id.at(i + 1));
            ++i;
        } else if (unit.isSurrogate()) {
            return u"is not valid Unicode: a lone surrogate at character %1"_s.arg(characters + 1);
        }
        ++characters;
        if (c == u'/')
            return u"must not contain \"/\" (an id is one segment of a URL path)"_s;
        if (QChar::category(c) == QChar::Other_Control)
            return u"must not contain control characters (%1 at character %2)"_s
                .arg(codePointName(c))
                .arg(characters);
        if (isBidiFormatting(c))
            return u"must not contain bidirectional formatting characters (%1 at character %2)"_s
                .arg(codePointName(c))
                .arg(characters);
    }
    if (characters > MaxIdentifierLength)
        return u"must be at most %1 characters, got %2"_s.arg(MaxIdentifierLength).arg(characters);
    return std::nullopt;
}

std::optional<QString> idempotencyKeyProblem(QByteArrayView key)
{
    if (key.isEmpty() || key.size() > MaxIdempotencyKey)
        return QStringLiteral("must be 1 to %1 characters, got %2")
            .arg(MaxIdempotencyKey)
            .arg(key.size());
    for (const char c : key)
        if (c < 0x21 || c > 0x7e)
            return QStringLiteral("must be visible ASCII characters (a UUID, say)");
    return std::nullopt;
}

} // namespace md::api
