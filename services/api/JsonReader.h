// Strict decoding of wire JSON. A reader points at one value and knows its wire
// path (`list[3].price.tiers[0].to`); the first problem found is kept as an
// ApiError (400 invalid_inputs) naming that path, later reads return defaults.
#pragma once

#include "services/api/ApiError.h"
#include "services/api/Decimal.h"
#include "services/api/JsonValue.h"

#include <QList>
#include <QString>

#include <memory>
#include <optional>
#include <utility>

namespace md::api {

// The largest integer a JSON number carries exactly (2^53 - 1).
inline constexpr qint64 MaxSafeInteger = 9007199254740991;

class JsonReader final
{
public:
    explicit JsonReader(JsonValue value);

    // Parses a request body; a body that is not a JSON object, or that nests
    // arrays and objects deeper than MaxDepth, is an error at the root.
    // `subject` names the text in a syntax error's message.
    static JsonReader fromBody(QByteArrayView body, const QString &subject = QString());
    // Parses any JSON text (an array, say); a syntax error is an error at the root.
    static JsonReader fromText(QByteArrayView text, const QString &subject);
    // Far above any request's shape (five levels), far below what could
    // exhaust a stack: a bound on the work one body can ask for.
    static constexpr int MaxDepth = 32;

    JsonReader field(QLatin1StringView key) const;
    // The wire path, built only when asked for (most reads never need it).
    QString path() const;
    bool isMissing() const { return m_value->isUndefined(); }
    bool isNull() const { return m_value->isNull(); }
    bool isMissingOrNull() const { return isMissing() || isNull(); }
    const JsonValue &raw() const { return *m_value; }

    // Required values: a missing or null value is an error.
    QString string() const;
    bool boolean() const;
    qint64 integer(qint64 min = 0, qint64 max = MaxSafeInteger) const;
    Decimal decimal() const;
    Decimal nonNegativeDecimal() const;
    // A sum of amounts (a summary's or the totals' figures): below 10^29.
    Decimal sum() const;
    // Checks that the value is an object; returns it as held (numbers exact).
    JsonValue object() const;
    QList<JsonReader> array() const;

    // A string held to the id rule (Identifier.h).
    QString identifier() const;
    std::optional<QString> optIdentifier() const;
    std::optional<QString> nullableIdentifier() const;

    // A string held to the free-text rule (TextRule.h), as sent: a reason or a name.
    QString freeText(qsizetype maxLength) const;
    std::optional<QString> optFreeText(qsizetype maxLength) const;

    // Optional values: missing gives nullopt, null is an error.
    std::optional<QString> optString() const;
    std::optional<bool> optBoolean() const;
    std::optional<qint64> optInteger(qint64 min = 0, qint64 max = MaxSafeInteger) const;
    std::optional<Decimal> optDecimal() const;
    std::optional<QList<JsonReader>> optArray() const;
    // The members of an object (a map keyed by ids), each read at `path.key`.
    QList<std::pair<QString, JsonReader>> members() const;

    // Nullable values that must be present: null gives nullopt.
    std::optional<QString> nullableString() const;
    std::optional<qint64> nullableInteger(qint64 min = 0, qint64 max = MaxSafeInteger) const;
    std::optional<Decimal> nullableDecimal() const;
    // Missing or null: both give nullopt.
    std::optional<QString> optNullableString() const;
    std::optional<Decimal> optNullableDecimal() const;

    // An enumeration word: one of the pairs' wire words, else an error listing them.
    template <typename E, std::size_t N>
    E word(const std::pair<QLatin1StringView, E> (&words)[N]) const
    {
        const QString text = string();
        for (const auto &[wire, value] : words)
            if (text == wire)
                return value;
        if (ok())
            failWords(text, wordList(words));
        return words[0].second;
    }
    template <typename E, std::size_t N>
    std::optional<E> optWord(const std::pair<QLatin1StringView, E> (&words)[N]) const
    {
        if (isMissing())
            return std::nullopt;
        return word(words);
    }

    void fail(const QString &problem) const;
    bool ok() const { return !m_state->error.has_value(); }
    const std::optional<ApiError> &error() const { return m_state->error; }

private:
    // What every reader of one text shares: the first error, and the tree
    // they point into (readers hold no copy of their value: copying a value
    // costs a reference count per container, per field read).
    struct State
    {
        std::optional<ApiError> error;
        JsonValue root;
    };
    JsonReader(const JsonValue &value, QString path, std::shared_ptr<State> state);
    JsonReader child(const JsonValue &value, QString path) const;
    JsonReader childField(const JsonValue &value, QLatin1StringView key) const;
    bool expect(bool condition, const char *expected) const;
    void failWords(const QString &got, const QString &allowed) const;
    template <typename E, std::size_t N>
    static QString wordList(const std::pair<QLatin1StringView, E> (&words)[N])
    {
        QString list;
        for (const auto &entry : words) {
            if (!list.isEmpty())
                list += QStringLiteral(", ");
            list += u'"' + QString(entry.first) + u'"';
        }
        return list;
    }

    const JsonValue *m_value; // in m_state->root, or a static undefined value
    QString m_base;           // path of the parent object, or this value's own path
    QLatin1StringView m_key;  // set when this value is a field of m_base
    std::shared_ptr<State> m_state;
};

} // namespace md::api
