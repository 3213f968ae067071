// The demo workspace's catalogue (DemoWorkspace): its plans, features with
// the AI credit system's markups, products and rewards, the same in every
// demo whatever its size, and the money helpers the generator shares.
#pragma once

#include "services/api/JsonValue.h"
#include "services/engine/pricing/TokenPricing.h"

#include <QList>
#include <QString>

namespace md::engine {

class DemoProducts final
{
public:
    struct PlanItem
    {
        QString feature;
        qint64 included;
        QString interval; // empty: no reset
    };

    struct Plan
    {
        QString id;
        QString name;
        QList<PlanItem> items;
        bool addOn = false;
        // A base fee a month in whole cents (a fixed price, docs/billing.md); 0: none.
        qint64 monthlyFeeCents = 0;
    };

    static const QList<Plan> &plans();
    // Whole cents, and a decimal literal, as JSON numbers.
    static api::JsonValue money(qint64 cents);
    // What a plan's API calls carry over at a reset (the billing clock):
    // everything unused, for a month.
    static api::JsonValue rollover();
    static api::JsonValue decimal(const char *text);
    // The AI credit system's markups: written into the workspace by
    // features() and used to price the demo's usage events.
    static CreditMarkups markups();
    static api::JsonValue features(qint64 createdAt);
    static api::JsonValue products(qint64 createdAt);
    static api::JsonValue rewards(qint64 createdAt);
};

} // namespace md::engine
