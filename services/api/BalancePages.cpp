#include "services/api/BalancePages.h"

namespace md::api {

using namespace Qt::StringLiterals;

BalancePagesRequest BalancePagesRequest::read(const JsonReader &reader)
{
    BalancePagesRequest request;
    request.filter = ListBalancesRequest::read(reader);
    for (const auto key : {"limit"_L1, "start_cursor"_L1})
        if (!reader.field(key).isMissing())
            reader.field(key).fail(
                u"is not taken by balances.pages, which covers every row of the filter; give page_size"_s);
    request.pageSize = reader.field("page_size"_L1)
                           .optInteger(1, ListBalancesRequest::MaxLimit)
                           .value_or(ListBalancesRequest::MaxLimit);
    return request;
}

void BalancePagesRequest::write(JsonWriter &writer) const
{
    writer.beginObject().field("page_size"_L1, pageSize);
    filter.writeFilter(writer);
    writer.endObject();
}

BalancePages BalancePages::read(const JsonReader &reader)
{
    reader.object();
    BalancePages pages;
    pages.count = reader.field("count"_L1).integer();
    for (const JsonReader &cursor : reader.field("cursors"_L1).array())
        pages.cursors.append(cursor.string());
    return pages;
}

void BalancePages::write(JsonWriter &writer) const
{
    writer.beginObject().field("count"_L1, count).key("cursors"_L1).beginArray();
    for (const QString &cursor : cursors)
        writer.value(cursor);
    writer.endArray().endObject();
}

} // namespace md::api
