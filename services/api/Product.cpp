#include "services/api/Product.h"

#include "services/api/WireCodec.h"

namespace md::api {

namespace {

using namespace Qt::StringLiterals;

constexpr std::pair<QLatin1StringView, FeatureType> FeatureTypeWords[] = {
    {"single_use"_L1, FeatureType::SingleUse},
    {"continuous_use"_L1, FeatureType::ContinuousUse},
    {"boolean"_L1, FeatureType::Boolean},
    {"static"_L1, FeatureType::Static},
};
constexpr std::pair<QLatin1StringView, UsageModel> UsageModelWords[] = {
    {"prepaid"_L1, UsageModel::Prepaid},
    {"pay_per_use"_L1, UsageModel::PayPerUse},
};
constexpr std::pair<QLatin1StringView, TrialDuration> TrialDurationWords[] = {
    {"day"_L1, TrialDuration::Day},
    {"month"_L1, TrialDuration::Month},
    {"year"_L1, TrialDuration::Year},
};
// Item intervals: the reset intervals without one_off (null instead) and multiple.
constexpr std::pair<QLatin1StringView, ResetInterval> ItemIntervalWords[] = {
    {"minute"_L1, ResetInterval::Minute},
    {"hour"_L1, ResetInterval::Hour},
    {"day"_L1, ResetInterval::Day},
    {"week"_L1, ResetInterval::Week},
    {"month"_L1, ResetInterval::Month},
    {"quarter"_L1, ResetInterval::Quarter},
    {"semi_annual"_L1, ResetInterval::SemiAnnual},
    {"year"_L1, ResetInterval::Year},
};

std::optional<Decimal> optNonNegative(const JsonReader &reader)
{
    return reader.isMissing() ? std::nullopt : std::optional(reader.nonNegativeDecimal());
}

} // namespace

QLatin1StringView toWire(FeatureType value)
{
    return wordOf(FeatureTypeWords, value);
}
QLatin1StringView toWire(UsageModel value)
{
    return wordOf(UsageModelWords, value);
}
QLatin1StringView toWire(TrialDuration value)
{
    return wordOf(TrialDurationWords, value);
}

FreeTrial FreeTrial::read(const JsonReader &reader)
{
    reader.object();
    FreeTrial trial;
    trial.duration = reader.field("duration"_L1).word(TrialDurationWords);
    trial.length = reader.field("length"_L1).integer(1);
    trial.uniqueFingerprint = reader.field("unique_fingerprint"_L1).optBoolean().value_or(false);
    return trial;
}

QJsonObject FreeTrial::toJson() const
{
    return {{u"duration"_s, QString(toWire(duration))},
            {u"length"_s, length},
            {u"unique_fingerprint"_s, uniqueFingerprint}};
}

ProductItem ProductItem::read(const JsonReader &reader)
{
    reader.object();
    ProductItem item;
    item.featureId = reader.field("feature_id"_L1).string();
    item.featureType = reader.field("feature_type"_L1).optWord(FeatureTypeWords);
    item.includedUsage = optNonNegative(reader.field("included_usage"_L1));
    const JsonReader interval = reader.field("interval"_L1);
    if (!interval.isMissingOrNull())
        item.interval = interval.word(ItemIntervalWords);
    item.usageModel = reader.field("usage_model"_L1).optWord(UsageModelWords);
    item.price = optNonNegative(reader.field("price"_L1));
    const JsonReader units = reader.field("billing_units"_L1);
    item.billingUnits = units.optDecimal();
    if (reader.ok() && item.billingUnits && *item.billingUnits <= Decimal())
        units.fail(u"must be greater than 0"_s);
    item.entityFeatureId = reader.field("entity_feature_id"_L1).optString();
    item.resetUsageWhenEnabled = reader.field("reset_usage_when_enabled"_L1).optBoolean();
    const JsonReader tiersReader = reader.field("tiers"_L1);
    if (const auto tiers = tiersReader.optArray()) {
        item.tiers = QList<Tier>();
        for (const JsonReader &tier : *tiers)
            item.tiers->append(Tier::read(tier));
        if (reader.ok() && tiers->isEmpty())
            tiersReader.fail(u"must hold at least one tier"_s);
        // Bands must rise, and only the last may be open-ended (as in a balance's price).
        for (qsizetype i = 0; i < item.tiers->size() && reader.ok(); ++i) {
            const Tier &tier = item.tiers->at(i);
            const JsonReader to = tiers->at(i).field("to"_L1);
            if (!tier.to && i + 1 != item.tiers->size())
                to.fail(u"only the last tier may be \"inf\""_s);
            else if (i > 0 && tier.to && item.tiers->at(i - 1).to &&
                     *tier.to <= *item.tiers->at(i - 1).to)
                to.fail(u"tiers must be in increasing order of \"to\""_s);
        }
        if (reader.ok() && item.price)
            tiersReader.fail(u"cannot be combined with price"_s);
    }
    return item;
}

QJsonObject ProductItem::toJson() const
{
    QJsonObject object{{u"feature_id"_s, featureId},
                       {u"interval"_s, interval ? QJsonValue(QString(toWire(*interval)))
                                                : QJsonValue(QJsonValue::Null)}};
    if (featureType)
        object.insert(u"feature_type"_s, QString(toWire(*featureType)));
    if (includedUsage)
        object.insert(u"included_usage"_s, includedUsage->toJson());
    if (usageModel)
        object.insert(u"usage_model"_s, QString(toWire(*usageModel)));
    if (price)
        object.insert(u"price"_s, price->toJson());
    if (billingUnits)
        object.insert(u"billing_units"_s, billingUnits->toJson());
    if (entityFeatureId)
        object.insert(u"entity_feature_id"_s, *entityFeatureId);
    if (resetUsageWhenEnabled)
        object.insert(u"reset_usage_when_enabled"_s, *resetUsageWhenEnabled);
    if (tiers)
        object.insert(u"tiers"_s, toJsonArray(*tiers));
    return object;
}

Product Product::read(const JsonReader &reader)
{
    reader.object();
    Product product;
    product.createdAt = reader.field("created_at"_L1).integer();
    product.id = reader.field("id"_L1).string();
    product.name = reader.field("name"_L1).string();
    product.env = readEnvironment(reader.field("env"_L1));
    product.isAddOn = reader.field("is_add_on"_L1).boolean();
    product.isDefault = reader.field("is_default"_L1).boolean();
    product.group = reader.field("group"_L1).nullableString();
    product.version = reader.field("version"_L1).integer(1);
    product.archived = reader.field("archived"_L1).optBoolean().value_or(false);
    product.items = readList<ProductItem>(reader.field("items"_L1));
    product.freeTrial = readNullable<FreeTrial>(reader.field("free_trial"_L1));
    return product;
}

QJsonObject Product::toJson() const
{
    return {{u"created_at"_s, createdAt},
            {u"id"_s, id},
            {u"name"_s, name},
            {u"env"_s, QString(toWire(env))},
            {u"is_add_on"_s, isAddOn},
            {u"is_default"_s, isDefault},
            {u"group"_s, nullable(group)},
            {u"version"_s, version},
            {u"archived"_s, archived},
            {u"items"_s, toJsonArray(items)},
            {u"free_trial"_s, nullable(freeTrial)}};
}

} // namespace md::api
