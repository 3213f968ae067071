// A track_tokens call held to billing controls (docs/billing-controls.md):
// usage limits clamp a capped call and refuse one with no room left (429);
// spend limits refuse an overflowing call that would owe more than they
// allow (402); usage alerts fire when a call crosses their threshold.
// Everything here but windows() is arithmetic on values already read.
#pragma once

#include "services/api/Balance.h"
#include "services/api/BillingControls.h"
#include "services/engine/controls/BillingControlStore.h"

#include <QSqlDatabase>

namespace md::engine {

// A feature's balance rows summed (the customer's, or one entity's).
struct FeatureTotals
{
    api::Decimal granted; // included and prepaid grants
    api::Decimal included;
    api::Decimal remaining;
    api::Decimal usage;

    static FeatureTotals of(const QList<api::BalanceRow> &rows);
    // How far below zero the balance is.
    api::Decimal overage() const;
};

// A usage limit with the usage counted in its interval now running.
struct LimitWindow
{
    api::UsageLimit limit;
    qint64 start = 0;
    api::Decimal used;
};

class CallLimits final
{
public:
    static api::Result<QList<LimitWindow>> windows(const QSqlDatabase &db, qint64 customerPk,
                                                   std::optional<qint64> entityPk, qint64 featurePk,
                                                   const api::BillingControls &controls,
                                                   const QString &featureId, qint64 nowMs);
    // The most a capped call may deduct under its usage limits (nullopt when
    // none applies); 429 usage_limit_reached when a limit has no room left.
    static api::Result<std::optional<api::Decimal>>
    room(const QList<LimitWindow> &windows, const QString &customerId, const QString &featureId);
    // 402 spend_limit_reached when the call adds overage past a spend limit.
    static std::optional<api::ApiError>
    spendRefusal(const api::BillingControls &controls, const QString &customerId,
                 const QString &featureId, const FeatureTotals &before, const FeatureTotals &after);
    // The alerts whose threshold the call crossed.
    static QList<BillingControlStore::FiredAlert>
    crossed(const api::BillingControls &controls, const QString &featureId, qint64 featurePk,
            const FeatureTotals &before, const FeatureTotals &after);
};

} // namespace md::engine
