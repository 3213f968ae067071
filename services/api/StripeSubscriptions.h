// processors.subscriptions (docs/api.md; docs/processors.md, "Import from
// Stripe"): one page of the organization's Stripe subscriptions, as the
// import wizard's Stripe source reads them, and on the first page the
// Stripe products' names, for mapping prices to plans.
#pragma once

#include "services/api/Customer.h"

namespace md::api {

struct StripeSubscriptionsRequest
{
    static constexpr qint64 MaxLimit = 100;
    std::optional<QString> startingAfter; // a subscription id: the page after it
    qint64 limit = MaxLimit;

    static StripeSubscriptionsRequest read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const StripeSubscriptionsRequest &,
                           const StripeSubscriptionsRequest &) = default;
};

struct StripeItemInfo
{
    QString priceId;
    QString productId;
    QString meterdeskPlanId; // the price's metadata.meterdesk_plan_id, or empty
    QString lookupKey;
    qint64 quantity = 1;

    static StripeItemInfo read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const StripeItemInfo &, const StripeItemInfo &) = default;
};

struct StripeSubscriptionInfo
{
    QString id;
    QString customerId;
    QString status;        // Stripe's word
    PlanStatus planStatus; // as billing.import reads it
    qint64 startedAt = 0;
    std::optional<qint64> currentPeriodEnd;
    std::optional<qint64> endsAt; // cancel_at, or the period's end when canceled at it
    QList<StripeItemInfo> items;

    static StripeSubscriptionInfo read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const StripeSubscriptionInfo &,
                           const StripeSubscriptionInfo &) = default;
};

struct StripeProductName
{
    QString id;
    QString name;

    static StripeProductName read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const StripeProductName &, const StripeProductName &) = default;
};

struct StripeSubscriptionsPage
{
    QList<StripeSubscriptionInfo> data;
    bool hasMore = false;
    QList<StripeProductName> products; // on the first page only

    static StripeSubscriptionsPage read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const StripeSubscriptionsPage &,
                           const StripeSubscriptionsPage &) = default;
};

} // namespace md::api
