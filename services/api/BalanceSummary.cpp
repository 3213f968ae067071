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

void writeRow(JsonWriter &writer, const BalanceBreakdownRow &row, Keys k)
{
    writer.beginObject()
        .field("id"_L1, row.id)
        .field(k("plan_id"_L1, "planId"_L1), row.planId)
        .field(k("included_grant"_L1, "includedGrant"_L1), row.includedGrant)
        .field(k("prepaid_grant"_L1, "prepaidGrant"_L1), row.prepaidGrant)
        .field("remaining"_L1, row.remaining)
        .field("usage"_L1, row.usage)
        .field("unlimited"_L1, row.unlimited)
        .key("reset"_L1);
    if (row.reset)
        row.reset->write(writer, k.keyCase());
    else
        writer.null();
    writer.key("price"_L1);
    if (row.price)
        row.price->write(writer, k.keyCase());
    else
        writer.null();
    writer.field(k("expires_at"_L1, "expiresAt"_L1), row.expiresAt).endObject();
}

BalanceSummary readSummary(const JsonReader &reader, Keys k)
{
    reader.object();
    BalanceSummary summary;
    summary.featureId = reader.field(k("feature_id"_L1, "featureId"_L1)).string();
    summary.granted = reader.field("granted"_L1).sum();
    summary.remaining = reader.field("remaining"_L1).sum();
    summary.usage = reader.field("usage"_L1).sum();
    summary.unlimited = reader.field("unlimited"_L1).boolean();
    summary.overageAllowed = reader.field(k("overage_allowed"_L1, "overageAllowed"_L1)).boolean();
    // Required since the published client requires it; null when unlimited.
    const JsonReader maxPurchase = reader.field(k("max_purchase"_L1, "maxPurchase"_L1));
    if (!maxPurchase.isNull())
        summary.maxPurchase = maxPurchase.nonNegativeDecimal();
    summary.nextResetAt = reader.field(k("next_reset_at"_L1, "nextResetAt"_L1)).nullableInteger();
    for (const JsonReader &row : reader.field("breakdown"_L1).array())
        summary.breakdown.append(readRow(row, k));
    return summary;
}

void writeSummary(JsonWriter &writer, const BalanceSummary &summary, Keys k)
{
    writer.beginObject()
        .field(k("feature_id"_L1, "featureId"_L1), summary.featureId)
        .field("granted"_L1, summary.granted)
        .field("remaining"_L1, summary.remaining)
        .field("usage"_L1, summary.usage)
        .field("unlimited"_L1, summary.unlimited)
        .field(k("overage_allowed"_L1, "overageAllowed"_L1), summary.overageAllowed)
        .field(k("max_purchase"_L1, "maxPurchase"_L1), summary.maxPurchase)
        .field(k("next_reset_at"_L1, "nextResetAt"_L1), summary.nextResetAt)
        .key("breakdown"_L1)
        .beginArray();
    for (const BalanceBreakdownRow &row : summary.breakdown)
        writeRow(writer, row, k);
    writer.endArray().endObject();
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

void BalanceBreakdownRow::write(JsonWriter &writer) const
{
    writeRow(writer, *this, Snake);
}

void BalanceBreakdownRow::writeCamel(JsonWriter &writer) const
{
    writeRow(writer, *this, Camel);
}

bool BalanceSummary::add(const BalanceRow &row)
{
    // Sums, not amounts: two balances of 9 × 10^19 add up to more than an
    // amount holds, and the summary must still say so exactly.
    const auto grant = row.includedGrant.sum(row.prepaidGrant);
    const auto total = grant ? granted.sum(*grant) : std::nullopt;
    const auto left = remaining.sum(row.remaining);
    const auto used = usage.sum(row.usage);
    if (!total || !left || !used)
        return false;
    granted = *total;
    remaining = *left;
    usage = *used;
    unlimited = unlimited || row.unlimited;
    // Pay-per-use rows bill what goes past the grant: overage is allowed.
    overageAllowed =
        overageAllowed || (row.price && row.price->billingMethod == BillingMethod::UsageBased);
    if (row.price && row.price->maxPurchase &&
        (!maxPurchase || *maxPurchase < *row.price->maxPurchase))
        maxPurchase = row.price->maxPurchase;
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

void BalanceSummary::write(JsonWriter &writer) const
{
    writeSummary(writer, *this, Snake);
}

void BalanceSummary::writeCamel(JsonWriter &writer) const
{
    writeSummary(writer, *this, Camel);
}

} // namespace md::api
