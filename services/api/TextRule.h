// The one rule for free text the API keeps and shows to people: a reason, a
// name (docs/api.md, "Free text"). Nothing stored through the API may hide,
// reorder or fake what a person reads in the console or the audit log.
#pragma once

#include <QString>
#include <QStringView>

#include <optional>

namespace md::api {

// Names (products, product groups, rewards, usage alerts, customers), in
// characters: a name is a label in one table cell, as long as an id may be.
inline constexpr qsizetype MaxNameLength = 255;

// What is wrong with `text` (a phrase to follow its field's path), or nullopt
// when it is good free text: one line, with no control character (tabs and
// line breaks included) and no bidirectional formatting character; not blank
// once invisible characters are set aside; at most `maxLength` characters
// (code points, so an emoji is one); no lone surrogate.
std::optional<QString> freeTextProblem(QStringView text, qsizetype maxLength);

// Unicode's bidirectional formatting characters (U+061C, U+200E, U+200F,
// U+202A–U+202E, U+2066–U+2069): they reorder how text around them is shown,
// so "Trojan Source" text reads as something else.
bool isBidiFormatting(char32_t c);

// A character as a message names it: "U+202E".
QString codePointName(char32_t c);

} // namespace md::api
