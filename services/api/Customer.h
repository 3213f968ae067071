// The customer object returned by billing.import (docs/api.md, The customer object). Its own
// keys are camelCase; `flags` values and `config` keep snake_case, as the spec shows.
#pragma once

#include "services/api/BalanceSummary.h"
#include "services/api/BillingControls.h"
#include "services/api/Environment.h"

namespace md::api {

// Status of a customer's plan: subscriptions here, import plans and outcomes in billing.import.
enum class PlanStatus { Active, Trialing, PastDue, Canceled, Expired };

QLatin1StringView toWire(PlanStatus value);
PlanStatus readPlanStatus(const JsonReader &reader);
std::optional<PlanStatus> readOptPlanStatus(const JsonReader &reader);

struct Subscription
{
    QString planId;
    bool autoEnable = false;
    bool addOn = false;
    PlanStatus status = PlanStatus::Active;
    bool pastDue = false;
    std::optional<qint64> canceledAt;
    std::optional<qint64> expiresAt;
    std::optional<qint64> trialEndsAt;
    qint64 startedAt = 0;
    qint64 currentPeriodStart = 0;
    qint64 currentPeriodEnd = 0; // never before currentPeriodStart
    Decimal quantity = Decimal::fromInteger(1);

    static Subscription read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const Subscription &, const Subscription &) = default;
};

// A value of the customer's `flags` map (snake_case keys).
struct CustomerFlag
{
    QString id;
    std::optional<QString> planId;   // null when not from a plan
    std::optional<qint64> expiresAt; // null means no expiry
    QString featureId;

    static CustomerFlag read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const CustomerFlag &, const CustomerFlag &) = default;
};

// The customer's `config` (snake_case keys).
struct CustomerConfig
{
    bool disablePooledBalance = false;
    bool disableOverageBilling = false;

    static CustomerConfig read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const CustomerConfig &, const CustomerConfig &) = default;
};

struct Customer
{
    QString id;
    QString name;
    QString email;
    qint64 createdAt = 0;
    std::optional<QString> fingerprint;
    std::optional<QString> stripeId;   // `<processor>Id` for stripe; null without a processor
    QMap<QString, QString> processors; // processor name -> the customer's id there ({id})
    Environment env = Environment::Sandbox;
    JsonValue metadata = JsonValue::object();
    bool sendEmailReceipts = false;
    BillingControls billingControls; // the customer's own (an entity's are asked for apart)
    QList<Subscription> subscriptions;
    JsonValue purchases = JsonValue::array(); // entries kept as sent (shape not shown)
    JsonValue licenses = JsonValue::array();  // entries kept as sent (shape not shown)
    QMap<QString, BalanceSummary> balances;   // feature id -> camelCase summary
    QMap<QString, CustomerFlag> flags;        // feature id -> flag
    CustomerConfig config;

    static Customer read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const Customer &, const Customer &) = default;
};

} // namespace md::api
