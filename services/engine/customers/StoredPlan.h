// A plan (product version) as billing.import reads it from the catalogue,
// and the rules that tie an imported subscription to it: which statuses are
// in force, the interval it renews on, which of its items a reported
// balance belongs to, and the price a balance from an item carries.
#pragma once

#include "services/api/ImportCustomer.h"
#include "services/api/Product.h"
#include "services/api/Result.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

struct StoredPlan
{
    qint64 pk = 0;
    QList<api::ProductItem> items;
    std::optional<api::FreeTrial> freeTrial;

    // The plan `plan` names (its version, else the newest); `path` names it in errors.
    static api::Result<StoredPlan> find(const QSqlDatabase &db, const Scope &scope,
                                        const api::ImportPlan &plan, const QString &path);
    // A plan still in force from its processor: importing it again skips it.
    static bool inForce(const QString &status);
    static api::ResetInterval renewalInterval(const QList<api::ProductItem> &items);
    static api::BillingMethod billingMethodOf(const api::ProductItem &item);
    // Whether a balance the import reports belongs to `item`.
    static bool matches(const api::ImportBalance &reported, const api::ProductItem &item);
    // The balance price of a priced plan item, or none.
    static std::optional<api::Price> priceOf(const api::ProductItem &item);
    // When a subscription imported as `status`, started at `startedAt`,
    // ends its trial: a trialing one's plan's free trial after its start
    // (docs/billing.md, "Nothing during a trial"); none otherwise.
    std::optional<qint64> trialEndOf(api::PlanStatus status, qint64 startedAt) const;
};

} // namespace md::engine
