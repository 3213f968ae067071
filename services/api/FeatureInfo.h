// Meterdesk's own read endpoints (not among the seven of docs/api.md), documented
// in docs/openapi.yaml under /v1/meterdesk: a feature of the product catalogue,
// with a credit system's markups.
#pragma once

#include "services/api/Decimal.h"
#include "services/api/WireCodec.h"

namespace md::api {

struct CreditMarkup
{
    QString provider;
    std::optional<QString> model; // null: the provider-wide markup
    Decimal markup;

    static CreditMarkup read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const CreditMarkup &, const CreditMarkup &) = default;
};

struct FeatureInfo
{
    QString id;
    QString name;
    QString type; // single_use, continuous_use, boolean, static, credit_system
    std::optional<Decimal> defaultMarkup;
    QList<CreditMarkup> markups;

    static FeatureInfo read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const FeatureInfo &, const FeatureInfo &) = default;
};

} // namespace md::api
