#include "models/admin/ProductEdit.h"

#include "services/api/WireCodec.h"

namespace md::models {

using namespace Qt::StringLiterals;

namespace {

QString decimalText(const std::optional<api::Decimal> &value)
{
    return value ? value->toString() : QString();
}

using api::JsonValue;

JsonValue number(const QString &text)
{
    return JsonValue::numberOrString(text);
}

api::Result<JsonValue> tiersJson(const QString &text, qsizetype row)
{
    JsonValue tiers = JsonValue::array();
    const QStringList pairs = text.split(u';', Qt::SkipEmptyParts);
    for (const QString &pair : pairs) {
        const QStringList parts = pair.split(u':');
        if (parts.size() != 2)
            return api::ApiError::invalidInputs(
                u"items[%1].tiers"_s.arg(row),
                ProductEdit::tr("write up-to:amount pairs separated by \";\", the last up to "
                                "inf (1000:0.5; inf:0.25), a flat amount after + (inf:0.25+10)"));
        const QString to = parts.at(0).trimmed();
        const QStringList amounts = parts.at(1).split(u'+');
        JsonValue tier = JsonValue::object({{"to"_L1, to == "inf"_L1 ? JsonValue(to) : number(to)},
                                            {"amount"_L1, number(amounts.at(0))}});
        if (amounts.size() > 1)
            tier.insert(u"flat_amount"_s, number(amounts.mid(1).join(u'+')));
        tiers.append(tier);
    }
    return tiers;
}

// "500/2 month" or "all/1 month" as the item's rollover object; the
// decoder names a bad max, length or duration by its path.
api::Result<JsonValue> rolloverJson(const QString &text, qsizetype row)
{
    const QStringList parts = text.split(u'/');
    const QStringList life =
        parts.size() == 2 ? parts.at(1).simplified().split(u' ') : QStringList();
    if (life.size() != 2)
        return api::ApiError::invalidInputs(
            u"items[%1].rollover"_s.arg(row),
            ProductEdit::tr("write max/length interval: 500/2 month keeps at most 500 for two "
                            "months, all/1 month keeps everything for a month"));
    const QString max = parts.at(0).trimmed();
    return JsonValue::object({{"max"_L1, max == "all"_L1 ? JsonValue::null() : number(max)},
                              {"length"_L1, number(life.at(0))},
                              {"duration"_L1, life.at(1)}});
}

// The decoded row's values where the user changed the row's text, the stored
// item's everywhere else: a form saved as it was opened sends the items it
// was given, and a changed cell changes that field only.
api::ProductItem keptWhereUnchanged(const ProductForm::Item &row, const api::ProductItem &decoded,
                                    const api::ProductItem &stored)
{
    const ProductForm::Item shown = ProductForm::Item::from(stored, row.original);
    api::ProductItem item = decoded;
    if (row.featureId.trimmed() == stored.featureId) {
        item.featureId = stored.featureId;
        // Not on the form: they belong to the feature the row names.
        item.featureType = stored.featureType;
        item.entityFeatureId = stored.entityFeatureId;
    }
    // A field whose text is as the form showed it keeps its stored value.
    const auto keep = [](const auto &typed, const auto &was, auto &value, const auto &kept) {
        if (typed == was)
            value = kept;
    };
    keep(row.included, shown.included, item.includedUsage, stored.includedUsage);
    keep(row.interval, shown.interval, item.interval, stored.interval);
    keep(row.every, shown.every, item.intervalCount, stored.intervalCount);
    keep(row.rollover, shown.rollover, item.rollover, stored.rollover);
    keep(row.usageModel, shown.usageModel, item.usageModel, stored.usageModel);
    keep(row.price, shown.price, item.price, stored.price);
    keep(row.billingUnits, shown.billingUnits, item.billingUnits, stored.billingUnits);
    keep(row.tiers, shown.tiers, item.tiers, stored.tiers);
    keep(row.resetUsageWhenEnabled, shown.resetUsageWhenEnabled, item.resetUsageWhenEnabled,
         stored.resetUsageWhenEnabled);
    return item;
}

} // namespace

ProductForm ProductForm::from(const api::Product &product)
{
    ProductForm form;
    form.id = product.id;
    form.name = product.name;
    form.group = product.group.value_or(QString());
    form.isAddOn = product.isAddOn;
    form.isDefault = product.isDefault;
    form.archived = product.archived;
    form.version = product.version;
    for (qsizetype i = 0; i < product.items.size(); ++i)
        form.items.append(Item::from(product.items.at(i), i));
    form.freeTrial = product.freeTrial.has_value();
    if (product.freeTrial) {
        form.trialDuration = QString(api::toWire(product.freeTrial->duration));
        form.trialLength = product.freeTrial->length;
        form.trialUniqueFingerprint = product.freeTrial->uniqueFingerprint;
    }
    return form;
}

ProductForm::Item ProductForm::Item::from(const api::ProductItem &item, qsizetype index)
{
    return {item.featureId,
            decimalText(item.includedUsage),
            item.interval ? QString(api::toWire(*item.interval)) : QString(),
            item.intervalCount ? QString::number(*item.intervalCount) : QString(),
            item.rollover ? ProductEdit::rolloverText(*item.rollover) : QString(),
            item.usageModel ? QString(api::toWire(*item.usageModel)) : QString(),
            decimalText(item.price),
            decimalText(item.billingUnits),
            item.tiers ? ProductEdit::tiersText(*item.tiers) : QString(),
            item.resetUsageWhenEnabled.value_or(false),
            index};
}

QString ProductEdit::tiersText(const QList<api::Tier> &tiers)
{
    QStringList pairs;
    for (const api::Tier &tier : tiers)
        pairs.append(
            u"%1:%2%3"_s.arg(tier.to ? tier.to->toString() : u"inf"_s, tier.amount.toString(),
                             tier.flatAmount ? u"+"_s + tier.flatAmount->toString() : QString()));
    return pairs.join(u"; "_s);
}

QString ProductEdit::rolloverText(const api::RolloverRule &rule)
{
    return u"%1/%2 %3"_s.arg(rule.max ? rule.max->toString() : u"all"_s)
        .arg(rule.length)
        .arg(QString(api::toWire(rule.duration)));
}

api::Result<api::UpdateProductRequest> ProductEdit::request(const api::Product &before,
                                                            const ProductForm &form)
{
    if (form.name.trimmed().isEmpty())
        return api::ApiError::invalidInputs(u"name"_s, tr("give the product a name"));
    if (form.id.trimmed().isEmpty() || form.id.contains(u' ') || form.id.contains(u'/'))
        return api::ApiError::invalidInputs(u"id"_s, tr("an id has no spaces or slashes"));
    JsonValue items = JsonValue::array();
    for (qsizetype r = 0; r < form.items.size(); ++r) {
        const ProductForm::Item &item = form.items.at(r);
        JsonValue object = JsonValue::object(
            {{"feature_id"_L1, item.featureId.trimmed().isEmpty()
                                   ? JsonValue::null()
                                   : JsonValue(item.featureId.trimmed())},
             {"interval"_L1,
              item.interval.isEmpty() ? JsonValue::null() : JsonValue(item.interval)}});
        for (const auto &[key, text] :
             {std::pair{u"included_usage"_s, item.included}, std::pair{u"price"_s, item.price},
              std::pair{u"billing_units"_s, item.billingUnits}})
            if (!text.trimmed().isEmpty())
                object.insert(key, number(text));
        if (!item.every.trimmed().isEmpty())
            object.insert(u"interval_count"_s, number(item.every.trimmed()));
        if (!item.rollover.trimmed().isEmpty()) {
            auto rollover = rolloverJson(item.rollover, r);
            if (!rollover)
                return rollover.error();
            object.insert(u"rollover"_s, rollover.value());
        }
        if (!item.usageModel.isEmpty())
            object.insert(u"usage_model"_s, item.usageModel);
        if (item.resetUsageWhenEnabled)
            object.insert(u"reset_usage_when_enabled"_s, true);
        if (!item.tiers.trimmed().isEmpty()) {
            auto tiers = tiersJson(item.tiers, r);
            if (!tiers)
                return tiers.error();
            object.insert(u"tiers"_s, tiers.value());
        }
        items.append(object);
    }
    const JsonValue body = JsonValue::object(
        {{"id"_L1, form.id.trimmed()},
         {"name"_L1, form.name.trimmed()},
         {"group"_L1,
          form.group.trimmed().isEmpty() ? JsonValue::null() : JsonValue(form.group.trimmed())},
         {"is_add_on"_L1, form.isAddOn},
         {"is_default"_L1, form.isDefault},
         {"archived"_L1, form.archived},
         {"version"_L1, form.version},
         {"items"_L1, items},
         {"free_trial"_L1, form.freeTrial ? JsonValue::object({{"duration"_L1, form.trialDuration},
                                                               {"length"_L1, form.trialLength},
                                                               {"unique_fingerprint"_L1,
                                                                form.trialUniqueFingerprint}})
                                          : JsonValue::null()}});
    auto full = api::decode<api::UpdateProductRequest>(body);
    if (!full)
        return full.error();
    // Only what differs from the stored product is sent.
    api::UpdateProductRequest request;
    api::UpdateProductRequest f = full.value();
    for (qsizetype r = 0; r < form.items.size(); ++r)
        if (const qsizetype original = form.items.at(r).original;
            original >= 0 && original < before.items.size())
            (*f.items)[r] =
                keptWhereUnchanged(form.items.at(r), f.items->at(r), before.items.at(original));
    if (*f.id != before.id)
        request.id = f.id;
    if (*f.name != before.name)
        request.name = f.name;
    if (*f.group != before.group)
        request.group = f.group;
    if (*f.isAddOn != before.isAddOn)
        request.isAddOn = f.isAddOn;
    if (*f.isDefault != before.isDefault)
        request.isDefault = f.isDefault;
    if (*f.archived != before.archived)
        request.archived = f.archived;
    if (*f.version != before.version)
        request.version = f.version;
    if (*f.items != before.items)
        request.items = f.items;
    if (*f.freeTrial != before.freeTrial)
        request.freeTrial = f.freeTrial;
    return request;
}

api::UpdateProductRequest ProductEdit::undo(const api::Product &before, const api::Product &after)
{
    api::UpdateProductRequest request;
    if (after.id != before.id)
        request.id = before.id;
    if (after.name != before.name)
        request.name = before.name;
    if (after.group != before.group)
        request.group = before.group;
    if (after.isAddOn != before.isAddOn)
        request.isAddOn = before.isAddOn;
    if (after.isDefault != before.isDefault)
        request.isDefault = before.isDefault;
    if (after.archived != before.archived)
        request.archived = before.archived;
    // A renumbered version goes back to its number; a version the save added
    // cannot be taken away (ProductListModel::undoLast refuses that first).
    if (after.version != before.version)
        request.version = before.version;
    if (after.items != before.items)
        request.items = before.items;
    if (after.freeTrial != before.freeTrial)
        request.freeTrial = before.freeTrial;
    return request;
}

} // namespace md::models
