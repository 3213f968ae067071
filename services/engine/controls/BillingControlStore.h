// Where billing controls live (docs/billing-controls.md): a customer's own,
// or one entity's, in billing_controls; the usage counted toward each usage
// limit in usage_windows; the alerts that fired in usage_alert_events.
#pragma once

#include "services/api/BillingControls.h"
#include "services/api/Decimal.h"
#include "services/api/Page.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/KeyAllocator.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

#include <map>

namespace md::engine {

class KeyAllocator;

class BillingControlStore final
{
public:
    // The controls stored for the customer (entityPk nullopt) or for one
    // entity, nullopt when none are.
    static api::Result<std::optional<api::BillingControls>>
    stored(const QSqlDatabase &db, qint64 customerPk, std::optional<qint64> entityPk);
    // The controls a call of the customer (or entity) is held to: the
    // entity's own when it has them, else the customer's, else none.
    static api::Result<api::BillingControls> inForce(const QSqlDatabase &db, qint64 customerPk,
                                                     std::optional<qint64> entityPk);
    // PostgreSQL, for a batch: the controls in force for each owner
    // (customer, entity or -1), read in one statement.
    static api::Result<std::map<std::pair<qint64, qint64>, api::BillingControls>>
    inForceFor(const QSqlDatabase &db, const QList<std::pair<qint64, qint64>> &owners);
    static api::Result<api::Done> save(const QSqlDatabase &db, qint64 customerPk,
                                       std::optional<qint64> entityPk,
                                       const api::BillingControls &controls, qint64 nowMs);

    // The start of the limit's interval holding `atMs`: UTC calendar
    // periods, or periods counted from the customer's billing cycle (its
    // newest subscription's period start, else its creation).
    static api::Result<qint64> windowStart(const QSqlDatabase &db, qint64 customerPk,
                                           const api::UsageLimit &limit, qint64 atMs);
    // Usage counted toward the limit in the window starting at `start`.
    static api::Result<api::Decimal> windowUsage(const QSqlDatabase &db, qint64 customerPk,
                                                 std::optional<qint64> entityPk, qint64 featurePk,
                                                 const api::UsageLimit &limit, qint64 start);
    static api::Result<api::Done> addWindowUsage(const QSqlDatabase &db, Dialect dialect,
                                                 qint64 customerPk, std::optional<qint64> entityPk,
                                                 qint64 featurePk, const api::UsageLimit &limit,
                                                 qint64 start, api::Decimal amount);
    // The usage limits' `usage` filled in for the interval holding now.
    static api::Result<api::BillingControls> withUsage(const QSqlDatabase &db, qint64 customerPk,
                                                       std::optional<qint64> entityPk,
                                                       const Scope &scope,
                                                       api::BillingControls controls, qint64 nowMs);

    struct FiredAlert
    {
        qint64 featurePk = 0;
        api::UsageAlert alert;
        api::Decimal value;
    };
    // Recorded, and told to the webhooks subscribed to usage alerts.
    static api::Result<api::Done> recordAlert(const QSqlDatabase &db, Dialect dialect,
                                              KeyAllocator &keys, const Scope &scope,
                                              qint64 customerPk, std::optional<qint64> entityPk,
                                              const FiredAlert &fired, qint64 nowMs);
    // Newest first; `request.customerId` narrows to one customer.
    static api::Result<api::Page<api::UsageAlertEvent>>
    alerts(const QSqlDatabase &db, const Scope &scope, const api::PageRequest &request);
};

} // namespace md::engine
