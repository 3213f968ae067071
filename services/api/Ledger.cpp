#include "services/api/Ledger.h"

namespace md::api {

using namespace Qt::StringLiterals;

LedgerRequest LedgerRequest::read(const JsonReader &reader)
{
    reader.object();
    LedgerRequest request;
    request.customerId = reader.field("customer_id"_L1).identifier();
    request.featureId = reader.field("feature_id"_L1).optIdentifier();
    request.limit = reader.field("limit"_L1).optInteger(1, 200).value_or(50);
    request.startCursor = reader.field("start_cursor"_L1).optString().value_or(QString());
    return request;
}

void LedgerRequest::write(JsonWriter &writer) const
{
    writer.beginObject().field("customer_id"_L1, customerId).field("limit"_L1, limit);
    if (featureId)
        writer.field("feature_id"_L1, *featureId);
    if (!startCursor.isEmpty())
        writer.field("start_cursor"_L1, startCursor);
    writer.endObject();
}

LedgerEntry LedgerEntry::read(const JsonReader &reader)
{
    reader.object();
    LedgerEntry entry;
    entry.id = reader.field("id"_L1).string();
    entry.at = reader.field("at"_L1).integer();
    entry.kind = reader.field("kind"_L1).string();
    entry.customerId = reader.field("customer_id"_L1).string();
    entry.featureId = reader.field("feature_id"_L1).string();
    entry.balanceId = reader.field("balance_id"_L1).string();
    entry.amount = reader.field("amount"_L1).decimal();
    entry.balanceAfter = reader.field("balance_after"_L1).decimal();
    entry.usage = reader.field("usage"_L1).decimal();
    const JsonReader source = reader.field("source"_L1);
    source.object();
    entry.source.route = source.field("route"_L1).string();
    entry.source.keyId = source.field("key_id"_L1).nullableString();
    entry.source.eventId = source.field("event_id"_L1).nullableString();
    return entry;
}

void LedgerEntry::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("id"_L1, id)
        .field("at"_L1, at)
        .field("kind"_L1, kind)
        .field("customer_id"_L1, customerId)
        .field("feature_id"_L1, featureId)
        .field("balance_id"_L1, balanceId)
        .field("amount"_L1, amount)
        .field("balance_after"_L1, balanceAfter)
        .field("usage"_L1, usage)
        .key("source"_L1)
        .beginObject()
        .field("route"_L1, source.route)
        .field("key_id"_L1, source.keyId)
        .field("event_id"_L1, source.eventId)
        .endObject()
        .endObject();
}

} // namespace md::api
