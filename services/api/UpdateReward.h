// rewards.update request and response (docs/api.md, rewards.update).
// Every field of an update is partial: nullopt keeps the stored value.
#pragma once

#include "services/api/Reward.h"

#include <variant>

namespace md::api {

struct CouponUpdate
{
    std::optional<QString> name; // free text (TextRule.h)
    std::optional<QStringList> planIds;
    std::optional<QList<CouponPromoCode>> promoCodes; // replaces the whole list

    static CouponUpdate read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const CouponUpdate &, const CouponUpdate &) = default;
};

struct FeatureGrantUpdate
{
    std::optional<QString> name; // free text (TextRule.h)
    std::optional<QList<FeatureGrant>> grants;
    std::optional<QList<FeatureGrantPromoCode>> promoCodes; // replaces the whole list

    static FeatureGrantUpdate read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const FeatureGrantUpdate &, const FeatureGrantUpdate &) = default;
};

// Exactly one of coupon and feature_grant is set.
struct UpdateRewardRequest
{
    QString rewardId;
    std::optional<CouponUpdate> coupon;
    std::optional<FeatureGrantUpdate> featureGrant;

    static UpdateRewardRequest read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const UpdateRewardRequest &, const UpdateRewardRequest &) = default;
};

// `{coupon: record}` or `{feature_grant: record}`.
struct UpdateRewardResponse
{
    std::variant<CouponRecord, FeatureGrantRecord> reward;

    static UpdateRewardResponse read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const UpdateRewardResponse &, const UpdateRewardResponse &) = default;
};

// A reward of rewards.list: `{coupon: record}` or `{feature_grant: record}`,
// the shape rewards.update answers with, so both show a reward alike.
using RewardEntry = UpdateRewardResponse;

} // namespace md::api
