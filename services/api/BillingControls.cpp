#include "services/api/BillingControls.h"

#include "services/api/TextRule.h"

#include <QSet>

namespace md::api {

namespace {

using namespace Qt::StringLiterals;

constexpr std::pair<QLatin1StringView, SpendLimitType> SpendLimitTypeWords[] = {
    {"absolute"_L1, SpendLimitType::Absolute},
    {"usage_percentage"_L1, SpendLimitType::UsagePercentage},
};
constexpr std::pair<QLatin1StringView, LimitInterval> LimitIntervalWords[] = {
    {"day"_L1, LimitInterval::Day},
    {"week"_L1, LimitInterval::Week},
    {"month"_L1, LimitInterval::Month},
    {"year"_L1, LimitInterval::Year},
};
constexpr std::pair<QLatin1StringView, LimitAnchor> LimitAnchorWords[] = {
    {"billing_cycle"_L1, LimitAnchor::BillingCycle},
    {"utc"_L1, LimitAnchor::Utc},
};
constexpr std::pair<QLatin1StringView, ThresholdType> ThresholdTypeWords[] = {
    {"usage"_L1, ThresholdType::Usage},
    {"usage_percentage"_L1, ThresholdType::UsagePercentage},
    {"remaining"_L1, ThresholdType::Remaining},
    {"remaining_percentage"_L1, ThresholdType::RemainingPercentage},
};

bool readEnabled(const JsonReader &reader)
{
    return reader.field("enabled"_L1).optBoolean().value_or(true);
}

// The published service can limit usage to events with given properties;
// Meterdesk counts all usage of a feature, so a filter is refused, not ignored.
void refuseFilter(const JsonReader &reader)
{
    const JsonReader filter = reader.field("filter"_L1);
    if (!filter.isMissing())
        filter.fail(
            u"is not supported by Meterdesk: limits and alerts count all usage of the feature"_s);
}

template <typename T> QList<T> readOptionalList(const JsonReader &reader)
{
    return reader.isMissing() ? QList<T>() : readList<T>(reader);
}

template <typename T, typename Key>
void refuseRepeats(const JsonReader &list, const QList<T> &items, Key key, const QString &what)
{
    QSet<QString> seen;
    const QList<JsonReader> readers = list.isMissing() ? QList<JsonReader>() : list.array();
    for (qsizetype i = 0; i < items.size() && list.ok(); ++i) {
        const QString k = key(items.at(i));
        if (seen.contains(k))
            readers.at(i).fail(u"a second %1; give each one entry"_s.arg(what));
        seen.insert(k);
    }
}

} // namespace

QLatin1StringView toWire(SpendLimitType value)
{
    return wordOf(SpendLimitTypeWords, value);
}
QLatin1StringView toWire(LimitInterval value)
{
    return wordOf(LimitIntervalWords, value);
}
QLatin1StringView toWire(LimitAnchor value)
{
    return wordOf(LimitAnchorWords, value);
}
QLatin1StringView toWire(ThresholdType value)
{
    return wordOf(ThresholdTypeWords, value);
}

std::optional<ThresholdType> thresholdTypeFromWire(QStringView word)
{
    for (const auto &[wire, value] : ThresholdTypeWords)
        if (word == wire)
            return value;
    return std::nullopt;
}

OverageAllowed OverageAllowed::read(const JsonReader &reader)
{
    reader.object();
    return {reader.field("featureId"_L1).identifier(), readEnabled(reader)};
}

void OverageAllowed::write(JsonWriter &writer) const
{
    writer.beginObject().field("featureId"_L1, featureId).field("enabled"_L1, enabled).endObject();
}

SpendLimit SpendLimit::read(const JsonReader &reader)
{
    reader.object();
    SpendLimit limit;
    limit.featureId = reader.field("featureId"_L1).optIdentifier();
    limit.enabled = readEnabled(reader);
    limit.limitType = reader.field("limitType"_L1)
                          .optWord(SpendLimitTypeWords)
                          .value_or(SpendLimitType::Absolute);
    limit.overageLimit = reader.field("overageLimit"_L1).nonNegativeDecimal();
    return limit;
}

void SpendLimit::write(JsonWriter &writer) const
{
    writer.beginObject();
    if (featureId)
        writer.field("featureId"_L1, *featureId);
    writer.field("enabled"_L1, enabled)
        .field("limitType"_L1, toWire(limitType))
        .field("overageLimit"_L1, overageLimit)
        .endObject();
}

UsageLimit UsageLimit::read(const JsonReader &reader)
{
    reader.object();
    UsageLimit limit;
    limit.featureId = reader.field("featureId"_L1).identifier();
    limit.enabled = readEnabled(reader);
    limit.limit = reader.field("limit"_L1).nonNegativeDecimal();
    limit.interval = reader.field("interval"_L1).word(LimitIntervalWords);
    limit.anchor =
        reader.field("anchor"_L1).optWord(LimitAnchorWords).value_or(LimitAnchor::BillingCycle);
    limit.usage = reader.field("usage"_L1).optDecimal();
    refuseFilter(reader);
    return limit;
}

void UsageLimit::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("featureId"_L1, featureId)
        .field("enabled"_L1, enabled)
        .field("limit"_L1, limit)
        .field("interval"_L1, toWire(interval))
        .field("anchor"_L1, toWire(anchor));
    if (usage)
        writer.field("usage"_L1, *usage);
    writer.endObject();
}

