// Products update request (docs/api.md, products update); the response is a Product.
// Every field is optional: nullopt keeps the stored value.
#pragma once

#include "services/api/Product.h"

namespace md::api {

struct UpdateProductRequest
{
    std::optional<QString> id;   // renames the product; not empty
    std::optional<QString> name; // free text (TextRule.h), as is the group
    std::optional<bool> isAddOn;
    std::optional<bool> isDefault;
    std::optional<qint64> version; // at least 1
    // Outer nullopt: keep; inner nullopt: JSON null, clear the group.
    std::optional<std::optional<QString>> group;
    std::optional<bool> archived;
    std::optional<QList<ProductItem>> items; // replaces the whole list
    // Outer nullopt: keep; inner nullopt: JSON null, remove the free trial.
    std::optional<std::optional<FreeTrial>> freeTrial;
    // Meterdesk's: answers the product as the update would store it, and
    // writes nothing (the console's review says so when Save adds a version).
    bool dryRun = false;

    static UpdateProductRequest read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const UpdateProductRequest &, const UpdateProductRequest &) = default;
};

} // namespace md::api
