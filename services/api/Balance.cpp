#include "services/api/Balance.h"

#include "services/api/WireCodec.h"

namespace md::api {

namespace {

using namespace Qt::StringLiterals;

constexpr std::pair<QLatin1StringView, ResetInterval> ResetIntervalWords[] = {
    {"one_off"_L1, ResetInterval::OneOff},  {"minute"_L1, ResetInterval::Minute},
    {"hour"_L1, ResetInterval::Hour},       {"day"_L1, ResetInterval::Day},
    {"week"_L1, ResetInterval::Week},       {"month"_L1, ResetInterval::Month},
    {"quarter"_L1, ResetInterval::Quarter}, {"semi_annual"_L1, ResetInterval::SemiAnnual},
    {"year"_L1, ResetInterval::Year},       {"multiple"_L1, ResetInterval::Multiple},
};
constexpr std::pair<QLatin1StringView, ResetInterval> RepeatingIntervalWords[] = {
    {"minute"_L1, ResetInterval::Minute},
    {"hour"_L1, ResetInterval::Hour},
    {"day"_L1, ResetInterval::Day},
    {"week"_L1, ResetInterval::Week},
    {"month"_L1, ResetInterval::Month},
    {"quarter"_L1, ResetInterval::Quarter},
    {"semi_annual"_L1, ResetInterval::SemiAnnual},
    {"year"_L1, ResetInterval::Year},
};
constexpr std::pair<QLatin1StringView, TierBehavior> TierBehaviorWords[] = {
    {"graduated"_L1, TierBehavior::Graduated},
    {"volume"_L1, TierBehavior::Volume},
};
constexpr std::pair<QLatin1StringView, BillingMethod> BillingMethodWords[] = {
    {"prepaid"_L1, BillingMethod::Prepaid},
    {"usage_based"_L1, BillingMethod::UsageBased},
};
constexpr std::pair<QLatin1StringView, BalanceStatus> BalanceStatusWords[] = {
    {"active"_L1, BalanceStatus::Active},
    {"expired"_L1, BalanceStatus::Expired},
};

} // namespace

QLatin1StringView toWire(ResetInterval value)
{
    return wordOf(ResetIntervalWords, value);
}
QLatin1StringView toWire(TierBehavior value)
{
    return wordOf(TierBehaviorWords, value);
}
QLatin1StringView toWire(BillingMethod value)
{
    return wordOf(BillingMethodWords, value);
}
QLatin1StringView toWire(BalanceStatus value)
{
    return wordOf(BalanceStatusWords, value);
}

ResetInterval readResetInterval(const JsonReader &reader)
{
    return reader.word(ResetIntervalWords);
}

std::optional<ResetInterval> resetIntervalFromWire(QStringView word)
{
    for (const auto &[wire, value] : ResetIntervalWords)
        if (word == wire)
            return value;
    return std::nullopt;
}

ResetInterval readRepeatingInterval(const JsonReader &reader)
{
    return reader.word(RepeatingIntervalWords);
}

BalanceStatus readBalanceStatus(const JsonReader &reader)
{
    return reader.word(BalanceStatusWords);
}

RolloverRule RolloverRule::read(const JsonReader &reader)
{
    reader.object();
    RolloverRule rule;
    rule.max = reader.field("max"_L1).nullableDecimal();
    if (reader.ok() && rule.max && rule.max->isNegative())
        reader.field("max"_L1).fail(u"must not be negative (null keeps everything)"_s);
    rule.length = reader.field("length"_L1).integer(1);
    rule.duration = readRepeatingInterval(reader.field("duration"_L1));
    return rule;
}

void RolloverRule::write(JsonWriter &writer) const
{
    writer.beginObject().key("max"_L1);
    if (max)
        writer.value(*max);
    else
        writer.null();
    writer.field("length"_L1, length).field("duration"_L1, toWire(duration)).endObject();
}

Reset Reset::read(const JsonReader &reader, KeyCase keys)
{
    reader.object();
    Reset reset;
    reset.interval = readResetInterval(reader.field("interval"_L1));
    reset.intervalCount =
        reader.field(wireKey(keys, "interval_count"_L1, "intervalCount"_L1)).optInteger(1);
    reset.resetsAt = reader.field(wireKey(keys, "resets_at"_L1, "resetsAt"_L1)).nullableInteger();
    if (const JsonReader rule = reader.field("rollover"_L1); !rule.isMissing())
        reset.rollover = RolloverRule::read(rule);
    return reset;
}

void Reset::write(JsonWriter &writer, KeyCase keys) const
{
    writer.beginObject()
        .field("interval"_L1, toWire(interval))
        .field(wireKey(keys, "resets_at"_L1, "resetsAt"_L1), resetsAt);
    if (intervalCount)
        writer.field(wireKey(keys, "interval_count"_L1, "intervalCount"_L1), *intervalCount);
    if (rollover) {
        writer.key("rollover"_L1);
        rollover->write(writer);
    }
    writer.endObject();
}

Tier Tier::read(const JsonReader &reader, KeyCase keys)
{
    reader.object();
    Tier tier;
    const JsonReader to = reader.field("to"_L1);
    if (to.raw().isString()) {
        if (to.raw().toString() != "inf"_L1)
            to.fail(u"expected a number or \"inf\""_s);
    } else if (to.raw().isNumber()) {
        tier.to = to.nonNegativeDecimal();
    } else {
        to.fail(to.isMissing() ? u"is required"_s : u"expected a number or \"inf\""_s);
    }
    tier.amount = reader.field("amount"_L1).nonNegativeDecimal();
    const JsonReader flat = reader.field(wireKey(keys, "flat_amount"_L1, "flatAmount"_L1));
    if (!flat.isMissing())
        tier.flatAmount = flat.nonNegativeDecimal();
    return tier;
}

void Tier::write(JsonWriter &writer, KeyCase keys) const
{
    writer.beginObject().key("to"_L1);
    if (to)
        writer.value(*to);
    else
        writer.value("inf"_L1);
    writer.field("amount"_L1, amount);
    if (flatAmount)
        writer.field(wireKey(keys, "flat_amount"_L1, "flatAmount"_L1), *flatAmount);
    writer.endObject();
}

Price Price::read(const JsonReader &reader, KeyCase keys)
{
    reader.object();
    Price price;
    const JsonReader amount = reader.field("amount"_L1);
    if (!amount.isMissing())
        price.amount = amount.nonNegativeDecimal();
    if (const auto tiers = reader.field("tiers"_L1).optArray()) {
        price.tiers = QList<Tier>();
        for (const JsonReader &tier : *tiers)
            price.tiers->append(Tier::read(tier, keys));
        // Bands must rise, and only the last may be open-ended.
        for (qsizetype i = 0; i < price.tiers->size() && reader.ok(); ++i) {
            const Tier &tier = price.tiers->at(i);
            const JsonReader to = tiers->at(i).field("to"_L1);
            if (!tier.to && i + 1 != price.tiers->size())
                to.fail(u"only the last tier may be \"inf\""_s);
            else if (i > 0 && tier.to && price.tiers->at(i - 1).to &&
                     *tier.to <= *price.tiers->at(i - 1).to)
                to.fail(u"tiers must be in increasing order of \"to\""_s);
        }
    }
    price.tierBehavior = reader.field(wireKey(keys, "tier_behavior"_L1, "tierBehavior"_L1))
                             .optWord(TierBehaviorWords);
    const JsonReader units = reader.field(wireKey(keys, "billing_units"_L1, "billingUnits"_L1));
    price.billingUnits = units.decimal();
    if (reader.ok() && price.billingUnits <= Decimal())
        units.fail(u"must be greater than 0"_s);
    price.billingMethod = reader.field(wireKey(keys, "billing_method"_L1, "billingMethod"_L1))
                              .word(BillingMethodWords);
    const JsonReader maxPurchase = reader.field(wireKey(keys, "max_purchase"_L1, "maxPurchase"_L1));
    if (!maxPurchase.isNull())
        price.maxPurchase = maxPurchase.nonNegativeDecimal();
    return price;
}

void Price::write(JsonWriter &writer, KeyCase keys) const
{
    writer.beginObject()
        .field(wireKey(keys, "billing_units"_L1, "billingUnits"_L1), billingUnits)
        .field(wireKey(keys, "billing_method"_L1, "billingMethod"_L1), toWire(billingMethod))
        .field(wireKey(keys, "max_purchase"_L1, "maxPurchase"_L1), maxPurchase);
    if (amount)
        writer.field("amount"_L1, *amount);
    if (tiers) {
        writer.key("tiers"_L1).beginArray();
        for (const Tier &tier : *tiers)
            tier.write(writer, keys);
        writer.endArray();
    }
    if (tierBehavior)
        writer.field(wireKey(keys, "tier_behavior"_L1, "tierBehavior"_L1), toWire(*tierBehavior));
    writer.endObject();
}

Rollover Rollover::read(const JsonReader &reader)
{
    reader.object();
    Rollover rollover;
    rollover.granted = reader.field("granted"_L1).nonNegativeDecimal();
    rollover.balance = reader.field("balance"_L1).decimal();
    rollover.expiresAt = reader.field("expires_at"_L1).integer();
    return rollover;
}

void Rollover::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("granted"_L1, granted)
        .field("balance"_L1, balance)
        .field("expires_at"_L1, expiresAt)
        .endObject();
}

