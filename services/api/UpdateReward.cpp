#include "services/api/UpdateReward.h"

#include "services/api/WireCodec.h"

namespace md::api {

namespace {

using namespace Qt::StringLiterals;

// Fails unless exactly one of `first` and `second` is present.
void requireExactlyOne(const JsonReader &first, const JsonReader &second)
{
    if (!first.ok())
        return;
    const QString names = u"exactly one of %1 and %2 is required"_s.arg(
        first.path().section(u'.', -1), second.path().section(u'.', -1));
    if (first.isMissing() && second.isMissing())
        first.fail(names + u", got neither"_s);
    else if (!first.isMissing() && !second.isMissing())
        second.fail(names + u", got both"_s);
}

} // namespace

CouponUpdate CouponUpdate::read(const JsonReader &reader)
{
    reader.object();
    CouponUpdate update;
    update.name = reader.field("name"_L1).optString();
    const JsonReader planIds = reader.field("plan_ids"_L1);
    if (!planIds.isMissing())
        update.planIds = readStringList(planIds);
    const JsonReader promoCodes = reader.field("promo_codes"_L1);
    if (!promoCodes.isMissing())
        update.promoCodes = readCouponPromoCodes(promoCodes);
    return update;
}

QJsonObject CouponUpdate::toJson() const
{
    QJsonObject object;
    if (name)
        object.insert(u"name"_s, *name);
    if (planIds)
        object.insert(u"plan_ids"_s, QJsonArray::fromStringList(*planIds));
    if (promoCodes)
        object.insert(u"promo_codes"_s, toJsonArray(*promoCodes));
    return object;
}

FeatureGrantUpdate FeatureGrantUpdate::read(const JsonReader &reader)
{
    reader.object();
    FeatureGrantUpdate update;
    update.name = reader.field("name"_L1).optString();
    const JsonReader grants = reader.field("grants"_L1);
    if (!grants.isMissing())
        update.grants = readList<FeatureGrant>(grants);
    const JsonReader promoCodes = reader.field("promo_codes"_L1);
    if (!promoCodes.isMissing())
        update.promoCodes = readFeatureGrantPromoCodes(promoCodes);
    return update;
}

QJsonObject FeatureGrantUpdate::toJson() const
{
    QJsonObject object;
    if (name)
        object.insert(u"name"_s, *name);
    if (grants)
        object.insert(u"grants"_s, toJsonArray(*grants));
    if (promoCodes)
        object.insert(u"promo_codes"_s, toJsonArray(*promoCodes));
    return object;
}

UpdateRewardRequest UpdateRewardRequest::read(const JsonReader &reader)
{
    reader.object();
    UpdateRewardRequest request;
    request.rewardId = reader.field("reward_id"_L1).identifier();
    const JsonReader coupon = reader.field("coupon"_L1);
    if (!coupon.isMissing())
        request.coupon = CouponUpdate::read(coupon);
    const JsonReader featureGrant = reader.field("feature_grant"_L1);
    if (!featureGrant.isMissing())
        request.featureGrant = FeatureGrantUpdate::read(featureGrant);
    requireExactlyOne(coupon, featureGrant);
    return request;
}

QJsonObject UpdateRewardRequest::toJson() const
{
    QJsonObject object{{u"reward_id"_s, rewardId}};
    if (coupon)
        object.insert(u"coupon"_s, coupon->toJson());
    if (featureGrant)
        object.insert(u"feature_grant"_s, featureGrant->toJson());
    return object;
}

UpdateRewardResponse UpdateRewardResponse::read(const JsonReader &reader)
{
    reader.object();
    UpdateRewardResponse response;
    const JsonReader coupon = reader.field("coupon"_L1);
    const JsonReader featureGrant = reader.field("feature_grant"_L1);
    requireExactlyOne(coupon, featureGrant);
    if (!coupon.isMissing())
        response.reward = CouponRecord::read(coupon);
    else if (!featureGrant.isMissing())
        response.reward = FeatureGrantRecord::read(featureGrant);
    return response;
}

QJsonObject UpdateRewardResponse::toJson() const
{
    if (const auto *coupon = std::get_if<CouponRecord>(&reward))
        return {{u"coupon"_s, coupon->toJson()}};
    return {{u"feature_grant"_s, std::get<FeatureGrantRecord>(reward).toJson()}};
}

} // namespace md::api
