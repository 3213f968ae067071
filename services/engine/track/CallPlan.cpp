#include "services/engine/track/CallPlan.h"

#include <QUuid>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::Decimal;

api::Result<CallPlan> CallPlan::make(const api::TrackTokensRequest &request,
                                     const ResolvedCall &call, QList<api::BalanceRow> rows,
                                     const api::BillingControls &controls,
                                     const QList<LimitWindow> &windows, qint64 nowMs)
{
    CallPlan plan;
    plan.rows = std::move(rows);
    const QString &featureId = call.featureId;
    // Overflow unless the controls forbid overage for the feature.
    const bool overflow = request.overageBehavior == api::OverageBehavior::Overflow &&
                          controls.overageAllowedFor(featureId).value_or(true);
    const FeatureTotals before = FeatureTotals::of(plan.rows);
    Decimal amount = call.priced.free ? Decimal() : call.priced.value;
    if (!overflow && Decimal() < amount) { // usage limits clamp a capped call only
        auto room = CallLimits::room(windows, request.customerId, featureId);
        if (!room)
            return room.error();
        if (room.value())
            amount = std::min(amount, *room.value());
    }
    // Every row the call may draw on must still hold amounts afterwards
    // (below 10^20, docs/api.md): refused up front, never stored past it.
    for (const api::BalanceRow &row : std::as_const(plan.rows))
        if (!row.usage.plus(amount) || !row.remaining.minus(amount))
            return api::ApiError{
                400, api::ErrorCode::InvalidInputs,
                u"this call's cost, %1, would take balance \"%2\" past what an amount holds "
                "(below 10^20 in size)"_s.arg(amount.toString(), row.id)};
    const bool givesBack = amount.isNegative();
    plan.outcome = givesBack ? Deducter::giveBack(plan.rows, amount.negated())
                             : Deducter::take(plan.rows, amount, overflow, nowMs);
    if (!givesBack && overflow && Decimal() < plan.outcome.left && plan.rows.isEmpty()) {
        api::BalanceRow row;
        row.id = u"b_"_s + QUuid::createUuid().toString(QUuid::Id128);
        row.featureId = featureId;
        row.customerId = request.customerId;
        row.entityId = request.entityId;
        row.remaining = plan.outcome.left.negated();
        row.usage = plan.outcome.left;
        row.createdAt = nowMs;
        plan.outcome.taken.insert(row.id, plan.outcome.left);
        plan.outcome.touched.append(row.id);
        plan.outcome.left = Decimal();
        plan.overageRow = row;
    }
    QList<api::BalanceRow> after = plan.rows;
    if (plan.overageRow)
        after.append(*plan.overageRow);
    const FeatureTotals totals = FeatureTotals::of(after);
    if (overflow && !givesBack)
        if (auto refused =
                CallLimits::spendRefusal(controls, request.customerId, featureId, before, totals))
            return *refused;
    plan.alerts = CallLimits::crossed(controls, featureId, call.featurePk, before, totals);
    for (const Decimal &part : std::as_const(plan.outcome.taken))
        plan.deducted = plan.deducted.plus(part).value_or(plan.deducted);
    return plan;
}

api::TrackTokensResponse CallPlan::answer(const api::TrackTokensRequest &request,
                                          const ResolvedCall &call,
                                          const api::BillingControls &controls) const
{
    api::TrackTokensResponse response;
    response.customerId = request.customerId;
    response.value = call.priced.value;
    response.entityId = request.entityId;
    QList<api::BalanceRow> after = rows;
    if (overageRow)
        after.append(*overageRow);
    for (const QString &id : outcome.touched) {
        const auto row = std::find_if(after.cbegin(), after.cend(),
                                      [&](const api::BalanceRow &r) { return r.id == id; });
        response.deductions.append(
            {id, call.featureId, row->planId, row->reset, outcome.taken.value(id)});
    }
    api::BalanceSummary summary;
    summary.featureId = call.featureId;
    for (const api::BalanceRow &row : std::as_const(after))
        (void)summary.add(row); // sums of rows the engine keeps in range
    const std::optional<bool> allowed = controls.overageAllowedFor(call.featureId);
    summary.overageAllowed = allowed.value_or(summary.overageAllowed);
    response.balance = summary;
    response.balances.insert(call.featureId, summary);
    return response;
}

} // namespace md::engine
