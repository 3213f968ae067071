// billing.import reads Stripe (docs/processors.md, "What the import
// reads"): each billable naming a `link.subscription_id` has that
// subscription read, and its customer (the one in `processors`, else the
// subscription's, which is then recorded). A subscription of another
// customer is refused naming both. What the body says and Stripe
// contradicts (status, start, anchor, quantity, plan) is listed per
// billable; what is imported follows Stripe, with its trial end, end and
// cancellation as terms. Nothing is read when no billable names a
// subscription; nothing is ever written to Stripe.
#pragma once

#include "services/api/ImportCustomer.h"
#include "services/engine/customers/ImportTerms.h"
#include "services/engine/processors/StripeClient.h"
#include "services/engine/processors/StripeSubscription.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

class StripeImport final
{
public:
    struct Prepared
    {
        api::ImportCustomerRequest request;                 // as Stripe says
        QList<ImportTerms> terms;                           // one per billable
        QList<QList<api::ProcessorDifference>> differences; // one per billable
    };

    static api::Result<Prepared> prepare(const QSqlDatabase &db, const Scope &scope,
                                         const api::ImportCustomerRequest &request,
                                         const StripeClient::Options &options);
    // The same from what was read: one subscription per billable (or none),
    // the customer's name and email at Stripe.
    static api::Result<Prepared>
    reconcile(const api::ImportCustomerRequest &request,
              const QList<std::optional<StripeSubscription>> &subscriptions,
              const api::CustomerData &stripeCustomer = {});
    // A time as the differences show it: ISO 8601, UTC.
    static QString timeText(qint64 ms);
};

} // namespace md::engine
