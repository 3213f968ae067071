// The product review's half of ProductEdit: an item and a request in words,
// field by field, and what Save will do to the versions.
#include "models/admin/ProductEdit.h"

#include <QHash>

namespace md::models {

using namespace Qt::StringLiterals;

namespace {

QString yesNo(bool value)
{
    return value ? ProductEdit::tr("yes") : ProductEdit::tr("no");
}

QString trialText(const std::optional<api::FreeTrial> &trial)
{
    if (!trial)
        return ProductEdit::tr("none");
    return ProductEdit::tr("%1 × %2%3")
        .arg(trial->length)
        .arg(QString(api::toWire(trial->duration)),
             trial->uniqueFingerprint ? ProductEdit::tr(", once per fingerprint") : QString());
}

// An item's fields as the review shows them, in the form's order; a field
// not set says so, so that every difference shows.
QList<std::pair<QString, QString>> shownFields(const api::ProductItem &item)
{
    const QString none = ProductEdit::tr("none");
    const QString unset = ProductEdit::tr("not set");
    const QString fromFeature = ProductEdit::tr("from the feature");
    return {
        {ProductEdit::tr("feature type"),
         item.featureType ? QString(api::toWire(*item.featureType)) : fromFeature},
        {ProductEdit::tr("included usage"),
         item.includedUsage ? item.includedUsage->toString() : none},
        {ProductEdit::tr("interval"),
         item.interval ? QString(api::toWire(*item.interval)) : ProductEdit::tr("one-off")},
        {ProductEdit::tr("every"),
         item.intervalCount ? QString::number(*item.intervalCount) : unset},
        {ProductEdit::tr("rollover"),
         item.rollover ? ProductEdit::rolloverText(*item.rollover) : none},
        {ProductEdit::tr("usage model"),
         item.usageModel ? QString(api::toWire(*item.usageModel)) : fromFeature},
        {ProductEdit::tr("price"), item.price ? item.price->toString() : none},
        {ProductEdit::tr("billing units"),
         item.billingUnits ? item.billingUnits->toString() : unset},
        {ProductEdit::tr("tiers"), item.tiers ? ProductEdit::tiersText(*item.tiers) : none},
        {ProductEdit::tr("entity feature"), item.entityFeatureId.value_or(none)},
        {ProductEdit::tr("resets when enabled"),
         item.resetUsageWhenEnabled ? yesNo(*item.resetUsageWhenEnabled) : unset},
    };
}

// Items named by their feature, a second item of one feature "calls (2)".
using NamedItems = QList<std::pair<QString, const api::ProductItem *>>;
NamedItems named(const QList<api::ProductItem> &items)
{
    NamedItems out;
    QHash<QString, int> seen;
    for (const api::ProductItem &item : items) {
        // A fixed price has no feature to be named by.
        const QString name =
            item.featureId.isEmpty() ? ProductEdit::tr("fixed price") : item.featureId;
        const int n = ++seen[name];
        out.append({n == 1 ? name : u"%1 (%2)"_s.arg(name).arg(n), &item});
    }
    return out;
}

const api::ProductItem *itemNamed(const NamedItems &items, const QString &name)
{
    for (const auto &[key, item] : items)
        if (key == name)
            return item;
    return nullptr;
}

// Items matched by their feature, as the promotion diff matches them
// (docs/promotion.md): one added or removed is one row, one changed is a
// row per field it changes, and a new order is a row of its own.
void itemChanges(const QList<api::ProductItem> &before, const QList<api::ProductItem> &after,
                 QList<FieldChange> &changes)
{
    const NamedItems was = named(before);
    const NamedItems now = named(after);
    QStringList names;
    QStringList keptOrder;
    QStringList newOrder;
    for (const auto &[name, item] : was) {
        names.append(name);
        if (itemNamed(now, name))
            keptOrder.append(name);
    }
    for (const auto &[name, item] : now) {
        if (!itemNamed(was, name))
            names.append(name);
        else
            newOrder.append(name);
    }
    for (const QString &name : std::as_const(names)) {
        const api::ProductItem *old = itemNamed(was, name);
        const api::ProductItem *changed = itemNamed(now, name);
        const QString label = ProductEdit::tr("Item %1").arg(name);
        if (!changed) {
            changes.append({label, ProductEdit::describe(*old), ProductEdit::tr("removed")});
        } else if (!old) {
            changes.append({label, ProductEdit::tr("none"), ProductEdit::describe(*changed)});
        } else if (*old != *changed) {
            const auto fields = shownFields(*old);
            const auto changedFields = shownFields(*changed);
            for (qsizetype f = 0; f < fields.size(); ++f)
                if (fields.at(f).second != changedFields.at(f).second)
                    changes.append({ProductEdit::tr("%1 · %2").arg(label, fields.at(f).first),
                                    fields.at(f).second, changedFields.at(f).second});
        }
    }
    if (keptOrder != newOrder)
        changes.append(
            {ProductEdit::tr("Order of items"), keptOrder.join(u", "_s), newOrder.join(u", "_s)});
}

} // namespace

QString ProductEdit::describe(const api::ProductItem &item)
{
    QStringList parts{item.featureId.isEmpty() ? tr("fixed price") : item.featureId};
    if (item.includedUsage)
        parts.append(tr("%1 included").arg(item.includedUsage->toString()));
    parts.append(item.interval ? QString(api::toWire(*item.interval)) : tr("one-off"));
    if (item.intervalCount && *item.intervalCount != 1)
        parts.append(tr("every %1").arg(*item.intervalCount));
    if (item.rollover)
        parts.append(tr("rolls over %1").arg(rolloverText(*item.rollover)));
    if (item.usageModel)
        parts.append(QString(api::toWire(*item.usageModel)));
    if (item.price && item.featureId.isEmpty())
        parts.append(tr("%1 × quantity").arg(item.price->toString()));
    else if (item.price)
        parts.append(tr("%1 per %2")
                         .arg(item.price->toString(),
                              item.billingUnits.value_or(api::Decimal::fromInteger(1)).toString()));
    if (item.tiers)
        parts.append(tr("tiers %1").arg(tiersText(*item.tiers)));
    if (item.resetUsageWhenEnabled.value_or(false))
        parts.append(tr("resets when enabled"));
    return parts.join(u" · "_s);
}

QList<FieldChange> ProductEdit::changes(const api::Product &before,
                                        const api::UpdateProductRequest &request)
{
    QList<FieldChange> changes;
    if (request.id)
        changes.append({tr("Id"), before.id, *request.id});
    if (request.name)
        changes.append({tr("Name"), before.name, *request.name});
    if (request.group)
        changes.append(
            {tr("Group"), before.group.value_or(tr("none")), request.group->value_or(tr("none"))});
    if (request.isAddOn)
        changes.append({tr("Add-on"), yesNo(before.isAddOn), yesNo(*request.isAddOn)});
    if (request.isDefault)
        changes.append({tr("Default"), yesNo(before.isDefault), yesNo(*request.isDefault)});
    if (request.archived)
        changes.append({tr("Archived"), yesNo(before.archived), yesNo(*request.archived)});
    if (request.version)
        changes.append(
            {tr("Version"), QString::number(before.version), QString::number(*request.version)});
    if (request.items)
        itemChanges(before.items, *request.items, changes);
    if (request.freeTrial)
        changes.append(
            {tr("Free trial"), trialText(before.freeTrial), trialText(*request.freeTrial)});
    return changes;
}

QString ProductEdit::versionNote(const api::Product &before,
                                 const api::UpdateProductRequest &request,
                                 const api::Product &stored)
{
    // A version the update adds is made now; one changed in place keeps its created_at.
    if (stored.version != before.version && stored.createdAt != before.createdAt)
        return tr("Customers are on version %1 of %2, so Save makes version %3 with these items; "
                  "version %1 stays as it is for them.")
            .arg(before.version)
            .arg(stored.id)
            .arg(stored.version);
    if (request.items)
        return tr("No customer is on version %1 of %2, so Save changes its items in place.")
            .arg(before.version)
            .arg(stored.id);
    return {};
}

} // namespace md::models
