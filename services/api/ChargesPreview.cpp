#include "services/api/ChargesPreview.h"

#include "services/api/WireCodec.h"

namespace md::api {

using namespace Qt::StringLiterals;

namespace {

constexpr std::pair<QLatin1StringView, ChargeKind> KindWords[] = {
    {"fixed"_L1, ChargeKind::Fixed},
    {"usage"_L1, ChargeKind::Usage},
    {"prepaid"_L1, ChargeKind::Prepaid},
    {"credits"_L1, ChargeKind::Credits},
};

} // namespace

QLatin1StringView toWire(ChargeKind value)
{
    return wordOf(KindWords, value);
}

std::optional<ChargeKind> chargeKindFromWire(QStringView word)
{
    for (const auto &[wire, value] : KindWords)
        if (word == wire)
            return value;
    return std::nullopt;
}

ChargesPreviewRequest ChargesPreviewRequest::read(const JsonReader &reader)
{
    reader.object();
    ChargesPreviewRequest request;
    request.customerId = reader.field("customer_id"_L1).identifier();
    return request;
}

void ChargesPreviewRequest::write(JsonWriter &writer) const
{
    writer.beginObject().field("customer_id"_L1, customerId).endObject();
}

ChargeLine ChargeLine::read(const JsonReader &reader)
{
    reader.object();
    ChargeLine line;
    line.kind = reader.field("kind"_L1).word(KindWords);
    line.planId = reader.field("plan_id"_L1).nullableString();
    line.featureId = reader.field("feature_id"_L1).nullableString();
    line.entityId = reader.field("entity_id"_L1).nullableString();
    line.balanceId = reader.field("balance_id"_L1).nullableString();
    line.quantity = reader.field("quantity"_L1).decimal();
    line.billableUnits = reader.field("billable_units"_L1).nullableDecimal();
    line.amount = reader.field("amount"_L1).decimal();
    line.description = reader.field("description"_L1).string();
    return line;
}

void ChargeLine::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("kind"_L1, toWire(kind))
        .field("plan_id"_L1, planId)
        .field("feature_id"_L1, featureId)
        .field("entity_id"_L1, entityId)
        .field("balance_id"_L1, balanceId)
        .field("quantity"_L1, quantity)
        .field("billable_units"_L1, billableUnits)
        .field("amount"_L1, amount)
        .field("description"_L1, description)
        .endObject();
}

ChargesPreview ChargesPreview::read(const JsonReader &reader)
{
    reader.object();
    ChargesPreview preview;
    preview.customerId = reader.field("customer_id"_L1).string();
    preview.currency = reader.field("currency"_L1).string();
    preview.periodStart = reader.field("period_start"_L1).integer();
    preview.periodEnd = reader.field("period_end"_L1).integer();
    preview.lines = readList<ChargeLine>(reader.field("lines"_L1));
    preview.total = reader.field("total"_L1).sum();
    return preview;
}

void ChargesPreview::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("customer_id"_L1, customerId)
        .field("currency"_L1, currency)
        .field("period_start"_L1, periodStart)
        .field("period_end"_L1, periodEnd)
        .key("lines"_L1);
    writeList(writer, lines);
    writer.field("total"_L1, total).endObject();
}

} // namespace md::api