BalanceRow BalanceRow::read(const JsonReader &reader)
{
    reader.object();
    BalanceRow row;
    row.id = reader.field("id"_L1).optString().value_or(QString());
    row.planId = reader.field("plan_id"_L1).nullableString();
    row.includedGrant = reader.field("included_grant"_L1).decimal();
    row.prepaidGrant = reader.field("prepaid_grant"_L1).decimal();
    row.remaining = reader.field("remaining"_L1).decimal();
    row.usage = reader.field("usage"_L1).decimal();
    row.unlimited = reader.field("unlimited"_L1).boolean();
    const JsonReader reset = reader.field("reset"_L1);
    if (!reset.isNull())
        row.reset = Reset::read(reset);
    const JsonReader price = reader.field("price"_L1);
    if (!price.isNull())
        row.price = Price::read(price);
    row.expiresAt = reader.field("expires_at"_L1).nullableInteger();
    row.featureId = reader.field("feature_id"_L1).string();
    row.status = readBalanceStatus(reader.field("status"_L1));
    row.rollovers = readList<Rollover>(reader.field("rollovers"_L1));
    row.customerId = reader.field("customer_id"_L1).string();
    row.entityId = reader.field("entity_id"_L1).nullableString();
    row.createdAt = reader.field("created_at"_L1).integer();
    return row;
}

void BalanceRow::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("id"_L1, id)
        .field("plan_id"_L1, planId)
        .field("included_grant"_L1, includedGrant)
        .field("prepaid_grant"_L1, prepaidGrant)
        .field("remaining"_L1, remaining)
        .field("usage"_L1, usage)
        .field("unlimited"_L1, unlimited);
    writer.key("reset"_L1);
    writeNullable(writer, reset);
    writer.key("price"_L1);
    writeNullable(writer, price);
    writer.field("expires_at"_L1, expiresAt)
        .field("feature_id"_L1, featureId)
        .field("status"_L1, toWire(status));
    writer.key("rollovers"_L1);
    writeList(writer, rollovers);
    writer.field("customer_id"_L1, customerId)
        .field("entity_id"_L1, entityId)
        .field("created_at"_L1, createdAt)
        .endObject();
}

} // namespace md::api
