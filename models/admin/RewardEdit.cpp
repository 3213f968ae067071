#include "models/admin/RewardEdit.h"

#include "services/api/WireCodec.h"

namespace md::models {

using namespace Qt::StringLiterals;

namespace {

QString grantText(const api::FeatureGrant &grant)
{
    return grant.expiry ? RewardEdit::tr("%1: %2, expires after %3 %4")
                              .arg(grant.featureId, grant.included.toString())
                              .arg(grant.expiry->length)
                              .arg(QString(api::toWire(grant.expiry->type)))
                        : RewardEdit::tr("%1: %2, never expires")
                              .arg(grant.featureId, grant.included.toString());
}

QString codesText(const QStringList &codes)
{
    return codes.isEmpty() ? RewardEdit::tr("none") : codes.join(u", "_s);
}

// 0 uses is no limit (docs/api.md, "Rewards").
QString usesText(qint64 maxUses)
{
    return maxUses == 0 ? RewardEdit::tr("unlimited") : RewardEdit::tr("max. %1").arg(maxUses);
}

QStringList codeList(const QList<api::FeatureGrantPromoCode> &codes)
{
    QStringList list;
    for (const auto &code : codes)
        list.append(RewardEdit::tr("%1 (%2)").arg(code.code, usesText(code.maxUses)));
    return list;
}

QStringList codeList(const QList<api::CouponPromoCode> &codes)
{
    QStringList list;
    for (const auto &code : codes)
        list.append(RewardEdit::tr("%1 (%2%3)")
                        .arg(code.code, usesText(code.globalMaxRedemption),
                             code.firstTimeTransaction ? RewardEdit::tr(", first purchase only")
                                                       : QString()));
    return list;
}

QString plansText(const std::optional<QStringList> &plans)
{
    return plans ? (plans->isEmpty() ? RewardEdit::tr("none") : plans->join(u", "_s))
                 : RewardEdit::tr("every plan");
}

using api::JsonValue;

} // namespace

RewardForm RewardForm::from(const Reward &reward)
{
    RewardForm form;
    if (const auto *coupon = std::get_if<api::CouponRecord>(&reward)) {
        form.coupon = true;
        form.name = coupon->name;
        form.planIds = coupon->planIds ? coupon->planIds->join(u", "_s) : QString();
        for (const auto &code : coupon->promoCodes)
            form.codes.append({code.code, code.globalMaxRedemption, code.firstTimeTransaction});
        return form;
    }
    const auto &grant = std::get<api::FeatureGrantRecord>(reward);
    form.name = grant.name;
    for (const api::FeatureGrant &g : grant.grants)
        form.grants.append({g.featureId, g.included.toString(),
                            g.expiry ? QString(api::toWire(g.expiry->type)) : QString(),
                            g.expiry ? g.expiry->length : 1});
    for (const auto &code : grant.promoCodes)
        form.codes.append({code.code, code.maxUses, false});
    return form;
}

QString RewardEdit::id(const Reward &reward)
{
    return std::visit([](const auto &r) { return r.id; }, reward);
}

QString RewardEdit::name(const Reward &reward)
{
    return std::visit([](const auto &r) { return r.name; }, reward);
}

api::Result<api::UpdateRewardRequest> RewardEdit::request(const Reward &before,
                                                          const RewardForm &form)
{
    if (form.name.trimmed().isEmpty())
        return api::ApiError::invalidInputs(
            form.coupon ? u"coupon.name"_s : u"feature_grant.name"_s, tr("give the reward a name"));
    JsonValue codes = JsonValue::array();
    for (const RewardForm::Code &code : form.codes) {
        JsonValue object = JsonValue::object({{"code"_L1, code.code.trimmed()}});
        if (form.coupon) {
            object.insert(u"global_max_redemption"_s, code.limit);
            object.insert(u"first_time_transaction"_s, code.firstTimeOnly);
        } else {
            object.insert(u"max_uses"_s, code.limit);
        }
        codes.append(object);
    }
    JsonValue kind =
        JsonValue::object({{"name"_L1, form.name.trimmed()}, {"promo_codes"_L1, codes}});
    if (form.coupon) {
        QStringList plans;
        for (const QString &plan : form.planIds.split(u',', Qt::SkipEmptyParts))
            plans.append(plan.trimmed());
        JsonValue planList = JsonValue::array();
        for (const QString &plan : std::as_const(plans))
            planList.append(plan);
        kind.insert(u"plan_ids"_s, planList);
    } else {
        JsonValue grants = JsonValue::array();
        for (const RewardForm::Grant &grant : form.grants)
            grants.append(JsonValue::object(
                {{"feature_id"_L1, grant.featureId.trimmed()},
                 {"included"_L1, JsonValue::numberOrString(grant.included)},
                 {"expiry"_L1, grant.expiryType.isEmpty()
                                   ? JsonValue::null()
                                   : JsonValue::object({{"type"_L1, grant.expiryType},
                                                        {"length"_L1, grant.expiryLength}})}}));
        kind.insert(u"grants"_s, grants);
    }
    JsonValue body = JsonValue::object({{"reward_id"_L1, id(before)}});
    body.insert(form.coupon ? u"coupon"_s : u"feature_grant"_s, kind);
    auto full = api::decode<api::UpdateRewardRequest>(body);
    if (!full)
        return full.error();
    // Only what differs is sent.
    api::UpdateRewardRequest request;
    request.rewardId = id(before);
    if (const auto *coupon = std::get_if<api::CouponRecord>(&before)) {
        api::CouponUpdate update = *full.value().coupon;
        if (update.name == coupon->name)
            update.name.reset();
        if (coupon->planIds ? update.planIds == coupon->planIds : update.planIds->isEmpty())
            update.planIds.reset();
        if (update.promoCodes == coupon->promoCodes)
            update.promoCodes.reset();
        request.coupon = update;
    } else {
        const auto &grant = std::get<api::FeatureGrantRecord>(before);
        api::FeatureGrantUpdate update = *full.value().featureGrant;
        if (update.name == grant.name)
            update.name.reset();
        if (update.grants == grant.grants)
            update.grants.reset();
        if (update.promoCodes == grant.promoCodes)
            update.promoCodes.reset();
        request.featureGrant = update;
    }
    return request;
}

QList<FieldChange> RewardEdit::changes(const Reward &before,
                                       const api::UpdateRewardRequest &request)
{
    QList<FieldChange> changes;
    if (const auto *coupon = std::get_if<api::CouponRecord>(&before)) {
        const api::CouponUpdate &update = *request.coupon;
        if (update.name)
            changes.append({tr("Name"), coupon->name, *update.name});
        if (update.planIds)
            changes.append({tr("Plans"), plansText(coupon->planIds), plansText(update.planIds)});
        if (update.promoCodes)
            changes.append({tr("Promo codes"), codesText(codeList(coupon->promoCodes)),
                            codesText(codeList(*update.promoCodes))});
        return changes;
    }
    const auto &grant = std::get<api::FeatureGrantRecord>(before);
    const api::FeatureGrantUpdate &update = *request.featureGrant;
    if (update.name)
        changes.append({tr("Name"), grant.name, *update.name});
    if (update.grants) {
        const qsizetype count = std::max(grant.grants.size(), update.grants->size());
        for (qsizetype i = 0; i < count; ++i) {
            const QString was =
                i < grant.grants.size() ? grantText(grant.grants.at(i)) : tr("none");
            const QString now =
                i < update.grants->size() ? grantText(update.grants->at(i)) : tr("removed");
            if (was != now)
                changes.append({tr("Grant %1").arg(i + 1), was, now});
        }
    }
    if (update.promoCodes)
        changes.append({tr("Promo codes"), codesText(codeList(grant.promoCodes)),
                        codesText(codeList(*update.promoCodes))});
    return changes;
}

api::UpdateRewardRequest RewardEdit::undo(const Reward &before, const Reward &after)
{
    api::UpdateRewardRequest request;
    request.rewardId = id(before);
    if (const auto *coupon = std::get_if<api::CouponRecord>(&before)) {
        const auto &now = std::get<api::CouponRecord>(after);
        api::CouponUpdate update;
        if (now.name != coupon->name)
            update.name = coupon->name;
        if (now.planIds != coupon->planIds)
            update.planIds = coupon->planIds.value_or(QStringList());
        if (now.promoCodes != coupon->promoCodes)
            update.promoCodes = coupon->promoCodes;
        request.coupon = update;
        return request;
    }
    const auto &grant = std::get<api::FeatureGrantRecord>(before);
    const auto &now = std::get<api::FeatureGrantRecord>(after);
    api::FeatureGrantUpdate update;
    if (now.name != grant.name)
        update.name = grant.name;
    if (now.grants != grant.grants)
        update.grants = grant.grants;
    if (now.promoCodes != grant.promoCodes)
        update.promoCodes = grant.promoCodes;
    request.featureGrant = update;
    return request;
}

} // namespace md::models
