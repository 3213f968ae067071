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

BalanceStatus readBalanceStatus(const JsonReader &reader)
{
    return reader.word(BalanceStatusWords);
}

Reset Reset::read(const JsonReader &reader, KeyCase keys)
{
    reader.object();
    Reset reset;
    reset.interval = readResetInterval(reader.field("interval"_L1));
    reset.intervalCount =
        reader.field(wireKey(keys, "interval_count"_L1, "intervalCount"_L1)).optInteger(1);
    reset.resetsAt = reader.field(wireKey(keys, "resets_at"_L1, "resetsAt"_L1)).nullableInteger();
    return reset;
}

QJsonObject Reset::toJson(KeyCase keys) const
{
    QJsonObject object{{u"interval"_s, QString(toWire(interval))},
                       {QString(wireKey(keys, "resets_at"_L1, "resetsAt"_L1)), nullable(resetsAt)}};
    if (intervalCount)
        object.insert(QString(wireKey(keys, "interval_count"_L1, "intervalCount"_L1)),
                      *intervalCount);
    return object;
}

Tier Tier::read(const JsonReader &reader, KeyCase keys)
{
    reader.object();
    Tier tier;
    const JsonReader to = reader.field("to"_L1);
    if (to.raw().isString()) {
        if (to.raw().toString() != "inf"_L1)
            to.fail(u"expected a number or \"inf\""_s);
    } else if (to.raw().isDouble()) {
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

QJsonObject Tier::toJson(KeyCase keys) const
{
    QJsonObject object{{u"to"_s, to ? to->toJson() : QJsonValue(u"inf"_s)},
                       {u"amount"_s, amount.toJson()}};
    if (flatAmount)
        object.insert(QString(wireKey(keys, "flat_amount"_L1, "flatAmount"_L1)),
                      flatAmount->toJson());
    return object;
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

QJsonObject Price::toJson(KeyCase keys) const
{
    QJsonObject object{
        {QString(wireKey(keys, "billing_units"_L1, "billingUnits"_L1)), billingUnits.toJson()},
        {QString(wireKey(keys, "billing_method"_L1, "billingMethod"_L1)),
         QString(toWire(billingMethod))},
        {QString(wireKey(keys, "max_purchase"_L1, "maxPurchase"_L1)), nullable(maxPurchase)}};
    if (amount)
        object.insert(u"amount"_s, amount->toJson());
    if (tiers) {
        QJsonArray array;
        for (const Tier &tier : *tiers)
            array.append(tier.toJson(keys));
        object.insert(u"tiers"_s, array);
    }
    if (tierBehavior)
        object.insert(QString(wireKey(keys, "tier_behavior"_L1, "tierBehavior"_L1)),
                      QString(toWire(*tierBehavior)));
    return object;
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

QJsonObject Rollover::toJson() const
{
    return {{u"granted"_s, granted.toJson()},
            {u"balance"_s, balance.toJson()},
            {u"expires_at"_s, expiresAt}};
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

QJsonObject BalanceRow::toJson() const
{
    return {{u"id"_s, id},
            {u"plan_id"_s, nullable(planId)},
            {u"included_grant"_s, includedGrant.toJson()},
            {u"prepaid_grant"_s, prepaidGrant.toJson()},
            {u"remaining"_s, remaining.toJson()},
            {u"usage"_s, usage.toJson()},
            {u"unlimited"_s, unlimited},
            {u"reset"_s, reset ? QJsonValue(reset->toJson()) : QJsonValue(QJsonValue::Null)},
            {u"price"_s, price ? QJsonValue(price->toJson()) : QJsonValue(QJsonValue::Null)},
            {u"expires_at"_s, nullable(expiresAt)},
            {u"feature_id"_s, featureId},
            {u"status"_s, QString(toWire(status))},
            {u"rollovers"_s, toJsonArray(rollovers)},
            {u"customer_id"_s, customerId},
            {u"entity_id"_s, nullable(entityId)},
            {u"created_at"_s, createdAt}};
}

} // namespace md::api
