// The plans in force that an import linked to a Stripe subscription, as
// processors.verify compares them with Stripe (docs/processors.md,
// "Checking against Stripe").
#pragma once

#include "services/api/Result.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>
#include <QStringList>

namespace md::engine {

struct LinkedPlan
{
    QString customerId;
    QString subscriptionId;
    QString planId;
    QString status; // the stored word: active, trialing or past_due
    qint64 quantity = 1;
    qint64 periodStart = 0;
    qint64 periodEnd = 0;
};

class LinkedPlans final
{
public:
    // Of these customers (none: every customer), by customer id.
    static api::Result<QList<LinkedPlan>> inForce(const QSqlDatabase &db, const Scope &scope,
                                                  const std::optional<QStringList> &customerIds);
};

} // namespace md::engine
