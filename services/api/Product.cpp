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

void FreeTrial::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("duration"_L1, toWire(duration))
        .field("length"_L1, length)
        .field("unique_fingerprint"_L1, uniqueFingerprint)
        .endObject();
}

ProductItem ProductItem::read(const JsonReader &reader)
{
    reader.object();
    ProductItem item;
    // null: a fixed price (a base fee, a seat), owed per period, not a grant
    // (docs/api.md, "Fixed prices").
    const JsonReader feature = reader.field("feature_id"_L1);
    item.featureId = feature.isNull() ? QString() : feature.string();
    if (reader.ok() && !feature.isNull() && item.featureId.isEmpty())
        feature.fail(u"must name a feature, or be null for a fixed price"_s);
    item.featureType = reader.field("feature_type"_L1).optWord(FeatureTypeWords);
    item.includedUsage = optNonNegative(reader.field("included_usage"_L1));
    const JsonReader interval = reader.field("interval"_L1);
    if (!interval.isMissingOrNull())
        item.interval = readRepeatingInterval(interval);
    item.intervalCount = reader.field("interval_count"_L1).optInteger(1);
    if (const JsonReader rollover = reader.field("rollover"_L1); !rollover.isMissingOrNull())
        item.rollover = RolloverRule::read(rollover);
    if (reader.ok() && !item.interval && (item.intervalCount || item.rollover))
        reader.field(item.rollover ? "rollover"_L1 : "interval_count"_L1)
            .fail(u"needs an interval: a one-off balance never resets"_s);
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
    if (reader.ok() && item.featureId.isEmpty()) {
        if (!item.price)
            reader.field("price"_L1)
                .fail(
                    u"is needed by an item without a feature: it is a fixed price (a base fee)"_s);
        for (const auto key : {"included_usage"_L1, "rollover"_L1, "interval_count"_L1,
                               "usage_model"_L1, "billing_units"_L1, "entity_feature_id"_L1,
                               "reset_usage_when_enabled"_L1, "tiers"_L1, "feature_type"_L1})
            if (reader.ok() && !reader.field(key).isMissingOrNull())
                reader.field(key).fail(
                    u"belongs to a feature's item; a fixed price (feature_id null) takes a price"
                    " and an interval only"_s);
    }
    return item;
}

ProductItem ProductItem::readGiven(const JsonReader &reader)
{
    ProductItem item = read(reader);
    if (reader.ok() && item.tiers && item.tiers->last().to)
        reader.field("tiers"_L1)
            .fail(u"must end with a tier up to \"inf\": usage above %1 would have no price"_s.arg(
                item.tiers->last().to->toString()));
    return item;
}

void ProductItem::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("feature_id"_L1,
               featureId.isEmpty() ? std::optional<QString>() : std::optional(featureId))
        .key("interval"_L1);
    if (interval)
        writer.value(toWire(*interval));
    else
        writer.null();
    if (featureType)
        writer.field("feature_type"_L1, toWire(*featureType));
    if (intervalCount)
        writer.field("interval_count"_L1, *intervalCount);
    if (rollover) {
        writer.key("rollover"_L1);
        rollover->write(writer);
    }
    if (includedUsage)
        writer.field("included_usage"_L1, *includedUsage);
    if (usageModel)
        writer.field("usage_model"_L1, toWire(*usageModel));
    if (price)
        writer.field("price"_L1, *price);
    if (billingUnits)
        writer.field("billing_units"_L1, *billingUnits);
    if (entityFeatureId)
        writer.field("entity_feature_id"_L1, *entityFeatureId);
    if (resetUsageWhenEnabled)
        writer.field("reset_usage_when_enabled"_L1, *resetUsageWhenEnabled);
    if (tiers) {
        writer.key("tiers"_L1).beginArray();
        for (const Tier &tier : *tiers)
            tier.write(writer);
        writer.endArray();
    }
    writer.endObject();
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

void Product::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("created_at"_L1, createdAt)
        .field("id"_L1, id)
        .field("name"_L1, name)
        .field("env"_L1, toWire(env))
        .field("is_add_on"_L1, isAddOn)
        .field("is_default"_L1, isDefault)
        .field("group"_L1, group)
        .field("version"_L1, version)
        .field("archived"_L1, archived)
        .key("items"_L1);
    writeList(writer, items);
    writer.key("free_trial"_L1);
    writeNullable(writer, freeTrial);
    writer.endObject();
}

} // namespace md::api
