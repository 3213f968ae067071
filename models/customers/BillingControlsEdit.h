// The billing controls form's model (docs/billing-controls.md): each list as
// the admin typed it, the request it makes (checked by the decoder the server
// uses, so a problem names its path: billing_controls.usageLimits[0].limit),
// what changes for "Review changes", the controls in words, and what each
// usage alert watches now, with a warning for one already past.
#pragma once

#include "models/common/FieldChange.h"
#include "services/api/BillingControls.h"
#include "services/backend/BillingBackend.h"

#include <QCoreApplication>
#include <QLocale>
#include <QMap>

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

// One feature's balances added up as a call of the owner meets them (its own
// active rows): the figures its usage alerts watch.
struct FeatureStanding
{
    api::Decimal granted; // included and prepaid
    api::Decimal remaining;
    api::Decimal usage;
};
using Standing = QMap<QString, FeatureStanding>; // by feature id

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

    // Every active balance row of the owner's customer (its entity's, for an
    // entity), page after page; the continuations run on `context`'s thread.
    static backend::Reply<QList<api::BalanceRow>>
    rowsOf(backend::BillingBackend *backend, const api::ControlsOwner &owner, QObject *context);
    // `rows` added up by feature, only those of `entityId` (none: the
    // customer's own), as the engine adds them for an alert.
    static Standing standing(const QList<api::BalanceRow> &rows,
                             const std::optional<QString> &entityId);
    // What an alert of `type` watches now: usage, remaining, or either as a
    // percentage of the grant (nullopt without a grant: it cannot fire).
    static std::optional<api::Decimal> watched(api::ThresholdType type,
                                               const FeatureStanding &figures);
    // The alert's quantity now, for the form beside its threshold: "138.94
    // used", "40 % remaining"; each feature's for an alert on every feature.
    static QString now(const BillingControlsForm::UsageAlert &alert, const Standing &standing,
                       const QLocale &locale = QLocale());
    // Why the alert (row `row` of the form) will not fire as things stand:
    // already past its threshold, or a percentage of no grant; empty when
    // it can fire, or while the row is not valid.
    static QStringList warnings(int row, const BillingControlsForm::UsageAlert &alert,
                                const Standing &standing, const QLocale &locale = QLocale());
};

} // namespace md::models
