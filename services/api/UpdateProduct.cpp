#include "services/api/UpdateProduct.h"

#include "services/api/TextRule.h"
#include "services/api/WireCodec.h"

namespace md::api {

using namespace Qt::StringLiterals;

UpdateProductRequest UpdateProductRequest::read(const JsonReader &reader)
{
    reader.object();
    UpdateProductRequest request;
    request.id = reader.field("id"_L1).optIdentifier();
    request.name = reader.field("name"_L1).optFreeText(MaxNameLength);
    request.isAddOn = reader.field("is_add_on"_L1).optBoolean();
    request.isDefault = reader.field("is_default"_L1).optBoolean();
    request.version = reader.field("version"_L1).optInteger(1);
    const JsonReader group = reader.field("group"_L1);
    if (group.isNull())
        request.group = std::optional<QString>();
    else if (!group.isMissing())
        request.group = group.freeText(MaxNameLength);
    request.archived = reader.field("archived"_L1).optBoolean();
    const JsonReader items = reader.field("items"_L1);
    if (!items.isMissing()) {
        request.items = QList<ProductItem>();
        for (const JsonReader &item : items.array())
            request.items->append(ProductItem::readGiven(item));
    }
    const JsonReader freeTrial = reader.field("free_trial"_L1);
    if (!freeTrial.isMissing())
        request.freeTrial = readNullable<FreeTrial>(freeTrial);
    request.dryRun = reader.field("dry_run"_L1).optBoolean().value_or(false);
    return request;
}

void UpdateProductRequest::write(JsonWriter &writer) const
{
    writer.beginObject();
    if (id)
        writer.field("id"_L1, *id);
    if (name)
        writer.field("name"_L1, *name);
    if (isAddOn)
        writer.field("is_add_on"_L1, *isAddOn);
    if (isDefault)
        writer.field("is_default"_L1, *isDefault);
    if (version)
        writer.field("version"_L1, *version);
    if (group)
        writer.field("group"_L1, *group);
    if (archived)
        writer.field("archived"_L1, *archived);
    if (items) {
        writer.key("items"_L1);
        writeList(writer, *items);
    }
    if (freeTrial) {
        writer.key("free_trial"_L1);
        writeNullable(writer, *freeTrial);
    }
    if (dryRun)
        writer.field("dry_run"_L1, true);
    writer.endObject();
}

} // namespace md::api
