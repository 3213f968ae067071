#include "services/api/TextRule.h"

#include <QChar>

namespace md::api {

using namespace Qt::StringLiterals;

namespace {

// Breaks a line without being a control character: a reason or a name is
// shown in one line (a table cell, an audit entry), where a break would let
// it pass for more than one.
bool isLineSeparator(char32_t c)
{
    return c == 0x2028 || c == 0x2029;
}

// Shows as nothing: white space, format characters (zero-width space and
// joiners U+200B–U+200D, U+2060, U+FEFF, the soft hyphen, ...) and the
// default-ignorable characters Unicode files as letters or marks (Hangul
// fillers, variation selectors), each a way to look blank.
bool isInvisible(char32_t c)
{
    if (QChar::isSpace(c) || QChar::category(c) == QChar::Other_Format)
        return true;
    return c == 0x034F || c == 0x115F || c == 0x1160 || c == 0x17B4 || c == 0x17B5 ||
           (c >= 0x180B && c <= 0x180F) || c == 0x3164 || (c >= 0xFE00 && c <= 0xFE0F) ||
           c == 0xFFA0 || (c >= 0xE0100 && c <= 0xE01EF);
}

} // namespace

bool isBidiFormatting(char32_t c)
{
    return c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) ||
           (c >= 0x2066 && c <= 0x2069);
}

QString codePointName(char32_t c)
{
    return u"U+"_s + QString::number(uint(c), 16).rightJustified(4, u'0').toUpper();
}

std::optional<QString> freeTextProblem(QStringView text, qsizetype maxLength)
{
    qsizetype characters = 0;
    bool visible = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar unit = text.at(i);
        char32_t c = unit.unicode();
        if (unit.isHighSurrogate() && i + 1 < text.size() && text.at(i + 1).isLowSurrogate()) {
            c = QChar::surrogateToUcs4(unit, text.at(i + 1));
            ++i;
        } else if (unit.isSurrogate()) {
            return u"is not valid Unicode: a lone surrogate at character %1"_s.arg(characters + 1);
        }
        ++characters;
        if (QChar::category(c) == QChar::Other_Control || isLineSeparator(c) || isBidiFormatting(c))
            return u"must not hold control or bidi formatting characters (%1 at character %2)"_s
                .arg(codePointName(c))
                .arg(characters);
        visible = visible || !isInvisible(c);
    }
    if (!visible)
        return u"must not be blank"_s;
    if (characters > maxLength)
        return u"must be at most %1 characters, got %2"_s.arg(maxLength).arg(characters);
    return std::nullopt;
}

} // namespace md::api
