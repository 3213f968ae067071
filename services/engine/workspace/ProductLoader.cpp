#include "services/engine/workspace/ProductLoader.h"

#include "services/api/Product.h"
#include "services/api/Reward.h"
#include "services/api/WireCodec.h"
#include "services/engine/sql/StoredJson.h"

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;
using api::JsonReader;

namespace {

constexpr std::pair<QLatin1StringView, int> FeatureTypes[] = {
    {"single_use"_L1, 0}, {"continuous_use"_L1, 1}, {"boolean"_L1, 2},
    {"static"_L1, 3},     {"credit_system"_L1, 4},
};

// A markup percentage: -100 (free) or more.
QString markup(const JsonReader &reader)
{
    const api::Decimal value = reader.decimal();
    if (reader.ok() && value < api::Decimal::fromInteger(-100))
        reader.fail(u"a markup is a percentage of at least -100"_s);
    return value.toString();
}

} // namespace

api::Result<api::Done> ProductLoader::feature(LoadState &state, const JsonReader &feature,
                                              const Scope &scope)
{
    feature.object();
    const JsonReader idReader = feature.field("id"_L1);
    const QString id = nonEmptyId(idReader);
    const QString name = feature.field("name"_L1).string();
    const JsonReader typeReader = feature.field("type"_L1);
    const int type = typeReader.word(FeatureTypes);
    const qint64 createdAt = feature.field("created_at"_L1).integer();
    MD_CHECK(feature)
    if (state.features.contains(id))
        idReader.fail(u"feature \"%1\" appears twice"_s.arg(id));
    MD_CHECK(feature)
    auto pk = state.key(u"features"_s);
    if (!pk)
        return pk.error();
    state.features.insert(id, pk.value());
    QVariant defaultMarkup;
    const JsonReader credit = feature.field("credit_system"_L1);
    if (!credit.isMissing()) {
        if (type != 4)
            credit.fail(u"only a feature of type \"credit_system\" has credit_system settings"_s);
        credit.object();
        const JsonReader markupReader = credit.field("default_markup"_L1);
        if (!markupReader.isMissingOrNull())
            defaultMarkup = markup(markupReader);
        QSet<QString> seen;
        for (const JsonReader &entry :
             credit.field("markups"_L1).optArray().value_or(QList<JsonReader>())) {
            entry.object();
            const QString provider = nonEmptyId(entry.field("provider"_L1));
            const JsonReader modelReader = entry.field("model"_L1);
            const QString model = modelReader.isMissing()
                                      ? QString()
                                      : modelReader.nullableString().value_or(QString());
            const QString value = markup(entry.field("markup"_L1));
            MD_CHECK(feature)
            if (seen.contains(provider + u'/' + model))
                entry.fail(u"a markup for %1 is given twice"_s.arg(
                    model.isEmpty() ? provider : provider + u'/' + model));
            seen.insert(provider + u'/' + model);
            MD_CHECK(feature)
            if (auto added = state.add(u"credit_markups"_s, {pk.value(), provider, model, value});
                !added)
                return added.error();
        }
    }
    MD_CHECK(feature)
    return state.add(u"features"_s, {pk.value(), scope.orgPk, scope.envWord(), id, name,
                                     QString(FeatureTypes[type].first), defaultMarkup, createdAt});
}

