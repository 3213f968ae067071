#include "services/api/BalanceSummary.h"

#include "services/api/WireCodec.h"

namespace md::api {

namespace {

using namespace Qt::StringLiterals;

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
    KeyCase keyCase() const { return camel ? KeyCase::Camel : KeyCase::Snake; }
};
constexpr Keys Snake{false};
constexpr Keys Camel{true};

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
        row.reset = Reset::read(reset, k.keyCase());
    const JsonReader price = reader.field("price"_L1);
    if (!price.isNull())
        row.price = Price::read(price, k.keyCase());
    row.expiresAt = reader.field(k("expires_at"_L1, "expiresAt"_L1)).nullableInteger();
    return row;
}

QJsonObject rowJson(const BalanceBreakdownRow &row, Keys k)
{
    QJsonValue reset(QJsonValue::Null);
    if (row.reset)
        reset = row.reset->toJson(k.keyCase());
    QJsonValue price(QJsonValue::Null);
    if (row.price)
        price = row.price->toJson(k.keyCase());
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

bool BalanceSummary::add(const BalanceRow &row)
{
    const auto grant = row.includedGrant.plus(row.prepaidGrant);
    const auto total = grant ? granted.plus(*grant) : std::nullopt;
    const auto left = remaining.plus(row.remaining);
    const auto used = usage.plus(row.usage);
    if (!total || !left || !used)
        return false;
    granted = *total;
    remaining = *left;
    usage = *used;
    unlimited = unlimited || row.unlimited;
    if (row.reset && row.reset->resetsAt && (!nextResetAt || *row.reset->resetsAt < *nextResetAt))
        nextResetAt = row.reset->resetsAt;
    BalanceBreakdownRow part;
    part.id = row.id;
    part.planId = row.planId;
    part.includedGrant = row.includedGrant;
    part.prepaidGrant = row.prepaidGrant;
    part.remaining = row.remaining;
    part.usage = row.usage;
    part.unlimited = row.unlimited;
    part.reset = row.reset;
    part.price = row.price;
    part.expiresAt = row.expiresAt;
    breakdown.append(part);
    return true;
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
