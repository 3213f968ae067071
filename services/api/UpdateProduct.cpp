#include "services/api/UpdateProduct.h"

#include "services/api/WireCodec.h"

namespace md::api {

using namespace Qt::StringLiterals;

UpdateProductRequest UpdateProductRequest::read(const JsonReader &reader)
{
    reader.object();
    UpdateProductRequest request;
    request.id = reader.field("id"_L1).optIdentifier();
    request.name = reader.field("name"_L1).optString();
    request.isAddOn = reader.field("is_add_on"_L1).optBoolean();
    request.isDefault = reader.field("is_default"_L1).optBoolean();
    request.version = reader.field("version"_L1).optInteger(1);
    const JsonReader group = reader.field("group"_L1);
    if (group.isNull())
        request.group = std::optional<QString>();
    else if (!group.isMissing())
        request.group = group.string();
    request.archived = reader.field("archived"_L1).optBoolean();
    const JsonReader items = reader.field("items"_L1);
    if (!items.isMissing())
        request.items = readList<ProductItem>(items);
    const JsonReader freeTrial = reader.field("free_trial"_L1);
    if (!freeTrial.isMissing())
        request.freeTrial = readNullable<FreeTrial>(freeTrial);
    return request;
}

QJsonObject UpdateProductRequest::toJson() const
{
    QJsonObject object;
    if (id)
        object.insert(u"id"_s, *id);
    if (name)
        object.insert(u"name"_s, *name);
    if (isAddOn)
        object.insert(u"is_add_on"_s, *isAddOn);
    if (isDefault)
        object.insert(u"is_default"_s, *isDefault);
    if (version)
        object.insert(u"version"_s, *version);
    if (group)
        object.insert(u"group"_s, nullable(*group));
    if (archived)
        object.insert(u"archived"_s, *archived);
    if (items)
        object.insert(u"items"_s, toJsonArray(*items));
    if (freeTrial)
        object.insert(u"free_trial"_s, nullable(*freeTrial));
    return object;
}

} // namespace md::api
