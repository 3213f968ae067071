// balances.track_tokens request and response (docs/api.md, balances.track_tokens).
#pragma once

#include "services/api/BalanceSummary.h"

namespace md::api {

enum class OverageBehavior { Cap, Overflow };

QLatin1StringView toWire(OverageBehavior value);

struct TrackTokensRequest
{
    QString customerId;
    QString modelId; // `<provider>/<model>`: a '/' with text on both sides
    // Token pools: integers 0..MaxSafeInteger; the first two are required.
    qint64 inputTokens = 0;
    qint64 outputTokens = 0;
    std::optional<qint64> cacheReadTokens;
    std::optional<qint64> cacheWriteTokens;
    std::optional<qint64> reasoningTokens;
    std::optional<qint64> audioInputTokens;
    std::optional<qint64> audioOutputTokens;
    std::optional<QString> entityId;
    std::optional<QString> featureId;    // auto-detected when omitted
    std::optional<JsonValue> properties; // an object, kept as sent
    std::optional<qint64> timestamp;     // 1..MaxSafeInteger ms; omitted means now
    OverageBehavior overageBehavior = OverageBehavior::Cap; // may be omitted, default cap
    bool async = false;                                     // may be omitted, default false
    // Not on this route's wire: set, the call is a balances.track of
    // featureId for this value (TrackRequest::asCall), with no model and no
    // tokens. The track pipeline carries both kinds of call as this type.
    std::optional<Decimal> value;

    // The catalogue provider key: the first path segment of modelId.
    QString provider() const { return modelId.section(u'/', 0, 0); }

    static TrackTokensRequest read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    void writeFields(JsonWriter &writer) const; // write() without the braces (usage.batch)
    friend bool operator==(const TrackTokensRequest &, const TrackTokensRequest &) = default;
};

// One balance row the event consumed from.
struct Deduction
{
    QString balanceId;
    QString featureId;
    std::optional<QString> planId; // null for standalone balances
    std::optional<Reset> reset;    // null when the row does not reset
    Decimal value;                 // negative: usage given back (balances.track)

    static Deduction read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const Deduction &, const Deduction &) = default;
};

struct TrackTokensResponse
{
    QString customerId;
    Decimal value;                         // negative: usage given back (balances.track)
    std::optional<BalanceSummary> balance; // null when several features were affected
    std::optional<QString> entityId;       // present for entity-scoped tracking
    std::optional<QString> eventName;      // present when an event name was tracked
    // feature id -> summary; nullopt (JSON null) when the customer has no balance for it.
    QMap<QString, std::optional<BalanceSummary>> balances;
    QList<Deduction> deductions; // negative values when a balances.track gave usage back
    // Not on the wire: the async flag was set, the call was stored for later
    // and the answer was 204 without balance information.
    bool queued = false;

    static TrackTokensResponse read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const TrackTokensResponse &, const TrackTokensResponse &) = default;
};

} // namespace md::api
