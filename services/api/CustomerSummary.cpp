#include "services/api/CustomerSummary.h"

namespace md::api {

using namespace Qt::StringLiterals;

CustomerSummary CustomerSummary::read(const JsonReader &reader)
{
    reader.object();
    return {reader.field("id"_L1).string(), reader.field("name"_L1).string(),
            reader.field("email"_L1).string(), reader.field("created_at"_L1).integer()};
}

void CustomerSummary::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("id"_L1, id)
        .field("name"_L1, name)
        .field("email"_L1, email)
        .field("created_at"_L1, createdAt)
        .endObject();
}

} // namespace md::api
