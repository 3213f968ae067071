// Meterdesk's own read endpoints (not among the seven of docs/api.md), documented
// in docs/openapi.yaml under /v1/meterdesk: the price of a call, unrecorded.
#pragma once

#include "services/api/Decimal.h"
#include "services/api/WireCodec.h"

namespace md::api {

// What a track_tokens call would cost, without recording it: each pool's
// tokens and price, the base cost, the markup applied and where it came from.
struct CallQuote
{
    struct Pool
    {
        QString name; // input, output, cache_read, …
        qint64 tokens = 0;
        Decimal pricePerMillion;
        Decimal cost;
        friend bool operator==(const Pool &, const Pool &) = default;
    };
    QString modelId;
    std::optional<QString> featureId; // the credit system whose markups applied
    QList<Pool> pools;
    Decimal baseCost;
    Decimal markup;       // percent
    QString markupSource; // model, provider, default or none
    Decimal value;
    bool free = false; // markup -100: recorded, nothing deducted

    static CallQuote read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const CallQuote &, const CallQuote &) = default;
};

} // namespace md::api
