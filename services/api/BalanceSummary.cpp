#include "services/api/BalanceSummary.h"

#include "services/api/WireCodec.h"

namespace md::api {

namespace {

using namespace Qt::StringLiterals;

// The same words as the snake_case price of Balance.cpp; only the keys differ here.
constexpr std::pair<QLatin1StringView, TierBehavior> TierBehaviorWords[] = {
    {"graduated"_L1, TierBehavior::Graduated},
    {"volume"_L1, TierBehavior::Volume},
};
constexpr std::pair<QLatin1StringView, BillingMethod> BillingMethodWords[] = {
    {"prepaid"_L1, BillingMethod::Prepaid},
    {"usage_based"_L1, BillingMethod::UsageBased},
};

// Picks the snake_case or the camelCase spelling of a key.
struct Keys
{
    bool camel = false;
    QLatin1StringView operator()(QLatin1StringView snake, QLatin1StringView camelCase) const
    {
        return camel ? camelCase : snake;
    }
    QString operator()(const char16_t *snake, const char16_t *camelCase) const
    {
        return QString::fromUtf16(camel ? camelCase : snake);
    }
};
constexpr Keys Snake{false};
constexpr Keys Camel{true};

// camelCase reset: interval, intervalCount?, resetsAt (the rules of Reset::read).
Reset readCamelReset(const JsonReader &reader)
{
    reader.object();
    Reset reset;
    reset.interval = readResetInterval(reader.field("interval"_L1));
    reset.intervalCount = reader.field("intervalCount"_L1).optInteger(1);
    reset.resetsAt = reader.field("resetsAt"_L1).nullableInteger();
    return reset;
}

QJsonObject camelResetJson(const Reset &reset)
{
    QJsonObject object{{u"interval"_s, QString(toWire(reset.interval))},
                       {u"resetsAt"_s, nullable(reset.resetsAt)}};
    if (reset.intervalCount)
        object.insert(u"intervalCount"_s, *reset.intervalCount);
    return object;
}

// camelCase tier: to, amount, flatAmount (the rules of Tier::read).
Tier readCamelTier(const JsonReader &reader)
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
    const JsonReader flat = reader.field("flatAmount"_L1);
    if (!flat.isMissing())
        tier.flatAmount = flat.nonNegativeDecimal();
    return tier;
}

QJsonObject camelTierJson(const Tier &tier)
{
    QJsonObject object{{u"to"_s, tier.to ? tier.to->toJson() : QJsonValue(u"inf"_s)},
                       {u"amount"_s, tier.amount.toJson()}};
    if (tier.flatAmount)
        object.insert(u"flatAmount"_s, tier.flatAmount->toJson());
    return object;
}

// camelCase price: amount, tiers, tierBehavior, billingUnits, billingMethod, maxPurchase
// (the rules of Price::read).
Price readCamelPrice(const JsonReader &reader)
{
    reader.object();
    Price price;
    const JsonReader amount = reader.field("amount"_L1);
    if (!amount.isMissing())
        price.amount = amount.nonNegativeDecimal();
    if (const auto tiers = reader.field("tiers"_L1).optArray()) {
        price.tiers = QList<Tier>();
        for (const JsonReader &tier : *tiers)
            price.tiers->append(readCamelTier(tier));
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
    price.tierBehavior = reader.field("tierBehavior"_L1).optWord(TierBehaviorWords);
    const JsonReader units = reader.field("billingUnits"_L1);
    price.billingUnits = units.decimal();
    if (reader.ok() && price.billingUnits <= Decimal())
        units.fail(u"must be greater than 0"_s);
    price.billingMethod = reader.field("billingMethod"_L1).word(BillingMethodWords);
    const JsonReader maxPurchase = reader.field("maxPurchase"_L1);
    if (!maxPurchase.isNull())
        price.maxPurchase = maxPurchase.nonNegativeDecimal();
    return price;
}

QJsonObject camelPriceJson(const Price &price)
{
    QJsonObject object{{u"billingUnits"_s, price.billingUnits.toJson()},
                       {u"billingMethod"_s, QString(toWire(price.billingMethod))},
                       {u"maxPurchase"_s, nullable(price.maxPurchase)}};
    if (price.amount)
        object.insert(u"amount"_s, price.amount->toJson());
    if (price.tiers) {
        QJsonArray tiers;
        for (const Tier &tier : *price.tiers)
            tiers.append(camelTierJson(tier));
        object.insert(u"tiers"_s, tiers);
    }
    if (price.tierBehavior)
        object.insert(u"tierBehavior"_s, QString(toWire(*price.tierBehavior)));
    return object;
}

BalanceBreakdownRow readRow(const JsonReader &reader, Keys k)
{
    reader.object();
    BalanceBreakdownRow row;
    row.id = reader.field("id"_L1).optString().value_or(QString());
    row.planId = reader.field(k("plan_id"_L1, "planId"_L1)).nullableString();
    row.includedGrant = reader.field(k("included_grant"_L1, "includedGrant"_L1)).decimal();
    row.prepaidGrant = reader.field(k("prepaid_grant"_L1, "prepaidGrant"_L1)).decimal();
    row.remaining = reader.field("remaining"_L1).decimal();
    row.usage = reader.field("usage"_L1).decimal();
    row.unlimited = reader.field("unlimited"_L1).boolean();
    const JsonReader reset = reader.field("reset"_L1);
    if (!reset.isNull())
        row.reset = k.camel ? readCamelReset(reset) : Reset::read(reset);
    const JsonReader price = reader.field("price"_L1);
    if (!price.isNull())
        row.price = k.camel ? readCamelPrice(price) : Price::read(price);
    row.expiresAt = reader.field(k("expires_at"_L1, "expiresAt"_L1)).nullableInteger();
    return row;
}

QJsonObject rowJson(const BalanceBreakdownRow &row, Keys k)
{
    QJsonValue reset(QJsonValue::Null);
    if (row.reset)
        reset = k.camel ? camelResetJson(*row.reset) : row.reset->toJson();
    QJsonValue price(QJsonValue::Null);
    if (row.price)
        price = k.camel ? camelPriceJson(*row.price) : row.price->toJson();
    return {{u"id"_s, row.id},
            {k(u"plan_id", u"planId"), nullable(row.planId)},
            {k(u"included_grant", u"includedGrant"), row.includedGrant.toJson()},
            {k(u"prepaid_grant", u"prepaidGrant"), row.prepaidGrant.toJson()},
            {u"remaining"_s, row.remaining.toJson()},
            {u"usage"_s, row.usage.toJson()},
            {u"unlimited"_s, row.unlimited},
            {u"reset"_s, reset},
            {u"price"_s, price},
            {k(u"expires_at", u"expiresAt"), nullable(row.expiresAt)}};
}

BalanceSummary readSummary(const JsonReader &reader, Keys k)
{
    reader.object();
    BalanceSummary summary;
    summary.featureId = reader.field(k("feature_id"_L1, "featureId"_L1)).string();
    summary.granted = reader.field("granted"_L1).decimal();
    summary.remaining = reader.field("remaining"_L1).decimal();
    summary.usage = reader.field("usage"_L1).decimal();
    summary.unlimited = reader.field("unlimited"_L1).boolean();
    summary.overageAllowed = reader.field(k("overage_allowed"_L1, "overageAllowed"_L1)).boolean();
    const JsonReader maxPurchase = reader.field(k("max_purchase"_L1, "maxPurchase"_L1));
    if (maxPurchase.isNull())
        summary.maxPurchase = std::optional<Decimal>();
    else if (!maxPurchase.isMissing())
        summary.maxPurchase = maxPurchase.nonNegativeDecimal();
    summary.nextResetAt = reader.field(k("next_reset_at"_L1, "nextResetAt"_L1)).nullableInteger();
    for (const JsonReader &row : reader.field("breakdown"_L1).array())
        summary.breakdown.append(readRow(row, k));
    return summary;
}

QJsonObject summaryJson(const BalanceSummary &summary, Keys k)
{
    QJsonArray breakdown;
    for (const BalanceBreakdownRow &row : summary.breakdown)
        breakdown.append(rowJson(row, k));
    QJsonObject object{{k(u"feature_id", u"featureId"), summary.featureId},
                       {u"granted"_s, summary.granted.toJson()},
                       {u"remaining"_s, summary.remaining.toJson()},
                       {u"usage"_s, summary.usage.toJson()},
                       {u"unlimited"_s, summary.unlimited},
                       {k(u"overage_allowed", u"overageAllowed"), summary.overageAllowed},
                       {k(u"next_reset_at", u"nextResetAt"), nullable(summary.nextResetAt)},
                       {u"breakdown"_s, breakdown}};
    if (summary.maxPurchase)
        object.insert(k(u"max_purchase", u"maxPurchase"), nullable(*summary.maxPurchase));
    return object;
}

} // namespace

BalanceBreakdownRow BalanceBreakdownRow::read(const JsonReader &reader)
{
    return readRow(reader, Snake);
}

BalanceBreakdownRow BalanceBreakdownRow::readCamel(const JsonReader &reader)
{
    return readRow(reader, Camel);
}

QJsonObject BalanceBreakdownRow::toJson() const
{
    return rowJson(*this, Snake);
}

QJsonObject BalanceBreakdownRow::toCamelJson() const
{
    return rowJson(*this, Camel);
}

BalanceSummary BalanceSummary::read(const JsonReader &reader)
{
    return readSummary(reader, Snake);
}

BalanceSummary BalanceSummary::readCamel(const JsonReader &reader)
{
    return readSummary(reader, Camel);
}

QJsonObject BalanceSummary::toJson() const
{
    return summaryJson(*this, Snake);
}

QJsonObject BalanceSummary::toCamelJson() const
{
    return summaryJson(*this, Camel);
}

} // namespace md::api
