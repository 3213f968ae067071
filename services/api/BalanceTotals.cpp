#include "services/api/BalanceTotals.h"

#include "services/api/WireCodec.h"

namespace md::api {

using namespace Qt::StringLiterals;

namespace {

constexpr std::pair<QLatin1StringView, TotalsGroupBy> GroupWords[] = {
    {"feature"_L1, TotalsGroupBy::Feature},
    {"plan"_L1, TotalsGroupBy::Plan},
    {"customer"_L1, TotalsGroupBy::Customer},
    {"reset_month"_L1, TotalsGroupBy::ResetMonth},
};

TotalsFigures readFigures(const JsonReader &reader)
{
    TotalsFigures figures;
    figures.balances = reader.field("balances"_L1).integer();
    figures.customers = reader.field("customers"_L1).integer();
    figures.granted = reader.field("granted"_L1).sum();
    figures.remaining = reader.field("remaining"_L1).sum();
    figures.usage = reader.field("usage"_L1).sum();
    return figures;
}

void writeFigures(JsonWriter &writer, const TotalsFigures &figures)
{
    writer.field("balances"_L1, figures.balances)
        .field("customers"_L1, figures.customers)
        .field("granted"_L1, figures.granted)
        .field("remaining"_L1, figures.remaining)
        .field("usage"_L1, figures.usage);
}

} // namespace

QLatin1StringView toWire(TotalsGroupBy value)
{
    return wordOf(GroupWords, value);
}

BalanceTotalsRequest BalanceTotalsRequest::read(const JsonReader &reader)
{
    BalanceTotalsRequest request;
    request.filter = ListBalancesRequest::read(reader);
    // Totals cover the whole filter: a page size or cursor would mean a
    // different question than the one answered.
    for (const auto key : {"limit"_L1, "start_cursor"_L1})
        if (!reader.field(key).isMissing())
            reader.field(key).fail(
                u"is not taken by balances.totals, which adds up every row of the filter"_s);
    request.groupBy =
        reader.field("group_by"_L1).optWord(GroupWords).value_or(TotalsGroupBy::Feature);
    return request;
}

void BalanceTotalsRequest::write(JsonWriter &writer) const
{
    writer.beginObject().field("group_by"_L1, toWire(groupBy));
    filter.writeFilter(writer);
    writer.endObject();
}

TotalsGroup TotalsGroup::read(const JsonReader &reader)
{
    reader.object();
    TotalsGroup group;
    group.key = reader.field("key"_L1).nullableString();
    group.figures = readFigures(reader);
    return group;
}

void TotalsGroup::write(JsonWriter &writer) const
{
    writer.beginObject().field("key"_L1, key);
    writeFigures(writer, figures);
    writer.endObject();
}

BalanceTotals BalanceTotals::read(const JsonReader &reader)
{
    reader.object();
    BalanceTotals totals;
    totals.groups = readList<TotalsGroup>(reader.field("groups"_L1));
    const JsonReader total = reader.field("total"_L1);
    total.object();
    totals.total = readFigures(total);
    return totals;
}

void BalanceTotals::write(JsonWriter &writer) const
{
    writer.beginObject().key("groups"_L1);
    writeList(writer, groups);
    writer.key("total"_L1).beginObject();
    writeFigures(writer, total);
    writer.endObject().endObject();
}

} // namespace md::api
