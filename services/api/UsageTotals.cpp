#include "services/api/UsageTotals.h"

#include "services/api/WireCodec.h"

namespace md::api {

using namespace Qt::StringLiterals;

namespace {

constexpr std::pair<QLatin1StringView, UsageGroupBy> GroupWords[] = {
    {"feature"_L1, UsageGroupBy::Feature},
    {"customer"_L1, UsageGroupBy::Customer},
    {"model"_L1, UsageGroupBy::Model},
};

UsageFigures readFigures(const JsonReader &reader)
{
    UsageFigures figures;
    figures.events = reader.field("events"_L1).integer();
    figures.cost = reader.field("cost"_L1).sum();
    figures.units = reader.field("units"_L1).sum();
    figures.tokens = reader.field("tokens"_L1).integer();
    return figures;
}

void writeFigures(JsonWriter &writer, const UsageFigures &figures)
{
    writer.field("events"_L1, figures.events)
        .field("cost"_L1, figures.cost)
        .field("units"_L1, figures.units)
        .field("tokens"_L1, figures.tokens);
}

QDate readDay(const JsonReader &reader)
{
    const QString text = reader.string();
    const QDate day = QDate::fromString(text, Qt::ISODate);
    if (reader.ok() && (!day.isValid() || text.size() != 10))
        reader.fail(u"must be a date as YYYY-MM-DD, got \"%1\""_s.arg(text));
    return day;
}

QString dayText(QDate day)
{
    return day.toString(Qt::ISODate);
}

} // namespace

QLatin1StringView toWire(UsageGroupBy value)
{
    return wordOf(GroupWords, value);
}

UsageFigures &UsageFigures::operator+=(const UsageFigures &other)
{
    events += other.events;
    cost = cost.runningSum(other.cost);
    units = units.runningSum(other.units);
    tokens += other.tokens;
    return *this;
}

UsageTotalsRequest UsageTotalsRequest::read(const JsonReader &reader)
{
    reader.object();
    UsageTotalsRequest request;
    request.customerId = reader.field("customer_id"_L1).optIdentifier();
    request.featureId = reader.field("feature_id"_L1).optIdentifier();
    request.modelId = reader.field("model_id"_L1).optString();
    request.from = reader.field("from"_L1).optInteger();
    request.to = reader.field("to"_L1).optInteger();
    if (request.from && request.to && *request.to < *request.from)
        reader.field("to"_L1).fail(
            u"must not be before from (%1), got %2"_s.arg(*request.from).arg(*request.to));
    request.groupBy =
        reader.field("group_by"_L1).optWord(GroupWords).value_or(UsageGroupBy::Feature);
    request.top = reader.field("top"_L1).optInteger(1, MaxTop).value_or(DefaultTop);
    // The totals cover the whole filter: a page size or cursor would ask a
    // different question than the one answered.
    for (const auto key : {"limit"_L1, "start_cursor"_L1, "search"_L1})
        if (!reader.field(key).isMissing())
            reader.field(key).fail(
                u"is not taken by usage_events.totals, which adds up every event of the filter"_s);
    return request;
}

void UsageTotalsRequest::write(JsonWriter &writer) const
{
    writer.beginObject().field("group_by"_L1, toWire(groupBy)).field("top"_L1, top);
    if (customerId)
        writer.field("customer_id"_L1, *customerId);
    if (featureId)
        writer.field("feature_id"_L1, *featureId);
    if (modelId)
        writer.field("model_id"_L1, *modelId);
    if (from)
        writer.field("from"_L1, *from);
    if (to)
        writer.field("to"_L1, *to);
    writer.endObject();
}

UsageDay UsageDay::read(const JsonReader &reader)
{
    reader.object();
    UsageDay day;
    day.day = readDay(reader.field("day"_L1));
    day.figures = readFigures(reader);
    return day;
}

void UsageDay::write(JsonWriter &writer) const
{
    writer.beginObject().field("day"_L1, dayText(day));
    writeFigures(writer, figures);
    writer.endObject();
}

UsageGroup UsageGroup::read(const JsonReader &reader)
{
    reader.object();
    UsageGroup group;
    group.key = reader.field("key"_L1).nullableString();
    group.figures = readFigures(reader);
    group.days = readList<UsageDay>(reader.field("days"_L1));
    return group;
}

void UsageGroup::write(JsonWriter &writer) const
{
    writer.beginObject().field("key"_L1, key);
    writeFigures(writer, figures);
    writer.key("days"_L1);
    writeList(writer, days);
    writer.endObject();
}

UsageTotals UsageTotals::read(const JsonReader &reader)
{
    reader.object();
    UsageTotals totals;
    totals.groups = readList<UsageGroup>(reader.field("groups"_L1));
    const JsonReader other = reader.field("other"_L1);
    if (!other.isMissingOrNull()) {
        other.object();
        totals.otherGroups = other.field("groups"_L1).integer();
        UsageGroup rest;
        rest.figures = readFigures(other);
        rest.days = readList<UsageDay>(other.field("days"_L1));
        totals.other = std::move(rest);
    }
    const JsonReader total = reader.field("total"_L1);
    total.object();
    totals.total = readFigures(total);
    for (const JsonReader &day : reader.field("partial_days"_L1).array())
        totals.partialDays.append(readDay(day));
    return totals;
}

void UsageTotals::write(JsonWriter &writer) const
{
    writer.beginObject().key("groups"_L1);
    writeList(writer, groups);
    writer.key("other"_L1);
    if (other) {
        writer.beginObject().field("groups"_L1, otherGroups);
        writeFigures(writer, other->figures);
        writer.key("days"_L1);
        writeList(writer, other->days);
        writer.endObject();
    } else {
        writer.null();
    }
    writer.key("total"_L1).beginObject();
    writeFigures(writer, total);
    writer.endObject().key("partial_days"_L1).beginArray();
    for (const QDate day : partialDays)
        writer.value(dayText(day));
    writer.endArray().endObject();
}

} // namespace md::api
