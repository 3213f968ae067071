#include "services/api/UpdateReward.h"

#include "services/api/TextRule.h"
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
    update.name = reader.field("name"_L1).optFreeText(MaxNameLength);
    const JsonReader planIds = reader.field("plan_ids"_L1);
    if (!planIds.isMissing())
        update.planIds = readStringList(planIds);
    const JsonReader promoCodes = reader.field("promo_codes"_L1);
    if (!promoCodes.isMissing())
        update.promoCodes = readCouponPromoCodes(promoCodes);
    return update;
}

void CouponUpdate::write(JsonWriter &writer) const
{
    writer.beginObject();
    if (name)
        writer.field("name"_L1, *name);
    if (planIds) {
        writer.key("plan_ids"_L1);
        writeStrings(writer, *planIds);
    }
    if (promoCodes) {
        writer.key("promo_codes"_L1);
        writeList(writer, *promoCodes);
    }
    writer.endObject();
}

FeatureGrantUpdate FeatureGrantUpdate::read(const JsonReader &reader)
{
    reader.object();
    FeatureGrantUpdate update;
    update.name = reader.field("name"_L1).optFreeText(MaxNameLength);
    const JsonReader grants = reader.field("grants"_L1);
    if (!grants.isMissing())
        update.grants = readList<FeatureGrant>(grants);
    const JsonReader promoCodes = reader.field("promo_codes"_L1);
    if (!promoCodes.isMissing())
        update.promoCodes = readFeatureGrantPromoCodes(promoCodes);
    return update;
}

void FeatureGrantUpdate::write(JsonWriter &writer) const
{
    writer.beginObject();
    if (name)
        writer.field("name"_L1, *name);
    if (grants) {
        writer.key("grants"_L1);
        writeList(writer, *grants);
    }
    if (promoCodes) {
        writer.key("promo_codes"_L1);
        writeList(writer, *promoCodes);
    }
    writer.endObject();
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

void UpdateRewardRequest::write(JsonWriter &writer) const
{
    writer.beginObject().field("reward_id"_L1, rewardId);
    if (coupon) {
        writer.key("coupon"_L1);
        coupon->write(writer);
    }
    if (featureGrant) {
        writer.key("feature_grant"_L1);
        featureGrant->write(writer);
    }
    writer.endObject();
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

void UpdateRewardResponse::write(JsonWriter &writer) const
{
    writer.beginObject();
    if (const auto *coupon = std::get_if<CouponRecord>(&reward)) {
        writer.key("coupon"_L1);
        coupon->write(writer);
    } else {
        writer.key("feature_grant"_L1);
        std::get<FeatureGrantRecord>(reward).write(writer);
    }
    writer.endObject();
}

} // namespace md::api