api::Result<api::Done> ProductLoader::product(LoadState &state, const JsonReader &product,
                                              const Scope &scope)
{
    product.object();
    const JsonReader idReader = product.field("id"_L1);
    const QString id = nonEmptyId(idReader);
    const qint64 version = product.field("version"_L1).integer(1);
    const QString name = product.field("name"_L1).string();
    const JsonReader groupReader = product.field("group"_L1);
    const std::optional<QString> group =
        groupReader.isMissing() ? std::nullopt : groupReader.nullableString();
    const bool isAddOn = product.field("is_add_on"_L1).boolean();
    const bool isDefault = product.field("is_default"_L1).boolean();
    const bool archived = product.field("archived"_L1).optBoolean().value_or(false);
    const JsonReader itemsReader = product.field("items"_L1);
    // Items and trial are the wire's product item and free trial (§2.5),
    // strictly: as products update takes them, tiers ending at "inf".
    QList<api::ProductItem> items;
    for (const JsonReader &itemReader : itemsReader.array()) {
        const api::ProductItem item = api::ProductItem::readGiven(itemReader);
        if (product.ok() && !item.featureId.isEmpty() && !state.features.contains(item.featureId))
            itemReader.field("feature_id"_L1)
                .fail(u"feature \"%1\" is not defined in this environment"_s.arg(item.featureId));
        items.append(item);
    }
    const JsonReader trialReader = product.field("free_trial"_L1);
    std::optional<api::FreeTrial> trial;
    if (!trialReader.isMissingOrNull())
        trial = api::FreeTrial::read(trialReader);
    const qint64 createdAt = product.field("created_at"_L1).integer();
    MD_CHECK(product)
    const QString versionKey = id + u'@' + QString::number(version);
    if (state.products.contains(versionKey))
        idReader.fail(u"product \"%1\" version %2 appears twice"_s.arg(id).arg(version));
    MD_CHECK(product)
    auto pk = state.key(u"products"_s);
    if (!pk)
        return pk.error();
    state.products.insert(versionKey, pk.value());
    if (!state.planKeys.contains(id) || version < state.planKeys.value(id).first)
        state.planKeys.insert(id, {version, pk.value()});
    // The newest version is the one a plan id without a version means.
    if (state.latestVersion.value(id, 0) < version) {
        state.latestVersion.insert(id, version);
        state.products.insert(id, pk.value());
    }
    return state.add(u"products"_s,
                     {pk.value(), scope.orgPk, scope.envWord(), id, version, name, orNull(group),
                      int(isAddOn), int(isDefault), int(archived), storedText(items),
                      trial ? QVariant(storedText(*trial)) : QVariant(), createdAt});
}

api::Result<api::Done> ProductLoader::reward(LoadState &state, const JsonReader &reward,
                                             const Scope &scope)
{
    reward.object();
    const JsonReader coupon = reward.field("coupon"_L1);
    const JsonReader grant = reward.field("feature_grant"_L1);
    if (coupon.isMissing() == grant.isMissing())
        reward.fail(u"a reward holds exactly one of \"coupon\" and \"feature_grant\""_s);
    MD_CHECK(reward)
    const JsonReader record = coupon.isMissing() ? grant : coupon;
    // The record is the wire's (rewards.list answers it as stored), strictly.
    const QString text = coupon.isMissing() ? storedText(api::FeatureGrantRecord::read(record))
                                            : storedText(api::CouponRecord::read(record));
    const JsonReader idReader = record.field("id"_L1);
    const QString id = nonEmptyId(idReader);
    const qint64 createdAt = record.field("created_at"_L1).integer();
    QStringList codes;
    for (const JsonReader &promo :
         record.field("promo_codes"_L1).optArray().value_or(QList<JsonReader>())) {
        const JsonReader codeReader = promo.field("code"_L1);
        const QString code = nonEmptyId(codeReader);
        if (reward.ok() && state.promoCodes.contains(code))
            codeReader.fail(u"promo code \"%1\" is already used by another reward"_s.arg(code));
        state.promoCodes.insert(code);
        codes.append(code);
    }
    if (reward.ok() && state.rewardIds.contains(id))
        idReader.fail(u"reward \"%1\" appears twice"_s.arg(id));
    MD_CHECK(reward)
    state.rewardIds.insert(id);
    auto pk = state.key(u"rewards"_s);
    if (!pk)
        return pk.error();
    if (auto added = state.add(u"rewards"_s, {pk.value(), scope.orgPk, scope.envWord(), id,
                                              coupon.isMissing() ? u"feature_grant"_s : u"coupon"_s,
                                              text, createdAt});
        !added)
        return added.error();
    for (const QString &code : std::as_const(codes))
        if (auto added =
                state.add(u"promo_codes"_s, {scope.orgPk, scope.envWord(), code, pk.value()});
            !added)
            return added.error();
    return api::Done{};
}

} // namespace md::engine
