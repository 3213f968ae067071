// What one balances.track_tokens call does to its feature's balance rows,
// worked out from values already read (docs/billing-controls.md, docs/api.md):
// usage limits clamp a capped call, the deduction order (Deducter), overflow
// onto a new standalone row when the customer has none, spend limits, and
// the alerts the call crosses. Pure: no database, so TrackBatch can plan many
// calls against one read of the rows.
#pragma once

#include "services/api/BillingControls.h"
#include "services/api/TrackTokens.h"
#include "services/engine/controls/CallLimits.h"
#include "services/engine/track/CallResolver.h"
#include "services/engine/track/Deducter.h"

namespace md::engine {

struct CallPlan
{
    QList<api::BalanceRow> rows; // as they will be, in deduction order
    Deducter::Outcome outcome;
    // Overflow with no active row: the usage lands on a new standalone row
    // that goes negative, never nowhere (docs/billing-controls.md).
    std::optional<api::BalanceRow> overageRow;
    QList<BillingControlStore::FiredAlert> alerts;
    api::Decimal deducted; // what the rows took in all

    // `rows` are the feature's active rows in deduction order; `windows`
    // the call's usage limits with the usage counted so far.
    static api::Result<CallPlan> make(const api::TrackTokensRequest &request,
                                      const ResolvedCall &call, QList<api::BalanceRow> rows,
                                      const api::BillingControls &controls,
                                      const QList<LimitWindow> &windows, qint64 nowMs);

    // The call's answer: its deductions and the feature's balance after it.
    api::TrackTokensResponse answer(const api::TrackTokensRequest &request,
                                    const ResolvedCall &call,
                                    const api::BillingControls &controls) const;
};

} // namespace md::engine
