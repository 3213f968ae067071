#include "models/common/FieldWords.h"

#include <QRegularExpression>

#include <utility>

namespace md::models {

using namespace Qt::StringLiterals;

namespace {

// One name of a wire path, in the console's words.
struct Name
{
    QLatin1StringView wire;
    const char *field; // the field, or the object it opens; null: its own words
    const char *entry; // one entry of the list, %1 its number; null: not a list
};

// The names the console's forms and the CSV import can get wrong, listed so
// that they are translated; any other name is said as its own words.
constexpr Name Names[] = {
    {"items"_L1, nullptr, QT_TRANSLATE_NOOP("FieldWords", "item %1")},
    {"tiers"_L1, QT_TRANSLATE_NOOP("FieldWords", "tiers"),
     QT_TRANSLATE_NOOP("FieldWords", "tier %1")},
    {"promo_codes"_L1, nullptr, QT_TRANSLATE_NOOP("FieldWords", "promo code %1")},
    {"plan_ids"_L1, nullptr, QT_TRANSLATE_NOOP("FieldWords", "plan %1")},
    {"grants"_L1, nullptr, QT_TRANSLATE_NOOP("FieldWords", "grant %1")},
    {"usageLimits"_L1, nullptr, QT_TRANSLATE_NOOP("FieldWords", "usage limit %1")},
    {"spendLimits"_L1, nullptr, QT_TRANSLATE_NOOP("FieldWords", "spend limit %1")},
    {"usageAlerts"_L1, nullptr, QT_TRANSLATE_NOOP("FieldWords", "usage alert %1")},
    {"overageAllowed"_L1, nullptr, QT_TRANSLATE_NOOP("FieldWords", "overage setting %1")},
    {"billables"_L1, nullptr, QT_TRANSLATE_NOOP("FieldWords", "billable %1")},
    {"balances"_L1, nullptr, QT_TRANSLATE_NOOP("FieldWords", "balance %1")},
    {"feature_grant"_L1, QT_TRANSLATE_NOOP("FieldWords", "feature grant"), nullptr},
    {"coupon"_L1, QT_TRANSLATE_NOOP("FieldWords", "coupon"), nullptr},
    {"billing_controls"_L1, QT_TRANSLATE_NOOP("FieldWords", "billing controls"), nullptr},
    {"plan"_L1, QT_TRANSLATE_NOOP("FieldWords", "plan"), nullptr},
    {"id"_L1, QT_TRANSLATE_NOOP("FieldWords", "id"), nullptr},
    {"name"_L1, QT_TRANSLATE_NOOP("FieldWords", "name"), nullptr},
    {"customer_id"_L1, QT_TRANSLATE_NOOP("FieldWords", "customer id"), nullptr},
    {"feature_id"_L1, QT_TRANSLATE_NOOP("FieldWords", "feature id"), nullptr},
    {"featureId"_L1, QT_TRANSLATE_NOOP("FieldWords", "feature id"), nullptr},
    {"included_usage"_L1, QT_TRANSLATE_NOOP("FieldWords", "included usage"), nullptr},
    {"included"_L1, QT_TRANSLATE_NOOP("FieldWords", "included amount"), nullptr},
    {"price"_L1, QT_TRANSLATE_NOOP("FieldWords", "price"), nullptr},
    {"billing_units"_L1, QT_TRANSLATE_NOOP("FieldWords", "billing units"), nullptr},
    {"to"_L1, QT_TRANSLATE_NOOP("FieldWords", "up-to value"), nullptr},
    {"amount"_L1, QT_TRANSLATE_NOOP("FieldWords", "amount"), nullptr},
    {"flat_amount"_L1, QT_TRANSLATE_NOOP("FieldWords", "flat amount"), nullptr},
    {"code"_L1, QT_TRANSLATE_NOOP("FieldWords", "code"), nullptr},
    {"limit"_L1, QT_TRANSLATE_NOOP("FieldWords", "limit"), nullptr},
    {"overageLimit"_L1, QT_TRANSLATE_NOOP("FieldWords", "overage limit"), nullptr},
    {"threshold"_L1, QT_TRANSLATE_NOOP("FieldWords", "threshold"), nullptr},
    {"reason"_L1, QT_TRANSLATE_NOOP("FieldWords", "reason"), nullptr},
};

// The decoder's fixed messages (services/api: JsonReader, Identifier,
// Balance, Product, Reward), said plainly and of the field.
constexpr std::pair<QLatin1StringView, const char *> Fixed[] = {
    {"is required"_L1, QT_TRANSLATE_NOOP("FieldWords", "is required")},
    {"expected a string"_L1, QT_TRANSLATE_NOOP("FieldWords", "must be text")},
    {"expected a boolean"_L1, QT_TRANSLATE_NOOP("FieldWords", "must be true or false")},
    {"expected an integer"_L1, QT_TRANSLATE_NOOP("FieldWords", "must be a whole number")},
    {"expected a number"_L1,
     QT_TRANSLATE_NOOP("FieldWords", "must be a number, written like 1234.5: digits and a point, "
                                     "no thousands separators")},
    {"expected a number or \"inf\""_L1,
     QT_TRANSLATE_NOOP("FieldWords", "must be a number or \"inf\"")},
    {"expected an object"_L1, QT_TRANSLATE_NOOP("FieldWords", "must be a JSON object")},
    {"expected an array"_L1, QT_TRANSLATE_NOOP("FieldWords", "must be a list")},
    {"must not be empty"_L1, QT_TRANSLATE_NOOP("FieldWords", "must not be empty")},
    {"must not be negative"_L1, QT_TRANSLATE_NOOP("FieldWords", "must not be negative")},
    // The forms write "all" where the wire has null (a rollover's max).
    {"must not be negative (null keeps everything)"_L1,
     QT_TRANSLATE_NOOP("FieldWords", "must not be negative (\"all\" keeps everything)")},
    {"must not be blank"_L1, QT_TRANSLATE_NOOP("FieldWords", "must not be blank")},
    {"must be greater than 0"_L1, QT_TRANSLATE_NOOP("FieldWords", "must be greater than 0")},
    {"must hold at least one tier"_L1,
     QT_TRANSLATE_NOOP("FieldWords", "must hold at least one tier")},
    {"cannot be combined with price"_L1,
     QT_TRANSLATE_NOOP("FieldWords", "cannot be combined with a price")},
    {"only the last tier may be \"inf\""_L1,
     QT_TRANSLATE_NOOP("FieldWords", "may be \"inf\" in the last tier only")},
    {"tiers must be in increasing order of \"to\""_L1,
     QT_TRANSLATE_NOOP("FieldWords", "must be greater than the previous tier's")},
};

// Its messages with values in them; the captures fill %1, %2, %3 in turn.
constexpr std::pair<QLatin1StringView, const char *> Patterns[] = {
    // The largest whole number JSON carries exactly (2^53 − 1) is no limit
    // a person needs to read.
    {"^expected an integer from (-?\\d+) to 9007199254740991, got a fraction$"_L1,
     QT_TRANSLATE_NOOP("FieldWords", "must be a whole number, %1 or more")},
    {"^expected an integer from (-?\\d+) to 9007199254740991, got (.+)$"_L1,
     QT_TRANSLATE_NOOP("FieldWords", "must be a whole number, %1 or more, not %2")},
    {"^expected an integer from (-?\\d+) to (-?\\d+), got a fraction$"_L1,
     QT_TRANSLATE_NOOP("FieldWords", "must be a whole number from %1 to %2")},
    {"^expected an integer from (-?\\d+) to (-?\\d+), got (.+)$"_L1,
     QT_TRANSLATE_NOOP("FieldWords", "must be a whole number from %1 to %2, not %3")},
    {"^\"(.*)\" is not one of (.+)$"_L1,
     QT_TRANSLATE_NOOP("FieldWords", "must be one of %2, not \"%1\"")},
    {"^(\\S+) has (\\d+) decimal places; amounts keep at most (\\d+) and are never rounded$"_L1,
     QT_TRANSLATE_NOOP("FieldWords", "must have at most %3 decimal places, never rounded "
                                     "(%1 has %2)")},
    {"^(\\S+) is out of range \\(amounts are below 10\\^20 in size\\)$"_L1,
     QT_TRANSLATE_NOOP("FieldWords", "must be below 10^20 in size (%1 is not)")},
    {"^must not hold control or bidi formatting characters \\((\\S+) at character (\\d+)\\)$"_L1,
     QT_TRANSLATE_NOOP("FieldWords", "must not hold control or bidi formatting characters (%1 "
                                     "at character %2)")},
    {"^must be at most (\\d+) characters, got (\\d+)$"_L1,
     QT_TRANSLATE_NOOP("FieldWords", "must be at most %1 characters, not %2")},
    {"^must end with a tier up to \"inf\": usage above (\\S+) would have no price$"_L1,
     QT_TRANSLATE_NOOP("FieldWords", "must end with a tier up to \"inf\": usage above %1 would "
                                     "have no price")},
};

const Name *known(const QString &wire)
{
    for (const Name &name : Names)
        if (wire == name.wire)
            return &name;
    return nullptr;
}

// "included_usage", "overageLimit" → "included usage", "overage limit".
QString ownWords(const QString &wire)
{
    QString words;
    QChar before;
    for (const QChar c : wire) {
        const bool wordStarts = c == u'_' || (c.isUpper() && before.isLower());
        if (wordStarts && !words.isEmpty() && !words.endsWith(u' '))
            words += u' ';
        if (c != u'_')
            words += c.toLower();
        before = c;
    }
    return words.trimmed();
}

QString fieldWords(const QString &wire)
{
    const Name *name = known(wire);
    return name && name->field ? FieldWords::tr(name->field) : ownWords(wire);
}

// One entry of a list, numbered from 1: ("tiers", 0) → "tier 1".
QString entryWords(const QString &wire, qlonglong index)
{
    const QString number = QString::number(index + 1);
    if (const Name *name = known(wire); name && name->entry)
        return FieldWords::tr(name->entry).arg(number);
    QString words = ownWords(wire);
    if (words.endsWith("ies"_L1))
        words = words.chopped(3) + u'y';
    else if (words.endsWith(u's') && !words.endsWith("ss"_L1))
        words.chop(1);
    return words + u' ' + number;
}

// A path as places: "items[1].tiers[0].amount" is at "item 2", "tier 1",
// and its field is "amount", "the amount" when it is a sentence's subject.
struct Place
{
    QStringList around;
    QString field;
    QString subject;
};

Place place(const QString &path)
{
    static const QRegularExpression part(u"^(\\w+)((?:\\[\\d+\\])*)$"_s);
    static const QRegularExpression indexes(u"\\[(\\d+)\\]"_s);
    QStringList words;
    bool entryLast = false;
    for (const QString &segment : path.split(u'.')) {
        const QRegularExpressionMatch match = part.match(segment);
        entryLast = match.capturedLength(2) > 0;
        if (!entryLast)
            words.append(fieldWords(match.captured(1)));
        for (auto it = indexes.globalMatch(match.captured(2)); it.hasNext();)
            words.append(entryWords(match.captured(1), it.next().captured(1).toLongLong()));
    }
    Place where;
    where.field = words.takeLast();
    where.around = words;
    where.subject = entryLast ? where.field : FieldWords::tr("the %1").arg(where.field);
    return where;
}

// A problem said plainly; `ofField` when it is said of the field ("must be
// a number"), which then is its subject.
struct Said
{
    QString text;
    bool ofField = false;
};

QString filled(const char *plain, const QRegularExpressionMatch &match)
{
    const QString text = FieldWords::tr(plain);
    switch (match.lastCapturedIndex()) {
    case 1:
        return text.arg(match.captured(1));
    case 2:
        return text.arg(match.captured(1), match.captured(2));
    default:
        return text.arg(match.captured(1), match.captured(2), match.captured(3));
    }
}

Said said(const QString &problem)
{
    for (const auto &[decoder, plain] : Fixed)
        if (problem == decoder)
            return {FieldWords::tr(plain), true};
    static const QList<QRegularExpression> patterns = [] {
        QList<QRegularExpression> compiled;
        for (const auto &pattern : Patterns)
            compiled.append(QRegularExpression(QString(pattern.first)));
        return compiled;
    }();
    for (qsizetype i = 0; i < patterns.size(); ++i)
        if (const QRegularExpressionMatch match = patterns.at(i).match(problem); match.hasMatch())
            return {filled(Patterns[i].second, match), true};
    // "duplicates promo_codes[0]": the entry it repeats, in words too.
    static const QRegularExpression duplicates(u"^duplicates (\\w+)\\[(\\d+)\\]$"_s);
    if (const QRegularExpressionMatch match = duplicates.match(problem); match.hasMatch())
        return {FieldWords::tr("repeats %1")
                    .arg(entryWords(match.captured(1), match.captured(2).toLongLong())),
                true};
    // Other messages are already words: said of the field when they begin with a verb.
    static const QRegularExpression verb(u"^(must|is|are|has|cannot|may|needs|requires) "_s);
    return {problem, verb.match(problem).hasMatch()};
}

struct Split
{
    QString path;
    QString problem;
};

Split split(const api::ApiError &error)
{
    // A wire path as JsonReader writes it, then ": ". Only refusals begin
    // so, and a capital ("Amount: …") begins a sentence, not a path.
    static const QRegularExpression pathFirst(
        u"^([a-z_]\\w*(?:\\[\\d+\\])*(?:\\.[A-Za-z_]\\w*(?:\\[\\d+\\])*)*): (.*)$"_s,
        QRegularExpression::DotMatchesEverythingOption);
    const QRegularExpressionMatch match = pathFirst.match(error.message);
    if (error.status != 400 || !match.hasMatch())
        return {QString(), error.message};
    Split parts{match.captured(1), match.captured(2)};
    // Said once: "customer_id: customer_id: must not be empty".
    for (const QString &again : {parts.path, parts.path.section(u'.', -1)}) {
        const QString prefix = again + u": "_s;
        if (parts.problem.startsWith(prefix))
            parts.problem.remove(0, prefix.size());
    }
    return parts;
}

} // namespace

QString FieldWords::sentence(const api::ApiError &error)
{
    const Split parts = split(error);
    if (parts.path.isEmpty())
        return error.message;
    const Place where = place(parts.path);
    const Said what = said(parts.problem);
    QStringList places = where.around;
    QString text;
    if (what.ofField) {
        const QString clause = where.subject + u' ' + what.text;
        text = places.isEmpty() ? clause : QString(places.join(u", "_s) + u": "_s + clause);
    } else {
        places.append(where.field);
        text = places.join(u", "_s) + u": "_s + what.text;
    }
    text[0] = text.at(0).toUpper();
    return text;
}

QString FieldWords::path(const api::ApiError &error)
{
    return split(error).path;
}

QString FieldWords::problem(const api::ApiError &error)
{
    return said(split(error).problem).text;
}

} // namespace md::models
