// Which Meterdesk plan each Stripe price stands for, and the import bodies
// that follow (docs/user-guide.md, "Importing from Stripe"). A price is
// matched by its `metadata.meterdesk_plan_id`, else its `lookup_key`, when
// the workspace has that plan; else by a mapping saved before; else the
// plan named as its product is offered. A price mapped to no plan is left
// out. One body per Stripe customer, its subscriptions in force as linked
// billables (Stripe gives status, quantity and periods at the dry run);
// canceled and expired subscriptions are left out. Customers a person
// should look at are named with why: past due, ending, renewing within
// three days, or on several plans.
#pragma once

#include "services/api/StripeSubscriptions.h"

#include <QCoreApplication>
#include <QHash>
#include <QStringList>

namespace md::models {

struct StripePrice
{
    enum class Match { Metadata, LookupKey, Saved, ProductName, None };

    QString priceId;
    QString productName; // or its id when Stripe gave no name
    QString plan;        // the plan it maps to; empty: left out
    Match match = Match::None;
    int subscriptions = 0;
};

class StripePriceMapping final
{
    Q_DECLARE_TR_FUNCTIONS(StripePriceMapping)

public:
    struct Bodies
    {
        QByteArray jsonLines;           // billing.import bodies, one a line
        QHash<QString, QString> review; // customer id → why to look at it
        int customers = 0;
        int leftOut = 0; // subscriptions with no price mapped, or ended
    };

    // `plans`: the workspace's plan id → name; `saved`: price → plan ("" to leave out).
    static QList<StripePrice> prices(const QList<api::StripeSubscriptionInfo> &subscriptions,
                                     const QHash<QString, QString> &productNames,
                                     const QHash<QString, QString> &plans,
                                     const QHash<QString, QString> &saved);
    // `mapping`: price → plan; `nowMs` for "renews within three days".
    static Bodies bodies(const QList<api::StripeSubscriptionInfo> &subscriptions,
                         const QHash<QString, QString> &mapping, qint64 nowMs);

    // The mapping saved for the next import (QSettings), and saving it.
    static QHash<QString, QString> saved();
    static void save(const QList<StripePrice> &prices);
};

} // namespace md::models
