// Meterdesk's own read endpoints (not among the seven of docs/api.md), documented
// in docs/openapi.yaml under /v1/meterdesk: the price catalogue an engine
// prices calls with, and each model in it.
#pragma once

#include "services/api/Decimal.h"
#include "services/api/WireCodec.h"

namespace md::api {

// A model of the price catalogue, US dollars per million tokens per pool
// (null where the model has no price of its own for that pool).
struct ModelInfo
{
    QString id; // provider/model
    QString name;
    Decimal input;
    Decimal output;
    std::optional<Decimal> cacheRead;
    std::optional<Decimal> cacheWrite;
    std::optional<Decimal> reasoning;
    std::optional<Decimal> inputAudio;
    std::optional<Decimal> outputAudio;

    static ModelInfo read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ModelInfo &, const ModelInfo &) = default;
};

// The price catalogue an engine prices calls with: where the snapshot came
// from, the day it was taken and how many models it prices.
struct CatalogueInfo
{
    QString source;
    QString generated; // YYYY-MM-DD, or empty when the file does not say
    qint64 models = 0;

    static CatalogueInfo read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const CatalogueInfo &, const CatalogueInfo &) = default;
};

} // namespace md::api
