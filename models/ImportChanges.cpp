#include "models/ImportChanges.h"

#include <QSet>

#include <map>

namespace md::models {

using namespace Qt::StringLiterals;

namespace {

struct Totals
{
    api::Decimal granted;
    api::Decimal remaining;
};

// Exact in 128 bits: a handful of validated amounts cannot overflow it, and a
// projection shown to the user need not stay within the wire's limits.
api::Decimal operator+(api::Decimal a, api::Decimal b)
{
    return api::Decimal::fromRaw(a.raw() + b.raw());
}

api::Decimal operator-(api::Decimal a, api::Decimal b)
{
    return api::Decimal::fromRaw(a.raw() - b.raw());
}

void operator+=(api::Decimal &a, api::Decimal b)
{
    a = a + b;
}

// A plan's grant of the feature after an import: the reported balance, or
// the grant less the reported usage.
api::Decimal remainingAfterImport(const api::Decimal &included, const api::ImportPlan *plan,
                                  const QString &featureId)
{
    if (plan)
        for (const api::ImportBalance &balance : plan->balances) {
            if (balance.featureId != featureId)
                continue;
            if (balance.balance)
                return *balance.balance;
            if (balance.usage)
                return included - *balance.usage;
        }
    return included;
}

const api::ImportPlan *findPlan(const api::ImportCustomerRequest &request, const QString &planId)
{
    for (const api::Billable &billable : request.billables)
        if (billable.plan.planId == planId)
            return &billable.plan;
    return nullptr;
}

} // namespace

ImportChanges ImportChanges::project(const std::optional<api::Customer> &before,
                                     const api::ImportCustomerRequest &request,
                                     const api::ImportCustomerResponse &response,
                                     const QHash<QString, api::Product> &products)
{
    ImportChanges changes;
    QSet<QString> expired;
    if (before)
        for (const api::Subscription &plan : before->subscriptions)
            changes.plans.append({plan.planId, plan.status, std::nullopt, {}});
    for (const api::FlashedPlan &flashed : response.flashed) {
        auto it =
            std::find_if(changes.plans.begin(), changes.plans.end(), [&](const PlanChange &p) {
                return p.planId == flashed.planId && !p.after;
            });
        if (it == changes.plans.end())
            it = changes.plans.insert(changes.plans.end(), {flashed.planId, std::nullopt, {}, {}});
        it->reason = flashed.reason.value_or(QString());
        if (flashed.expired.value_or(false)) {
            it->after = api::PlanStatus::Expired;
            expired.insert(flashed.planId);
        } else if (!flashed.skipped) {
            it->after = flashed.status;
        }
    }

    std::map<QString, std::pair<Totals, Totals>> totals; // feature → before, after
    if (before)
        for (auto it = before->balances.cbegin(); it != before->balances.cend(); ++it) {
            auto &[was, will] = totals[it.key()];
            was = {it->granted, it->remaining};
            if (it->breakdown.isEmpty()) {
                will = was;
                continue;
            }
            for (const api::BalanceBreakdownRow &row : it->breakdown)
                if (!row.planId || !expired.contains(*row.planId)) {
                    will.granted += row.includedGrant + row.prepaidGrant;
                    will.remaining += row.remaining;
                }
        }
    for (const api::FlashedPlan &flashed : response.flashed) {
        if (flashed.skipped || flashed.expired.value_or(false) ||
            flashed.status == api::PlanStatus::Canceled ||
            flashed.status == api::PlanStatus::Expired)
            continue;
        const auto product = products.constFind(flashed.planId);
        if (product == products.cend())
            continue;
        const api::ImportPlan *plan = findPlan(request, flashed.planId);
        for (const api::ProductItem &item : product->items) {
            if (!item.includedUsage || item.featureId.isEmpty())
                continue;
            Totals &will = totals[item.featureId].second;
            will.granted += *item.includedUsage;
            will.remaining += remainingAfterImport(*item.includedUsage, plan, item.featureId);
        }
    }
    for (const auto &[feature, pair] : totals)
        changes.balances.append({feature, pair.first.granted, pair.first.remaining,
                                 pair.second.granted, pair.second.remaining});
    return changes;
}

ImportOutcome ImportChanges::classify(bool existed, const api::ImportCustomerResponse &response)
{
    const auto any = [&](auto &&test) {
        return std::any_of(response.flashed.cbegin(), response.flashed.cend(), test);
    };
    if (any([](const api::FlashedPlan &f) { return f.mismatch.value_or(false); }))
        return ImportOutcome::Mismatch;
    if (!existed)
        return ImportOutcome::New;
    if (any([](const api::FlashedPlan &f) { return f.expired.value_or(false); }))
        return ImportOutcome::Expired;
    if (response.flashed.isEmpty() || any([](const api::FlashedPlan &f) { return !f.skipped; }))
        return ImportOutcome::Updated;
    return ImportOutcome::Skipped;
}

QString ImportChanges::outcomeName(ImportOutcome outcome)
{
    switch (outcome) {
    case ImportOutcome::Pending:
        return tr("pending");
    case ImportOutcome::New:
        return tr("new");
    case ImportOutcome::Updated:
        return tr("updated");
    case ImportOutcome::Skipped:
        return tr("skipped");
    case ImportOutcome::Expired:
        return tr("expired");
    case ImportOutcome::Mismatch:
        return tr("mismatch");
    case ImportOutcome::Error:
        return tr("error");
    }
    return {};
}

QString ImportChanges::summary() const
{
    QStringList parts;
    for (const PlanChange &plan : plans) {
        if (!plan.after)
            continue;
        if (*plan.after == api::PlanStatus::Expired && plan.before)
            parts.append(tr("%1 expires").arg(plan.planId));
        else
            parts.append(tr("+ %1 (%2)").arg(plan.planId, api::toWire(*plan.after)));
    }
    return parts.join(u", "_s);
}

} // namespace md::models
