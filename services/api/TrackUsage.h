// balances.track and balances.check (docs/api.md, "Usage of any feature"):
// usage of any metered feature by value, and whether a customer may use a
// feature now. balances.track answers in track_tokens' shape.
#pragma once

#include "services/api/TrackTokens.h"

namespace md::api {

struct TrackRequest
{
    QString customerId;
    QString featureId;
    // How much was used: 1 when omitted. Negative gives usage back
    // (docs/api.md says how far); zero records the event alone.
    Decimal value = Decimal::fromInteger(1);
    std::optional<QString> entityId;
    std::optional<JsonValue> properties; // an object, kept as sent
    std::optional<qint64> timestamp;     // 1..MaxSafeInteger ms; omitted means now
    OverageBehavior overageBehavior = OverageBehavior::Cap;
    bool async = false;

    // The call as the track pipeline carries it (TrackTokensRequest::value set).
    TrackTokensRequest asCall() const;
    // Back from what the pipeline carried (a stored async call).
    static TrackRequest fromCall(const TrackTokensRequest &call);

    static TrackRequest read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    void writeFields(JsonWriter &writer) const; // write() without the braces (usage.batch)
    friend bool operator==(const TrackRequest &, const TrackRequest &) = default;
};

// A pipeline call as text (an async call in the queue's table): balances.track's
// body when it carries a value, track_tokens' otherwise; read back by
// whether it names a model.
QByteArray callText(const TrackTokensRequest &call);
Result<TrackTokensRequest> readCallText(QByteArrayView text);

struct CheckRequest
{
    QString customerId;
    QString featureId;
    Decimal requiredBalance = Decimal::fromInteger(1); // not negative
    std::optional<QString> entityId;

    static CheckRequest read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const CheckRequest &, const CheckRequest &) = default;
};

struct CheckResponse
{
    bool allowed = false;
    // The feature's balance summary; null for a boolean feature or when the
    // customer holds none of it.
    std::optional<BalanceSummary> balance;

    static CheckResponse read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const CheckResponse &, const CheckResponse &) = default;
};

} // namespace md::api
