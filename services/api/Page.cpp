#include "services/api/Page.h"

namespace md::api {

using namespace Qt::StringLiterals;

PageRequest PageRequest::read(const JsonReader &reader)
{
    reader.object();
    PageRequest request;
    const JsonReader search = reader.field("search"_L1);
    request.search = search.optString();
    if (request.search && request.search->size() > PageRequest::MaxSearch)
        search.fail(u"must be at most %1 characters, got %2"_s.arg(PageRequest::MaxSearch)
                        .arg(request.search->size()));
    request.customerId = reader.field("customer_id"_L1).optIdentifier();
    request.featureId = reader.field("feature_id"_L1).optIdentifier();
    request.modelId = reader.field("model_id"_L1).optString();
    request.from = reader.field("from"_L1).optInteger();
    request.to = reader.field("to"_L1).optInteger();
    request.limit = reader.field("limit"_L1).optInteger(1, 200).value_or(50);
    request.startCursor = reader.field("start_cursor"_L1).optString().value_or(QString());
    return request;
}

void PageRequest::write(JsonWriter &writer) const
{
    writer.beginObject().field("limit"_L1, limit);
    if (search)
        writer.field("search"_L1, *search);
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
    if (!startCursor.isEmpty())
        writer.field("start_cursor"_L1, startCursor);
    writer.endObject();
}

} // namespace md::api
