#include "services/api/Statements.h"

#include "services/api/WireCodec.h"

namespace md::api {

using namespace Qt::StringLiterals;

namespace {

constexpr std::pair<QLatin1StringView, RevenueGroupBy> GroupWords[] = {
    {"month"_L1, RevenueGroupBy::Month},
    {"product"_L1, RevenueGroupBy::Product},
    {"feature"_L1, RevenueGroupBy::Feature},
    {"customer"_L1, RevenueGroupBy::Customer},
};

} // namespace

QLatin1StringView toWire(RevenueGroupBy value)
{
    return wordOf(GroupWords, value);
}

Statement Statement::read(const JsonReader &reader)
{
    reader.object();
    Statement statement;
    statement.id = reader.field("id"_L1).string();
    statement.customerId = reader.field("customer_id"_L1).string();
    statement.periodStart = reader.field("period_start"_L1).integer();
    statement.periodEnd = reader.field("period_end"_L1).integer();
    statement.currency = reader.field("currency"_L1).string();
    statement.lines = readList<ChargeLine>(reader.field("lines"_L1));
    statement.total = reader.field("total"_L1).sum();
    statement.closedAt = reader.field("closed_at"_L1).integer();
    return statement;
}

void Statement::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("id"_L1, id)
        .field("customer_id"_L1, customerId)
        .field("period_start"_L1, periodStart)
        .field("period_end"_L1, periodEnd)
        .field("currency"_L1, currency)
        .key("lines"_L1);
    writeList(writer, lines);
    writer.field("total"_L1, total).field("closed_at"_L1, closedAt).endObject();
}

StatementGetRequest StatementGetRequest::read(const JsonReader &reader)
{
    reader.object();
    StatementGetRequest request;
    request.id = reader.field("id"_L1).identifier();
    return request;
}

void StatementGetRequest::write(JsonWriter &writer) const
{
    writer.beginObject().field("id"_L1, id).endObject();
}

RevenueSummaryRequest RevenueSummaryRequest::read(const JsonReader &reader)
{
    reader.object();
    RevenueSummaryRequest request;
    request.from = reader.field("from"_L1).integer();
    request.to = reader.field("to"_L1).integer();
    if (reader.ok() && request.to <= request.from)
        reader.field("to"_L1).fail(
            u"must be after from (%1), got %2"_s.arg(request.from).arg(request.to));
    request.groupBy = reader.field("group_by"_L1).word(GroupWords);
    request.includeOpen = reader.field("include_open"_L1).optBoolean().value_or(false);
    request.openMaxAgeMs =
        reader.field("open_max_age_ms"_L1).optInteger(0, MaxOpenAgeMs).value_or(0);
    return request;
}

void RevenueSummaryRequest::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("from"_L1, from)
        .field("to"_L1, to)
        .field("group_by"_L1, toWire(groupBy))
        .field("include_open"_L1, includeOpen)
        .field("open_max_age_ms"_L1, openMaxAgeMs)
        .endObject();
}

RevenueGroup RevenueGroup::read(const JsonReader &reader)
{
    reader.object();
    RevenueGroup group;
    group.key = reader.field("key"_L1).string();
    group.fixed = reader.field("fixed"_L1).sum();
    group.usage = reader.field("usage"_L1).sum();
    group.prepaid = reader.field("prepaid"_L1).sum();
    group.credits = reader.field("credits"_L1).sum();
    group.total = reader.field("total"_L1).sum();
    return group;
}

void RevenueGroup::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("key"_L1, key)
        .field("fixed"_L1, fixed)
        .field("usage"_L1, usage)
        .field("prepaid"_L1, prepaid)
        .field("credits"_L1, credits)
        .field("total"_L1, total)
        .endObject();
}

RevenueSummary RevenueSummary::read(const JsonReader &reader)
{
    reader.object();
    RevenueSummary summary;
    summary.currency = reader.field("currency"_L1).string();
    summary.groups = readList<RevenueGroup>(reader.field("groups"_L1));
    summary.total = reader.field("total"_L1).sum();
    if (const JsonReader asOf = reader.field("open_as_of"_L1); !asOf.isMissing())
        summary.openAsOf = asOf.nullableInteger();
    return summary;
}

void RevenueSummary::write(JsonWriter &writer) const
{
    writer.beginObject().field("currency"_L1, currency).key("groups"_L1);
    writeList(writer, groups);
    writer.field("total"_L1, total).field("open_as_of"_L1, openAsOf).endObject();
}

} // namespace md::api
