// environments.diff and environments.promote (docs/promotion.md): how the
// products and rewards of an organization's sandbox differ from its
// production, and production made what the sandbox shows, entry by entry,
// refused when production is no longer what the diff showed. Documented in
// docs/openapi.yaml under /v1/meterdesk.
#pragma once

#include "services/api/JsonValue.h"
#include "services/api/Product.h"
#include "services/api/UpdateReward.h"

namespace md::api {

enum class DiffChange { Added, Removed, Changed };

QLatin1StringView toWire(DiffChange value);

// The id a product or reward is known by.
QString idOf(const Product &product);
QString idOf(const RewardEntry &reward);

// A field that differs: its path ("name", "items.api_calls.included_usage",
// "coupon.promo_codes.SPRING") and its value on each side, undefined where
// that side has no such field.
struct FieldDifference
{
    QString field;
    JsonValue sandbox;
    JsonValue production;

    static FieldDifference read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const FieldDifference &, const FieldDifference &) = default;
};

// One product or reward that differs: `sandbox` and `production` as each
// environment holds it (null where it has none, or an archived product).
template <typename Record> struct DiffEntry
{
    QString id;
    DiffChange change = DiffChange::Changed;
    std::optional<Record> sandbox;
    std::optional<Record> production;
    QList<FieldDifference> fields;

    static DiffEntry read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const DiffEntry &, const DiffEntry &) = default;
};

// The body of environments.diff: nothing to choose yet.
struct EnvironmentDiffRequest
{
    static EnvironmentDiffRequest read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const EnvironmentDiffRequest &,
                           const EnvironmentDiffRequest &) = default;
};

struct EnvironmentPromotion;

struct EnvironmentDiff
{
    QList<DiffEntry<Product>> products; // by id
    QList<DiffEntry<RewardEntry>> rewards;

    // Production made what the sandbox shows, for the entries with these ids.
    EnvironmentPromotion promotion(const QStringList &productIds,
                                   const QStringList &rewardIds) const;

    static EnvironmentDiff read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const EnvironmentDiff &, const EnvironmentDiff &) = default;
};

// Production's `id` becomes `to` (null: archived, for a product; removed,
// for a reward), provided it is still `production` (null: it has none).
template <typename Record> struct PromotionStep
{
    QString id;
    std::optional<Record> production;
    std::optional<Record> to;

    static PromotionStep read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const PromotionStep &, const PromotionStep &) = default;
};

// At least one step; an id at most once in each list.
struct EnvironmentPromotion
{
    // Each list's bound: one transaction holds the writer for all of it.
    static constexpr qsizetype MaxSteps = 1000;

    QList<PromotionStep<Product>> products;
    QList<PromotionStep<RewardEntry>> rewards;

    static EnvironmentPromotion read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const EnvironmentPromotion &, const EnvironmentPromotion &) = default;
};

// What production held before and holds after, for each step.
template <typename Record> struct PromotedEntry
{
    QString id;
    std::optional<Record> before;
    std::optional<Record> after;

    static PromotedEntry read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const PromotedEntry &, const PromotedEntry &) = default;
};

struct EnvironmentPromoted
{
    QList<PromotedEntry<Product>> products;
    QList<PromotedEntry<RewardEntry>> rewards;

    // The promotion that puts production back as it was before this one.
    EnvironmentPromotion undoing() const;

    static EnvironmentPromoted read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const EnvironmentPromoted &, const EnvironmentPromoted &) = default;
};

} // namespace md::api
