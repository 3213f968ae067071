// A product and its items (docs/api.md, Products).
#pragma once

#include "services/api/Balance.h"
#include "services/api/Environment.h"

namespace md::api {

enum class FeatureType { SingleUse, ContinuousUse, Boolean, Static };
enum class UsageModel { Prepaid, PayPerUse };
enum class TrialDuration { Day, Month, Year };

QLatin1StringView toWire(FeatureType value);
QLatin1StringView toWire(UsageModel value);
QLatin1StringView toWire(TrialDuration value);

struct FreeTrial
{
    TrialDuration duration = TrialDuration::Month;
    qint64 length = 1;              // at least 1
    bool uniqueFingerprint = false; // may be omitted, default false

    static FreeTrial read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const FreeTrial &, const FreeTrial &) = default;
};

// feature_id is required; every other field may be omitted (the server derives it from the
// feature or uses its default) and is written only when set, except interval: omitted or null
// both mean one-off, and it is always written (null for one-off).
struct ProductItem
{
    QString featureId;
    std::optional<FeatureType> featureType;
    std::optional<Decimal> includedUsage;  // not negative
    std::optional<ResetInterval> interval; // minute..year; nullopt is one-off
    std::optional<qint64> intervalCount;   // at least 1: resets every count intervals
    std::optional<RolloverRule> rollover;  // null: nothing carries over
    std::optional<UsageModel> usageModel;
    std::optional<Decimal> price;        // per billing_units; not negative; not together with tiers
    std::optional<Decimal> billingUnits; // greater than 0
    std::optional<QString> entityFeatureId;
    std::optional<bool> resetUsageWhenEnabled;
    std::optional<QList<Tier>> tiers; // at least one, rising `to`, only the last "inf"

    static ProductItem read(const JsonReader &reader);
    // An item a request or a workspace file gives: as read(), and tiers must
    // end with a band up to "inf" (usage above the last would have no price).
    // Items stored before that rule are still read as they are.
    static ProductItem readGiven(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ProductItem &, const ProductItem &) = default;
};

struct Product
{
    qint64 createdAt = 0;
    QString id;
    QString name;
    Environment env = Environment::Sandbox;
    bool isAddOn = false;
    bool isDefault = false;
    std::optional<QString> group; // null once an update has cleared it
    qint64 version = 1;           // at least 1
    bool archived = false;        // may be omitted, default false
    QList<ProductItem> items;
    std::optional<FreeTrial> freeTrial; // null: no free trial

    static Product read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const Product &, const Product &) = default;
};

} // namespace md::api
