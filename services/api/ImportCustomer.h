// billing.import request and response (docs/api.md, billing.import).
#pragma once

#include "services/api/Customer.h"

namespace md::api {

enum class Processor { Stripe, RevenueCat };

QLatin1StringView toWire(Processor value);

// One processor identity of the customer.
struct ProcessorIdentity
{
    Processor type = Processor::Stripe;
    QString id;

    static ProcessorIdentity read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ProcessorIdentity &, const ProcessorIdentity &) = default;
};

// Identity fields upserted onto the customer; all optional.
struct CustomerData
{
    std::optional<QString> name; // free text (TextRule.h)
    std::optional<QString> email;
    std::optional<QString> fingerprint;
    std::optional<qint64> createdAt;

    static CustomerData read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const CustomerData &, const CustomerData &) = default;
};

struct BillableLink
{
    std::optional<QString> subscriptionId;
    std::optional<QString> scheduleId;

    static BillableLink read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const BillableLink &, const BillableLink &) = default;
};

struct FeatureQuantity
{
    QString featureId;
    Decimal quantity; // not negative

    static FeatureQuantity read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const FeatureQuantity &, const FeatureQuantity &) = default;
};

// Which of the plan's balances of the feature an import balance applies to.
struct ImportBalanceFilter
{
    std::optional<ResetInterval> interval;
    std::optional<BillingMethod> billingBehavior; // `prepaid` or `usage_based`

    static ImportBalanceFilter read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ImportBalanceFilter &, const ImportBalanceFilter &) = default;
};

struct ImportBalance
{
    QString featureId;
    std::optional<Decimal> usage; // not negative
    std::optional<Decimal> balance;
    std::optional<qint64> nextResetAt;
    std::optional<ImportBalanceFilter> filter;

    static ImportBalance read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ImportBalance &, const ImportBalance &) = default;
};

// Lists may be omitted (empty) and are written only when not empty.
struct ImportPlan
{
    QString planId;                // required
    std::optional<qint64> version; // at least 1
    std::optional<PlanStatus> status;
    std::optional<qint64> startedAt;
    std::optional<Decimal> quantity; // not negative
    QList<FeatureQuantity> featureQuantities;
    QList<ImportBalance> balances;

    static ImportPlan read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ImportPlan &, const ImportPlan &) = default;
};

struct Billable
{
    Processor processor = Processor::Stripe; // may be omitted, default stripe; always written
    std::optional<BillableLink> link;
    std::optional<qint64> billingCycleAnchor; // ms
    ImportPlan plan;                          // required

    static Billable read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const Billable &, const Billable &) = default;
};

struct ImportCustomerRequest
{
    QString customerId;                  // required
    QList<Billable> billables;           // required, may be empty
    QList<ProcessorIdentity> processors; // may be omitted (none); written only when not empty
    std::optional<CustomerData> customerData;
    bool dryRun = false; // may be omitted, default false; always written

    static ImportCustomerRequest read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ImportCustomerRequest &, const ImportCustomerRequest &) = default;
};

// Where the request said something the processor contradicts
// (docs/processors.md, "What the import reads"): the body's path, and both
// values as text (times in ISO 8601, UTC). What is imported follows the
// processor.
struct ProcessorDifference
{
    QString field; // e.g. "billables[0].plan.status"
    QString requested;
    QString processor;

    static ProcessorDifference read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ProcessorDifference &, const ProcessorDifference &) = default;
};

// The outcome for one plan.
struct FlashedPlan
{
    QString planId;
    Processor processor = Processor::Stripe;
    std::optional<QString> customerProductId; // null on a dry run
    PlanStatus status = PlanStatus::Active;
    bool skipped = false;
    std::optional<bool> expired;
    std::optional<bool> mismatch;
    std::optional<QString> reason;          // e.g. "already_active"
    QList<ProcessorDifference> differences; // written only when not empty; then mismatch is true

    static FlashedPlan read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const FlashedPlan &, const FlashedPlan &) = default;
};

struct ImportCustomerResponse
{
    QString customerId;
    QList<FlashedPlan> flashed;
    std::optional<Customer> customer; // null for a dry run

    static ImportCustomerResponse read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ImportCustomerResponse &,
                           const ImportCustomerResponse &) = default;
};

} // namespace md::api