UsageAlert UsageAlert::read(const JsonReader &reader)
{
    reader.object();
    UsageAlert alert;
    alert.featureId = reader.field("featureId"_L1).optIdentifier();
    alert.enabled = readEnabled(reader);
    const JsonReader threshold = reader.field("threshold"_L1);
    alert.threshold = threshold.nonNegativeDecimal();
    alert.thresholdType = reader.field("thresholdType"_L1).word(ThresholdTypeWords);
    if (reader.ok() && alert.thresholdType == ThresholdType::RemainingPercentage &&
        alert.threshold > Decimal::fromInteger(100))
        threshold.fail(u"a remaining_percentage threshold is a percentage from 0 to 100"_s);
    const JsonReader basis = reader.field("basis"_L1);
    if (const auto word = basis.optString(); word && *word != "balance"_L1 && reader.ok())
        basis.fail(
            u"\"%1\" is not supported by Meterdesk; use \"balance\" (every grant of the feature is 100 %)"_s
                .arg(*word));
    alert.name = reader.field("name"_L1).optString();
    refuseFilter(reader);
    return alert;
}

void UsageAlert::write(JsonWriter &writer) const
{
    writer.beginObject();
    if (featureId)
        writer.field("featureId"_L1, *featureId);
    writer.field("enabled"_L1, enabled)
        .field("threshold"_L1, threshold)
        .field("thresholdType"_L1, toWire(thresholdType))
        .field("basis"_L1, "balance"_L1);
    if (name)
        writer.field("name"_L1, *name);
    writer.endObject();
}

std::optional<bool> BillingControls::overageAllowedFor(const QString &featureId) const
{
    for (const OverageAllowed &entry : overageAllowed)
        if (entry.featureId == featureId)
            return entry.enabled;
    return std::nullopt;
}

QList<SpendLimit> BillingControls::spendLimitsFor(const QString &featureId) const
{
    QList<SpendLimit> found;
    for (const SpendLimit &limit : spendLimits)
        if (limit.enabled && (!limit.featureId || *limit.featureId == featureId))
            found.append(limit);
    return found;
}

QList<UsageLimit> BillingControls::usageLimitsFor(const QString &featureId) const
{
    QList<UsageLimit> found;
    for (const UsageLimit &limit : usageLimits)
        if (limit.enabled && limit.featureId == featureId)
            found.append(limit);
    return found;
}

QList<UsageAlert> BillingControls::usageAlertsFor(const QString &featureId) const
{
    QList<UsageAlert> found;
    for (const UsageAlert &alert : usageAlerts)
        if (alert.enabled && (!alert.featureId || *alert.featureId == featureId))
            found.append(alert);
    return found;
}

