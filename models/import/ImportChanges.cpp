#include "models/import/ImportChanges.h"

#include "models/common/AmountFormat.h"

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

// The identity fields the request writes that differ from the customer's;
// every field it gives for a new customer.
QList<IdentityChange> identityChanges(const std::optional<api::Customer> &before,
                                      const api::ImportCustomerRequest &request)
{
    QList<IdentityChange> changes;
    const auto compare = [&](IdentityChange::Field field, const QString &was, const QString &will) {
        if (!before || was != will)
            changes.append({field, before ? was : QString(), will});
    };
    if (const auto &data = request.customerData) {
        if (data->name)
            compare(IdentityChange::Name, before ? before->name : QString(), *data->name);
        if (data->email)
            compare(IdentityChange::Email, before ? before->email : QString(), *data->email);
        if (data->fingerprint)
            compare(IdentityChange::Fingerprint,
                    before ? before->fingerprint.value_or(QString()) : QString(),
                    *data->fingerprint);
        if (data->createdAt && (!before || before->createdAt != *data->createdAt))
            changes.append({IdentityChange::CreatedAt,
                            before ? formatTimestamp(before->createdAt) : QString(),
                            formatTimestamp(*data->createdAt)});
    }
    // A processor's id is recorded once: one the customer has stays as it is.
    for (const api::ProcessorIdentity &identity : request.processors) {
        const QString type = api::toWire(identity.type);
        if (!before || !before->processors.contains(type))
            changes.append({identity.type == api::Processor::Stripe ? IdentityChange::StripeId
                                                                    : IdentityChange::RevenueCatId,
                            QString(), identity.id});
    }
    return changes;
}

} // namespace

ImportChanges ImportChanges::project(const std::optional<api::Customer> &before,
                                     const api::ImportCustomerRequest &request,
                                     const api::ImportCustomerResponse &response,
                                     const QHash<QString, api::Product> &products)
{
    ImportChanges changes;
    changes.newCustomer = !before;
    changes.identity = identityChanges(before, request);
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
            // The plan in force ends: canceled when the file says so, else expired.
            it->after = flashed.status == api::PlanStatus::Canceled ? api::PlanStatus::Canceled
                                                                    : api::PlanStatus::Expired;
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

ImportOutcome ImportChanges::classify(bool existed, const api::ImportCustomerResponse &response,
                                      const ImportChanges &changes)
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
    if (!changes.identity.isEmpty() || any([](const api::FlashedPlan &f) { return !f.skipped; }))
        return ImportOutcome::Updated;
    return ImportOutcome::Unchanged;
}

QString ImportChanges::mismatchInWords(const api::ImportCustomerResponse &response)
{
    QStringList said;
    for (const api::FlashedPlan &flashed : response.flashed)
        for (const api::ProcessorDifference &difference : flashed.differences) {
            // "billables[0].plan.quantity" → "quantity"
            const QString field = difference.field.section(u'.', -1);
            said.append(tr("%1: the source says %2, Stripe %3")
                            .arg(field, difference.requested, difference.processor));
        }
    if (said.isEmpty())
        return tr("reported usage exceeds the plan's grant");
    return tr("Stripe says otherwise, and Stripe's is imported: %1").arg(said.join(u"; "_s));
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
    case ImportOutcome::Unchanged:
        return tr("unchanged");
    case ImportOutcome::Expired:
        return tr("expired");
    case ImportOutcome::Mismatch:
        return tr("mismatch");
    case ImportOutcome::Error:
        return tr("error");
    }
    return {};
}

QString ImportChanges::fieldName(IdentityChange::Field field)
{
    switch (field) {
    case IdentityChange::Name:
        return tr("name");
    case IdentityChange::Email:
        return tr("email");
    case IdentityChange::Fingerprint:
        return tr("fingerprint");
    case IdentityChange::CreatedAt:
        return tr("created");
    case IdentityChange::StripeId:
        return tr("Stripe id");
    case IdentityChange::RevenueCatId:
        return tr("RevenueCat id");
    }
    return {};
}

QString ImportChanges::unchangedWords(const QString &reason)
{
    if (reason == "already_active"_L1)
        return tr("unchanged: already in force");
    if (reason == "already_ended"_L1)
        return tr("unchanged: already ended");
    return tr("unchanged");
}

QString ImportChanges::summary() const
{
    QStringList parts;
    // A new customer's fields are all new: its plans say more.
    if (!newCustomer)
        for (const IdentityChange &change : identity)
            parts.append(tr("%1 changes").arg(fieldName(change.field)));
    for (const PlanChange &plan : plans) {
        if (!plan.after)
            continue;
        if (*plan.after == api::PlanStatus::Expired && plan.before)
            parts.append(tr("%1 expires").arg(plan.planId));
        else if (*plan.after == api::PlanStatus::Canceled && plan.before)
            parts.append(tr("%1 is canceled").arg(plan.planId));
        else
            parts.append(tr("+ %1 (%2)").arg(plan.planId, api::toWire(*plan.after)));
    }
    if (!parts.isEmpty() || newCustomer)
        return parts.join(u", "_s);
    const bool imported = std::any_of(plans.cbegin(), plans.cend(), [](const PlanChange &plan) {
        return plan.reason == "already_active"_L1 || plan.reason == "already_ended"_L1;
    });
    return imported ? tr("already imported: nothing changes") : tr("nothing changes");
}

} // namespace md::models
