// The product form's model: the form's fields as the admin typed them, the
// request they make (checked by the same decoder the server uses, so a
// problem names its wire path: items[0].tiers[1].to), the field-by-field
// changes for "Review changes", and the request that undoes a saved change.
#pragma once

#include "models/common/FieldChange.h"
#include "services/api/UpdateProduct.h"

#include <QCoreApplication>

namespace md::models {

struct ProductForm
{
    struct Item
    {
        QString featureId;
        QString included;   // empty: none
        QString interval;   // wire word; empty: one-off
        QString every;      // interval_count; empty: 1
        QString rollover;   // "500/2 month", "all/1 month"; empty: nothing carries over
        QString usageModel; // wire word; empty: none
        QString price;
        QString billingUnits;
        QString tiers; // "1000:0.5; inf:0.25+10" (+ a flat amount)
        bool resetUsageWhenEnabled = false;
        // The stored item this row was made from (its index in the product's
        // items), -1 for a new row: what the form does not show, and what
        // the user left as it was, is kept from it exactly.
        qsizetype original = -1;

        static Item from(const api::ProductItem &item, qsizetype index);
    };

    QString id;
    QString name;
    QString group; // empty: none
    bool isAddOn = false;
    bool isDefault = false;
    bool archived = false;
    qint64 version = 1;
    QList<Item> items;
    bool freeTrial = false;
    QString trialDuration = QStringLiteral("month");
    qint64 trialLength = 1;
    bool trialUniqueFingerprint = false;

    static ProductForm from(const api::Product &product);
};

class ProductEdit final
{
    Q_DECLARE_TR_FUNCTIONS(ProductEdit)

public:
    // What the form changes of `before`, as a request with only those fields;
    // an ApiError whose message names the wire path when the form is not valid.
    static api::Result<api::UpdateProductRequest> request(const api::Product &before,
                                                          const ProductForm &form);
    // Items are matched by their feature, and a changed one is said field
    // by field ("Item calls · tiers").
    static QList<FieldChange> changes(const api::Product &before,
                                      const api::UpdateProductRequest &request);
    // What Save will do to the versions, from the update's dry run
    // (`stored`): a version added because customers are on the one
    // changed, or the items changed in place; empty when items stay.
    static QString versionNote(const api::Product &before, const api::UpdateProductRequest &request,
                               const api::Product &stored);
    // Writes `before`'s values back over what a save made of them (`after`).
    static api::UpdateProductRequest undo(const api::Product &before, const api::Product &after);
    static QString describe(const api::ProductItem &item);
    static QString tiersText(const QList<api::Tier> &tiers);
    // "500/2 month": at most 500 carried (all: no maximum), kept 2 months.
    static QString rolloverText(const api::RolloverRule &rule);
};

} // namespace md::models
