#include "models/customers/BillingControlsEdit.h"

#include "models/common/AmountFormat.h"
#include "models/customers/UsageAlertModel.h"

#include <QPromise>

#include <memory>

namespace md::models {

using namespace Qt::StringLiterals;
using api::JsonValue;

namespace {

JsonValue optionalFeature(const QString &featureId)
{
    return featureId.trimmed().isEmpty() ? JsonValue() : JsonValue(featureId.trimmed());
}

// An object without its undefined members (a feature left empty is "every feature").
JsonValue object(std::initializer_list<std::pair<QLatin1StringView, JsonValue>> members)
{
    JsonValue value = JsonValue::object();
    for (const auto &[key, member] : members)
        if (!member.isUndefined())
            value.insert(QString(key), member);
    return value;
}

QString intervalText(api::LimitInterval interval)
{
    switch (interval) {
    case api::LimitInterval::Day:
        return BillingControlsEdit::tr("day");
    case api::LimitInterval::Week:
        return BillingControlsEdit::tr("week");
    case api::LimitInterval::Month:
        return BillingControlsEdit::tr("month");
    case api::LimitInterval::Year:
        break;
    }
    return BillingControlsEdit::tr("year");
}

QString featureText(const std::optional<QString> &featureId)
{
    return featureId ? *featureId : BillingControlsEdit::tr("every feature");
}

using Rows = api::Result<QList<api::BalanceRow>>;

// Asks for the page at `request`, then the next, until the last is in.
void collect(backend::BillingBackend *backend, api::ListBalancesRequest request, QObject *context,
             std::shared_ptr<QPromise<Rows>> promise, QList<api::BalanceRow> rows)
{
    backend->listBalances(request).then(
        context, [=](const api::Result<api::ListBalancesResponse> &page) mutable {
            if (!page || !page.value().hasMore || !page.value().nextCursor) {
                if (page)
                    rows += page.value().list;
                promise->addResult(page ? Rows(rows) : Rows(page.error()));
                promise->finish();
                return;
            }
            rows += page.value().list;
            request.startCursor = *page.value().nextCursor;
            collect(backend, request, context, promise, rows);
        });
}

// The features an alert watches: its own, or every feature the owner holds.
QStringList watchedFeatures(const BillingControlsForm::UsageAlert &alert, const Standing &standing)
{
    const QString feature = alert.featureId.trimmed();
    return feature.isEmpty() ? standing.keys() : QStringList{feature};
}

bool rising(api::ThresholdType type)
{
    return type == api::ThresholdType::Usage || type == api::ThresholdType::UsagePercentage;
}

bool percentage(api::ThresholdType type)
{
    return type == api::ThresholdType::UsagePercentage ||
           type == api::ThresholdType::RemainingPercentage;
}

QString quantity(api::ThresholdType type, const api::Decimal &value, const QLocale &locale)
{
    const QString amount = formatAmount(value, locale, percentage(type) ? 0 : 2);
    return percentage(type) ? amount + u" %"_s : amount;
}

} // namespace

BillingControlsForm BillingControlsForm::from(const api::BillingControls &controls)
{
    BillingControlsForm form;
    for (const api::UsageLimit &limit : controls.usageLimits)
        form.usageLimits.append({limit.featureId, limit.limit.toString(),
                                 QString(api::toWire(limit.interval)),
                                 QString(api::toWire(limit.anchor)), limit.enabled});
    for (const api::SpendLimit &limit : controls.spendLimits)
        form.spendLimits.append({limit.featureId.value_or(QString()),
                                 QString(api::toWire(limit.limitType)),
                                 limit.overageLimit.toString(), limit.enabled});
    for (const api::UsageAlert &alert : controls.usageAlerts)
        form.usageAlerts.append(
            {alert.featureId.value_or(QString()), QString(api::toWire(alert.thresholdType)),
             alert.threshold.toString(), alert.name.value_or(QString()), alert.enabled});
    for (const api::OverageAllowed &entry : controls.overageAllowed)
        form.overageAllowed.append({entry.featureId, entry.enabled});
    return form;
}

api::Result<api::UpdateBillingControlsRequest>
BillingControlsEdit::request(const api::BillingControlsAnswer &before,
                             const BillingControlsForm &form)
{
    const BillingControlsForm shown = BillingControlsForm::from(before.billingControls);
    JsonValue lists = JsonValue::object();
    // A list goes only when the form changed it, each entry as `entry` writes it.
    const auto changed = [&lists](const QString &key, const auto &typed, const auto &was,
                                  const auto &entry) {
        if (typed == was)
            return;
        JsonValue list = JsonValue::array();
        for (const auto &item : typed)
            list.append(entry(item));
        lists.insert(key, list);
    };
    changed(u"usageLimits"_s, form.usageLimits, shown.usageLimits, [](const auto &limit) {
        return object({{"featureId"_L1, limit.featureId.trimmed()},
                       {"limit"_L1, JsonValue::numberOrString(limit.limit)},
                       {"interval"_L1, limit.interval},
                       {"anchor"_L1, limit.anchor},
                       {"enabled"_L1, limit.enabled}});
    });
    changed(u"spendLimits"_s, form.spendLimits, shown.spendLimits, [](const auto &limit) {
        return object({{"featureId"_L1, optionalFeature(limit.featureId)},
                       {"limitType"_L1, limit.limitType},
                       {"overageLimit"_L1, JsonValue::numberOrString(limit.overageLimit)},
                       {"enabled"_L1, limit.enabled}});
    });
    changed(u"usageAlerts"_s, form.usageAlerts, shown.usageAlerts, [](const auto &alert) {
        return object(
            {{"featureId"_L1, optionalFeature(alert.featureId)},
             {"thresholdType"_L1, alert.thresholdType},
             {"threshold"_L1, JsonValue::numberOrString(alert.threshold)},
             {"name"_L1,
              alert.name.trimmed().isEmpty() ? JsonValue() : JsonValue(alert.name.trimmed())},
             {"enabled"_L1, alert.enabled}});
    });
    changed(u"overageAllowed"_s, form.overageAllowed, shown.overageAllowed, [](const auto &entry) {
        return object({{"featureId"_L1, entry.featureId.trimmed()}, {"enabled"_L1, entry.allowed}});
    });
    const JsonValue body =
        object({{"customer_id"_L1, before.customerId},
                {"entity_id"_L1, before.entityId ? JsonValue(*before.entityId) : JsonValue()},
                {"billing_controls"_L1, lists}});
    auto request = api::decode<api::UpdateBillingControlsRequest>(body);
    if (!request)
        return request;
    // Lists not sent stay as they are, and the review compares them so.
    api::UpdateBillingControlsRequest &r = request.value();
    const api::BillingControls &kept = before.billingControls;
    r.billingControls.autoTopups = kept.autoTopups;
    if (!r.hasUsageLimits)
        r.billingControls.usageLimits = kept.usageLimits;
    if (!r.hasSpendLimits)
        r.billingControls.spendLimits = kept.spendLimits;
    if (!r.hasUsageAlerts)
        r.billingControls.usageAlerts = kept.usageAlerts;
    if (!r.hasOverageAllowed)
        r.billingControls.overageAllowed = kept.overageAllowed;
    return request;
}

QStringList BillingControlsEdit::describe(const api::BillingControls &controls)
{
    QStringList lines;
    for (const api::UsageLimit &limit : controls.usageLimits)
        lines.append(
            tr("%1: at most %2 a %3%4%5")
                .arg(limit.featureId, formatAmount(limit.limit), intervalText(limit.interval),
                     limit.anchor == api::LimitAnchor::Utc ? tr(" (UTC)") : QString(),
                     limit.usage ? tr(" (%1 used)").arg(formatAmount(*limit.usage)) : QString()) +
            (limit.enabled ? QString() : tr(", off")));
    for (const api::SpendLimit &limit : controls.spendLimits)
        lines.append(tr("%1: overage at most %2%3")
                         .arg(featureText(limit.featureId), formatAmount(limit.overageLimit),
                              limit.limitType == api::SpendLimitType::UsagePercentage
                                  ? tr(" % of the included allowance")
                                  : QString()) +
                     (limit.enabled ? QString() : tr(", off")));
    for (const api::UsageAlert &alert : controls.usageAlerts)
        lines.append(tr("%1: alert when %2%3")
                         .arg(featureText(alert.featureId),
                              UsageAlertModel::describe(alert.thresholdType, alert.threshold),
                              alert.name ? tr(" (\"%1\")").arg(*alert.name) : QString()) +
                     (alert.enabled ? QString() : tr(", off")));
    for (const api::OverageAllowed &entry : controls.overageAllowed)
        lines.append(entry.enabled ? tr("%1: overage allowed").arg(entry.featureId)
                                   : tr("%1: no overage").arg(entry.featureId));
    return lines;
}

QList<FieldChange> BillingControlsEdit::changes(const api::BillingControls &before,
                                                const api::BillingControls &after)
{
    // Compared without the usage counted so far, which no form changes.
    const auto withoutUsage = [](api::BillingControls controls) {
        for (api::UsageLimit &limit : controls.usageLimits)
            limit.usage.reset();
        return controls;
    };
    const api::BillingControls was = withoutUsage(before);
    const api::BillingControls now = withoutUsage(after);
    QList<FieldChange> changes;
    const auto compare = [&](const QString &field, auto member) {
        api::BillingControls only;
        api::BillingControls onlyNow;
        only.*member = was.*member;
        onlyNow.*member = now.*member;
        if (only.*member != onlyNow.*member)
            changes.append({field, describe(only).join(u"\n"_s), describe(onlyNow).join(u"\n"_s)});
    };
    compare(tr("Usage limits"), &api::BillingControls::usageLimits);
    compare(tr("Spend limits"), &api::BillingControls::spendLimits);
    compare(tr("Usage alerts"), &api::BillingControls::usageAlerts);
    compare(tr("Overage allowed"), &api::BillingControls::overageAllowed);
    return changes;
}

backend::Reply<QList<api::BalanceRow>> BillingControlsEdit::rowsOf(backend::BillingBackend *backend,
                                                                   const api::ControlsOwner &owner,
                                                                   QObject *context)
{
    auto promise = std::make_shared<QPromise<Rows>>();
    promise->start();
    api::ListBalancesRequest request;
    request.customerId = owner.customerId;
    request.entityId = owner.entityId;
    request.limit = api::ListBalancesRequest::MaxLimit;
    collect(backend, request, context, promise, {});
    return promise->future();
}

Standing BillingControlsEdit::standing(const QList<api::BalanceRow> &rows,
                                       const std::optional<QString> &entityId)
{
    Standing figures;
    // A customer's calls draw on its own rows, an entity's on the entity's
    // (engine/balances/BalanceLister::held): the customer's list has both.
    for (const api::BalanceRow &row : rows) {
        if (row.entityId != entityId || row.status != api::BalanceStatus::Active)
            continue;
        FeatureStanding &f = figures[row.featureId];
        f.granted = f.granted.runningSum(row.includedGrant).runningSum(row.prepaidGrant);
        f.remaining = f.remaining.runningSum(row.remaining);
        f.usage = f.usage.runningSum(row.usage);
    }
    return figures;
}

std::optional<api::Decimal> BillingControlsEdit::watched(api::ThresholdType type,
                                                         const FeatureStanding &figures)
{
    // As the engine reckons it (engine/controls/CallLimits::crossed).
    const auto percent = [&figures](const api::Decimal &part) -> std::optional<api::Decimal> {
        if (!(api::Decimal() < figures.granted))
            return std::nullopt;
        return part.mulDiv(100 * api::Decimal::One, figures.granted.raw());
    };
    switch (type) {
    case api::ThresholdType::Usage:
        return figures.usage;
    case api::ThresholdType::UsagePercentage:
        return percent(figures.usage);
    case api::ThresholdType::Remaining:
        return figures.remaining;
    case api::ThresholdType::RemainingPercentage:
        return percent(figures.remaining);
    }
    return std::nullopt;
}

QString BillingControlsEdit::now(const BillingControlsForm::UsageAlert &alert,
                                 const Standing &standing, const QLocale &locale)
{
    const auto type = api::thresholdTypeFromWire(alert.thresholdType);
    if (!type)
        return {};
    QStringList parts;
    const QStringList features = watchedFeatures(alert, standing);
    for (const QString &feature : features) {
        QString text;
        if (!standing.contains(feature))
            text = tr("no balance");
        else if (const auto value = watched(*type, standing.value(feature)); !value)
            text = tr("no grant");
        else
            text = rising(*type) ? tr("%1 used").arg(quantity(*type, *value, locale))
                                 : tr("%1 remaining").arg(quantity(*type, *value, locale));
        parts.append(alert.featureId.trimmed().isEmpty() ? tr("%1: %2").arg(feature, text) : text);
    }
    return parts.isEmpty() ? tr("no balance") : parts.join(u"; "_s);
}

QStringList BillingControlsEdit::warnings(int row, const BillingControlsForm::UsageAlert &alert,
                                          const Standing &standing, const QLocale &locale)
{
    const auto type = api::thresholdTypeFromWire(alert.thresholdType);
    const auto threshold = api::Decimal::parse(alert.threshold.trimmed());
    if (!alert.enabled || !type || !threshold)
        return {};
    const QString name = alert.name.trimmed().isEmpty()
                             ? tr("Usage alert %1").arg(row + 1)
                             : tr("Usage alert \"%1\"").arg(alert.name.trimmed());
    QStringList said;
    const QStringList features = watchedFeatures(alert, standing);
    for (const QString &feature : features) {
        if (!standing.contains(feature))
            continue; // no balance yet: the first use can still cross it
        const auto value = watched(*type, standing.value(feature));
        if (!value) {
            said.append(
                tr("%1: %2 has no grant, so a percentage of it cannot fire.").arg(name, feature));
            continue;
        }
        // Crossing is rising to or past the threshold (falling to or below
        // it): a quantity already there does not cross it again.
        const QString at = quantity(*type, *value, locale);
        const QString limit = quantity(*type, *threshold, locale);
        if (rising(*type) && !(*value < *threshold))
            said.append(tr("%1: the usage of %2 is already %3, past the threshold of %4, so it "
                           "cannot fire until a reset brings the usage back below it.")
                            .arg(name, feature, at, limit));
        else if (!rising(*type) && !(*threshold < *value))
            said.append(tr("%1: %2 already has %3 remaining, at or below the threshold of %4, so "
                           "it cannot fire until a reset or a top-up brings it back above it.")
                            .arg(name, feature, at, limit));
    }
    return said;
}

} // namespace md::models
