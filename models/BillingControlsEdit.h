// The billing controls form's model (docs/billing-controls.md): each list as
// the admin typed it, the request it makes (checked by the decoder the server
// uses, so a problem names its path: billing_controls.usageLimits[0].limit),
// what changes for "Review changes", and the controls in words.
#pragma once

#include "models/ProductEdit.h"
#include "services/api/BillingControls.h"

#include <QCoreApplication>

namespace md::models {

struct BillingControlsForm
{
    struct UsageLimit
    {
        QString featureId;
        QString limit;
        QString interval = QStringLiteral("month"); // day, week, month, year
        QString anchor = QStringLiteral("billing_cycle");
        bool enabled = true;
        friend bool operator==(const UsageLimit &, const UsageLimit &) = default;
    };
    struct SpendLimit
    {
        QString featureId; // empty: every feature
        QString limitType = QStringLiteral("absolute");
        QString overageLimit;
        bool enabled = true;
        friend bool operator==(const SpendLimit &, const SpendLimit &) = default;
    };
    struct UsageAlert
    {
        QString featureId; // empty: every feature
        QString thresholdType = QStringLiteral("usage_percentage");
        QString threshold;
        QString name;
        bool enabled = true;
        friend bool operator==(const UsageAlert &, const UsageAlert &) = default;
    };
    struct OverageAllowed
    {
        QString featureId;
        bool allowed = true;
        friend bool operator==(const OverageAllowed &, const OverageAllowed &) = default;
    };

    QList<UsageLimit> usageLimits;
    QList<SpendLimit> spendLimits;
    QList<UsageAlert> usageAlerts;
    QList<OverageAllowed> overageAllowed;

    static BillingControlsForm from(const api::BillingControls &controls);
};

class BillingControlsEdit final
{
    Q_DECLARE_TR_FUNCTIONS(BillingControlsEdit)

public:
    // The lists the form changes, replacing the stored ones; a list left as
    // the form showed it is not sent, so the server keeps it exactly.
    static api::Result<api::UpdateBillingControlsRequest>
    request(const api::BillingControlsAnswer &before, const BillingControlsForm &form);
    static QList<FieldChange> changes(const api::BillingControls &before,
                                      const api::BillingControls &after);
    // One line per control ("credits: at most 500 a month (12 used)"), or "none".
    static QStringList describe(const api::BillingControls &controls);
};

} // namespace md::models
