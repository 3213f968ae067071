// A customer's (or one entity's) billing controls, camelCase as in the
// customer object's `billingControls` (docs/api.md, The customer object), following the
// published service's model: overage allowed per feature, spend limits on
// overage, usage limits per interval, usage alerts. The rules that enforce
// them are in docs/billing-controls.md.
#pragma once

#include "services/api/Decimal.h"
#include "services/api/WireCodec.h"

#include <QList>
#include <QString>

#include <optional>

namespace md::api {

enum class SpendLimitType { Absolute, UsagePercentage };
enum class LimitInterval { Day, Week, Month, Year };
enum class LimitAnchor { BillingCycle, Utc };
enum class ThresholdType { Usage, UsagePercentage, Remaining, RemainingPercentage };

QLatin1StringView toWire(SpendLimitType value);
QLatin1StringView toWire(LimitInterval value);
QLatin1StringView toWire(LimitAnchor value);
QLatin1StringView toWire(ThresholdType value);
std::optional<ThresholdType> thresholdTypeFromWire(QStringView word);

// Whether usage of a feature may go past its balance (overrides the plan).
struct OverageAllowed
{
    QString featureId;
    bool enabled = true;

    static OverageAllowed read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const OverageAllowed &, const OverageAllowed &) = default;
};

// A cap on overage: how far below zero a feature's balance may go.
struct SpendLimit
{
    std::optional<QString> featureId; // none: every feature
    bool enabled = true;
    SpendLimitType limitType = SpendLimitType::Absolute;
    Decimal overageLimit; // units, or a percent of the included allowance

    static SpendLimit read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const SpendLimit &, const SpendLimit &) = default;
};

// A hard cap on the usage of a feature per interval.
struct UsageLimit
{
    QString featureId;
    bool enabled = true;
    Decimal limit;
    LimitInterval interval = LimitInterval::Month;
    LimitAnchor anchor = LimitAnchor::BillingCycle;
    // Answers only: usage counted in the interval now running.
    std::optional<Decimal> usage;

    static UsageLimit read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const UsageLimit &, const UsageLimit &) = default;
};

// Crossing a threshold of a feature's usage or remaining balance is recorded
// (and shown in the console); every grant of the feature counts as 100 %.
struct UsageAlert
{
    std::optional<QString> featureId; // none: every feature
    bool enabled = true;
    Decimal threshold; // units, or a percent for the *_percentage types
    ThresholdType thresholdType = ThresholdType::UsagePercentage;
    std::optional<QString> name;

    static UsageAlert read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const UsageAlert &, const UsageAlert &) = default;
};

struct BillingControls
{
    JsonValue autoTopups = JsonValue::array(); // kept as sent; Meterdesk does not top up
    QList<SpendLimit> spendLimits;
    QList<UsageLimit> usageLimits;
    QList<UsageAlert> usageAlerts;
    QList<OverageAllowed> overageAllowed;

    bool isEmpty() const
    {
        return autoTopups.size() == 0 && spendLimits.isEmpty() && usageLimits.isEmpty() &&
               usageAlerts.isEmpty() && overageAllowed.isEmpty();
    }
    // The entries that apply to one feature (an entry without a feature applies to all).
    std::optional<bool> overageAllowedFor(const QString &featureId) const;
    QList<SpendLimit> spendLimitsFor(const QString &featureId) const;
    QList<UsageLimit> usageLimitsFor(const QString &featureId) const;
    QList<UsageAlert> usageAlertsFor(const QString &featureId) const;
    // Every feature an entry names, with the entry's path ("usageLimits[0]").
    QList<std::pair<QString, QString>> namedFeatures() const;

    // Every list may be omitted (empty); each is checked (one limit per
    // feature and interval, thresholds within range, no filters).
    static BillingControls read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const BillingControls &, const BillingControls &) = default;
};

// POST /v1/meterdesk/customers.update_billing_controls: the lists sent
// replace the stored ones; lists left out are kept.
struct UpdateBillingControlsRequest
{
    QString customerId;
    std::optional<QString> entityId; // an entity's own controls, instead of the customer's
    BillingControls billingControls;
    // Which lists the body carried (the others are kept).
    bool hasAutoTopups = false;
    bool hasSpendLimits = false;
    bool hasUsageLimits = false;
    bool hasUsageAlerts = false;
    bool hasOverageAllowed = false;

    static UpdateBillingControlsRequest read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const UpdateBillingControlsRequest &,
                           const UpdateBillingControlsRequest &) = default;
};

// `{customer_id, entity_id?}`: whose controls customers.billing_controls reads.
struct ControlsOwner
{
    QString customerId;
    std::optional<QString> entityId;

    static ControlsOwner read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ControlsOwner &, const ControlsOwner &) = default;
};

// What customers.billing_controls and customers.update_billing_controls answer.
struct BillingControlsAnswer
{
    QString customerId;
    std::optional<QString> entityId;
    BillingControls billingControls;

    static BillingControlsAnswer read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const BillingControlsAnswer &, const BillingControlsAnswer &) = default;
};

// A usage alert that fired: its threshold was crossed by a track_tokens call.
struct UsageAlertEvent
{
    QString id;
    QString customerId;
    std::optional<QString> entityId;
    QString featureId;
    std::optional<QString> name;
    ThresholdType thresholdType = ThresholdType::UsagePercentage;
    Decimal threshold;
    Decimal value; // the usage, remaining or percentage that crossed it
    qint64 triggeredAt = 0;

    static UsageAlertEvent read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const UsageAlertEvent &, const UsageAlertEvent &) = default;
};

} // namespace md::api