QList<std::pair<QString, QString>> BillingControls::namedFeatures() const
{
    QList<std::pair<QString, QString>> named;
    for (qsizetype i = 0; i < spendLimits.size(); ++i)
        if (const auto &id = spendLimits.at(i).featureId)
            named.append({u"spendLimits[%1]"_s.arg(i), *id});
    for (qsizetype i = 0; i < usageLimits.size(); ++i)
        named.append({u"usageLimits[%1]"_s.arg(i), usageLimits.at(i).featureId});
    for (qsizetype i = 0; i < usageAlerts.size(); ++i)
        if (const auto &id = usageAlerts.at(i).featureId)
            named.append({u"usageAlerts[%1]"_s.arg(i), *id});
    for (qsizetype i = 0; i < overageAllowed.size(); ++i)
        named.append({u"overageAllowed[%1]"_s.arg(i), overageAllowed.at(i).featureId});
    return named;
}

BillingControls BillingControls::read(const JsonReader &reader)
{
    reader.object();
    BillingControls controls;
    const JsonReader topups = reader.field("autoTopups"_L1);
    if (!topups.isMissing()) {
        topups.array();
        if (topups.ok())
            controls.autoTopups = topups.raw();
    }
    const JsonReader spend = reader.field("spendLimits"_L1);
    controls.spendLimits = readOptionalList<SpendLimit>(spend);
    refuseRepeats(
        spend, controls.spendLimits,
        [](const SpendLimit &l) -> QString { return l.featureId.value_or(u"*"_s); },
        u"spend limit for this feature"_s);
    const JsonReader usage = reader.field("usageLimits"_L1);
    controls.usageLimits = readOptionalList<UsageLimit>(usage);
    refuseRepeats(
        usage, controls.usageLimits,
        [](const UsageLimit &l) -> QString {
            return l.featureId + u'/' + toWire(l.interval) + u'/' + toWire(l.anchor);
        },
        u"usage limit for this feature, interval and anchor"_s);
    controls.usageAlerts = readOptionalList<UsageAlert>(reader.field("usageAlerts"_L1));
    const JsonReader overage = reader.field("overageAllowed"_L1);
    controls.overageAllowed = readOptionalList<OverageAllowed>(overage);
    refuseRepeats(
        overage, controls.overageAllowed,
        [](const OverageAllowed &o) -> QString { return o.featureId; },
        u"overageAllowed entry for this feature"_s);
    return controls;
}

void BillingControls::write(JsonWriter &writer) const
{
    // autoTopups is always there (docs/api.md, The customer object); the rest when set.
    writer.beginObject().key("autoTopups"_L1);
    autoTopups.write(writer);
    if (!spendLimits.isEmpty()) {
        writer.key("spendLimits"_L1);
        writeList(writer, spendLimits);
    }
    if (!usageLimits.isEmpty()) {
        writer.key("usageLimits"_L1);
        writeList(writer, usageLimits);
    }
    if (!usageAlerts.isEmpty()) {
        writer.key("usageAlerts"_L1);
        writeList(writer, usageAlerts);
    }
    if (!overageAllowed.isEmpty()) {
        writer.key("overageAllowed"_L1);
        writeList(writer, overageAllowed);
    }
    writer.endObject();
}

