// Wire types of Meterdesk's own read endpoints (not among the seven of docs/api.md): the
// lists the console browses. Documented in docs/openapi.yaml under /v1/meterdesk.
#pragma once

#include "services/api/Decimal.h"
#include "services/api/FailedEvent.h"
#include "services/api/Page.h"
#include "services/api/Product.h"
#include "services/api/UpdateReward.h"
#include "services/api/WireCodec.h"

#include <QList>
#include <QMap>
#include <QString>

#include <optional>

namespace md::api {

struct CustomerSummary
{
    QString id;
    QString name;
    QString email;
    qint64 createdAt = 0;

    static CustomerSummary read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const CustomerSummary &, const CustomerSummary &) = default;
};

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

struct OrganizationInfo
{
    QString id;
    QString slug;
    QString name;
    std::optional<QString> masterOrgId;
    std::optional<QString> testAccountId;
    std::optional<QString> liveAccountId;

    static OrganizationInfo read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const OrganizationInfo &, const OrganizationInfo &) = default;
};

// A reward of rewards.list: `{coupon: record}` or `{feature_grant: record}`,
// the shape rewards.update answers with, so both show a reward alike.
using RewardEntry = UpdateRewardResponse;

struct UsageEvent
{
    QString customerId;
    QString featureId;
    std::optional<QString> entityId;
    std::optional<QString> modelId;
    QMap<QString, qint64> tokens; // pool name (input_tokens, …) -> count
    Decimal value;
    JsonValue properties = JsonValue::object(); // as the call sent them
    qint64 timestamp = 0;

    static UsageEvent read(const JsonReader &reader);
    // The `tokens` object: pool name -> count.
    static QMap<QString, qint64> readTokens(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const UsageEvent &, const UsageEvent &) = default;
};

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

// What the console talks to: the engine's version and its price catalogue.
struct AboutInfo
{
    QString version;
    CatalogueInfo catalogue;
    // The asking key's environment: async calls waiting, and failed ones.
    QueueCounts trackQueue;

    static AboutInfo read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const AboutInfo &, const AboutInfo &) = default;
};

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
