// One billable of billing.import set against what the customer already has
// from that processor (docs/api.md, "billing.import"). An import is keyed by
// customer, processor, plan (any version) and subscription when both sides
// name one, so sending the same file again changes nothing whatever the
// plan's status: a plan in force again is "already_active", a canceled or
// expired one already recorded is "already_ended". A canceled or expired
// plan never grants active balances: it ends the matching plan in force, or
// is recorded ended. Plans in force that the payload leaves out expire.
#pragma once

#include "services/api/ImportCustomer.h"
#include "services/engine/charges/Money.h"
#include "services/engine/customers/ImportTerms.h"
#include "services/engine/customers/StoredPlan.h"
#include "services/engine/ledger/BalanceLedger.h"
#include "services/engine/sql/KeyAllocator.h"
#include "services/engine/sql/Sql.h"

namespace md::engine {

class PlanAttacher final
{
public:
    struct Context
    {
        QSqlDatabase db;
        Scope scope;
        qint64 now = 0;
        bool dryRun = false;
        QHash<QString, qint64> featurePks; // every feature of the payload's plans
        QSet<QString> creditSystems;       // those that are AI credit systems
        Money money;                       // the organization's currency
    };

    PlanAttacher(Context context, KeyAllocator &keys);

    api::Result<api::FlashedPlan> attach(qint64 customerPk, const api::Billable &billable,
                                         const StoredPlan &plan, const ImportTerms &terms = {});
    // Plans in force from the payload's processors that it does not name
    // (`named`: "processor/plan" pairs).
    api::Result<QList<api::FlashedPlan>> expireMissing(qint64 customerPk,
                                                       const api::ImportCustomerRequest &request,
                                                       const QSet<QString> &named);
    // The ledger entries of everything attached or ended, written once the
    // import is complete.
    const QList<BalanceLedger::Entry> &ledger() const { return m_ledger; }

private:
    api::Result<api::FlashedPlan> create(qint64 customerPk, const api::Billable &billable,
                                         const StoredPlan &plan, const ImportTerms &terms,
                                         api::FlashedPlan flashed);
    // Ends a customer product and its balances now; `status` says why.
    api::Result<api::Done> end(qint64 customerPk, const QVariant &customerProductPk,
                               api::PlanStatus status);

    Context m_context;
    KeyAllocator &m_keys;
    QList<BalanceLedger::Entry> m_ledger;
};

} // namespace md::engine