UpdateBillingControlsRequest UpdateBillingControlsRequest::read(const JsonReader &reader)
{
    reader.object();
    UpdateBillingControlsRequest request;
    request.customerId = reader.field("customer_id"_L1).identifier();
    request.entityId = reader.field("entity_id"_L1).optIdentifier();
    const JsonReader controls = reader.field("billing_controls"_L1);
    request.billingControls = BillingControls::read(controls);
    request.hasAutoTopups = !controls.field("autoTopups"_L1).isMissing();
    request.hasSpendLimits = !controls.field("spendLimits"_L1).isMissing();
    request.hasUsageLimits = !controls.field("usageLimits"_L1).isMissing();
    request.hasUsageAlerts = !controls.field("usageAlerts"_L1).isMissing();
    request.hasOverageAllowed = !controls.field("overageAllowed"_L1).isMissing();
    // Alert names are free text. Held to the rule here, where the API takes
    // them, not in UsageAlert::read, which also reads controls stored before it.
    if (reader.ok() && request.hasUsageAlerts)
        for (const JsonReader &alert : controls.field("usageAlerts"_L1).array())
            alert.field("name"_L1).optFreeText(MaxNameLength);
    if (reader.ok() && request.billingControls.autoTopups.size() > 0)
        controls.field("autoTopups"_L1)
            .fail(u"automatic top-ups are not supported by Meterdesk; send an empty list"_s);
    return request;
}

void UpdateBillingControlsRequest::write(JsonWriter &writer) const
{
    writer.beginObject().field("customer_id"_L1, customerId);
    if (entityId)
        writer.field("entity_id"_L1, *entityId);
    writer.key("billing_controls"_L1).beginObject();
    if (hasAutoTopups) {
        writer.key("autoTopups"_L1);
        billingControls.autoTopups.write(writer);
    }
    if (hasSpendLimits) {
        writer.key("spendLimits"_L1);
        writeList(writer, billingControls.spendLimits);
    }
    if (hasUsageLimits) {
        writer.key("usageLimits"_L1);
        writeList(writer, billingControls.usageLimits);
    }
    if (hasUsageAlerts) {
        writer.key("usageAlerts"_L1);
        writeList(writer, billingControls.usageAlerts);
    }
    if (hasOverageAllowed) {
        writer.key("overageAllowed"_L1);
        writeList(writer, billingControls.overageAllowed);
    }
    writer.endObject().endObject();
}

ControlsOwner ControlsOwner::read(const JsonReader &reader)
{
    reader.object();
    return {reader.field("customer_id"_L1).identifier(),
            reader.field("entity_id"_L1).optIdentifier()};
}

void ControlsOwner::write(JsonWriter &writer) const
{
    writer.beginObject().field("customer_id"_L1, customerId);
    if (entityId)
        writer.field("entity_id"_L1, *entityId);
    writer.endObject();
}

BillingControlsAnswer BillingControlsAnswer::read(const JsonReader &reader)
{
    reader.object();
    BillingControlsAnswer answer;
    answer.customerId = reader.field("customer_id"_L1).string();
    answer.entityId = reader.field("entity_id"_L1).nullableString();
    answer.billingControls = BillingControls::read(reader.field("billing_controls"_L1));
    return answer;
}

void BillingControlsAnswer::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("customer_id"_L1, customerId)
        .field("entity_id"_L1, entityId)
        .key("billing_controls"_L1);
    billingControls.write(writer);
    writer.endObject();
}

UsageAlertEvent UsageAlertEvent::read(const JsonReader &reader)
{
    reader.object();
    UsageAlertEvent event;
    event.id = reader.field("id"_L1).string();
    event.customerId = reader.field("customer_id"_L1).string();
    event.entityId = reader.field("entity_id"_L1).nullableString();
    event.featureId = reader.field("feature_id"_L1).string();
    event.name = reader.field("name"_L1).nullableString();
    event.thresholdType = reader.field("threshold_type"_L1).word(ThresholdTypeWords);
    event.threshold = reader.field("threshold"_L1).decimal();
    event.value = reader.field("value"_L1).decimal();
    event.triggeredAt = reader.field("triggered_at"_L1).integer();
    return event;
}

void UsageAlertEvent::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("id"_L1, id)
        .field("customer_id"_L1, customerId)
        .field("entity_id"_L1, entityId)
        .field("feature_id"_L1, featureId)
        .field("name"_L1, name)
        .field("threshold_type"_L1, toWire(thresholdType))
        .field("threshold"_L1, threshold)
        .field("value"_L1, value)
        .field("triggered_at"_L1, triggeredAt)
        .endObject();
}

} // namespace md::api
