#include "services/api/ListBalances.h"

#include "services/api/WireCodec.h"

namespace md::api {

using namespace Qt::StringLiterals;

namespace {
constexpr std::pair<QLatin1StringView, BalanceOrder> Orders[] = {
    {"customer"_L1, BalanceOrder::Customer},
    {"remaining"_L1, BalanceOrder::Remaining},
    {"usage"_L1, BalanceOrder::Usage},
    {"next_reset"_L1, BalanceOrder::NextReset},
};
constexpr std::pair<QLatin1StringView, bool> Directions[] = {{"asc"_L1, false}, {"desc"_L1, true}};
} // namespace

QLatin1StringView toWire(BalanceOrder order)
{
    for (const auto &[wire, value] : Orders)
        if (value == order)
            return wire;
    return Orders[0].first;
}

ListBalancesRequest ListBalancesRequest::read(const JsonReader &reader)
{
    reader.object();
    ListBalancesRequest request;
    request.customerId = reader.field("customer_id"_L1).optIdentifier();
    const JsonReader entity = reader.field("entity_id"_L1);
    request.entityId = entity.optIdentifier();
    if (request.entityId && !request.customerId)
        entity.fail(u"requires customer_id"_s);
    request.limit = reader.field("limit"_L1).optInteger(1, MaxLimit).value_or(DefaultLimit);
    request.startCursor = reader.field("start_cursor"_L1).optString().value_or(QString());
    if (const auto statuses = reader.field("statuses"_L1).optArray()) {
        if (statuses->isEmpty())
            reader.field("statuses"_L1)
                .fail(u"must hold at least one of \"active\", \"expired\""_s);
        request.statuses.clear();
        for (const JsonReader &status : *statuses) {
            const BalanceStatus s = readBalanceStatus(status);
            if (!request.statuses.contains(s))
                request.statuses.append(s);
        }
    }
    const JsonReader plan = reader.field("plan_id"_L1);
    if (plan.isNull())
        request.planId = std::optional<QString>();
    else if (!plan.isMissing())
        request.planId = plan.identifier();
    request.featureId = reader.field("feature_id"_L1).optIdentifier();
    request.resetsBefore = reader.field("resets_before"_L1).optInteger();
    request.remainingBelow = reader.field("remaining_below"_L1).optDecimal();
    request.remainingBelowPercent = reader.field("remaining_below_percent"_L1).optInteger(1, 100);
    request.orderBy = reader.field("order_by"_L1).optWord(Orders).value_or(BalanceOrder::Customer);
    request.descending = reader.field("order"_L1).optWord(Directions).value_or(false);
    return request;
}

bool ListBalancesRequest::amountsPass(const Decimal &remaining, const Decimal &included,
                                      const Decimal &prepaid, bool unlimited) const
{
    if (!filtersAmounts())
        return true;
    if (unlimited)
        return false;
    if (remainingBelow && !(remaining < *remainingBelow))
        return false;
    // remaining < p % of the grant, in nano-units: below 10^32 on both sides.
    return !remainingBelowPercent || remaining.raw() * 100 < Int128(*remainingBelowPercent) *
                                                                 (included.raw() + prepaid.raw());
}

void ListBalancesRequest::write(JsonWriter &writer) const
{
    writer.beginObject().field("limit"_L1, limit);
    if (!startCursor.isEmpty())
        writer.field("start_cursor"_L1, startCursor);
    writeFilter(writer);
    writer.endObject();
}

void ListBalancesRequest::writeFilter(JsonWriter &writer) const
{
    if (customerId)
        writer.field("customer_id"_L1, *customerId);
    if (entityId)
        writer.field("entity_id"_L1, *entityId);
    writer.key("statuses"_L1).beginArray();
    for (BalanceStatus status : statuses)
        writer.value(toWire(status));
    writer.endArray();
    if (planId)
        writer.field("plan_id"_L1, *planId);
    if (featureId)
        writer.field("feature_id"_L1, *featureId);
    if (resetsBefore)
        writer.field("resets_before"_L1, *resetsBefore);
    if (remainingBelow)
        writer.key("remaining_below"_L1).value(*remainingBelow);
    if (remainingBelowPercent)
        writer.field("remaining_below_percent"_L1, *remainingBelowPercent);
    if (orderBy != BalanceOrder::Customer)
        writer.field("order_by"_L1, toWire(orderBy));
    if (descending)
        writer.field("order"_L1, "desc"_L1);
}

ListBalancesResponse ListBalancesResponse::read(const JsonReader &reader)
{
    reader.object();
    ListBalancesResponse response;
    response.list = readList<BalanceRow>(reader.field("list"_L1));
    response.hasMore = reader.field("has_more"_L1).boolean();
    response.nextCursor = reader.field("next_cursor"_L1).nullableString();
    if (reader.ok() && response.hasMore != response.nextCursor.has_value())
        reader.field("next_cursor"_L1).fail(u"must be a string exactly when has_more is true"_s);
    return response;
}

void ListBalancesResponse::write(JsonWriter &writer) const
{
    writer.beginObject().key("list"_L1);
    writeList(writer, list);
    writer.field("has_more"_L1, hasMore).field("next_cursor"_L1, nextCursor).endObject();
}

} // namespace md::api
