// A Stripe subscription as the import and the drift check read it
// (docs/processors.md, "What the import reads"): its customer, status,
// start, anchor, current period, trial, cancellation and items. Stripe
// sends times in seconds; they are held in ms. The current period is the
// subscription's, or (API versions from 2025-03-31 on) its first item's.
// An item's price is `price`, else the legacy `plan` Stripe still sends.
#pragma once

#include "services/api/Customer.h"
#include "services/api/Result.h"

#include <QJsonObject>

namespace md::engine {

struct StripeSubscription
{
    struct Item
    {
        QString priceId;
        QString productId;
        QString meterdeskPlanId; // the price's metadata.meterdesk_plan_id
        QString lookupKey;
        qint64 quantity = 1;
    };

    QString id;
    QString customer;
    QString status; // Stripe's word
    qint64 startedAt = 0;
    qint64 billingCycleAnchor = 0;
    std::optional<qint64> currentPeriodStart;
    std::optional<qint64> currentPeriodEnd;
    std::optional<qint64> trialEnd;
    std::optional<qint64> cancelAt;
    std::optional<qint64> canceledAt;
    bool cancelAtPeriodEnd = false;
    QList<Item> items;

    // 502 processor_refused when Stripe's object lacks what is read.
    static api::Result<StripeSubscription> read(const QJsonObject &object);

    // Meterdesk's status for Stripe's: past_due, unpaid, incomplete and
    // paused are all in force but unpaid (past_due); incomplete_expired
    // is expired.
    api::PlanStatus planStatus() const;
    // When it ends: cancel_at, or the current period's end when it is
    // canceled at it; none while it renews.
    std::optional<qint64> endsAt() const;
    // The item for Meterdesk plan `planId`: the one whose price names it
    // (metadata.meterdesk_plan_id, else lookup_key), else the only one.
    const Item *itemFor(const QString &planId) const;
};

} // namespace md::engine
