#include "services/engine/customers/PlanAttacher.h"

#include "services/api/BillingPeriod.h"
#include "services/api/WireCodec.h"
#include "services/engine/clock/BalanceClock.h"
#include "services/engine/clock/ResetCharges.h"
#include "services/engine/sql/KeyAllocator.h"
#include "services/engine/sql/StoredJson.h"

#include <QUuid>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;
using api::Decimal;

namespace {

// The plan's key (migration 15): that of its lowest version, from a version's key.
const QString PlanKey =
    u"(SELECT f.pk FROM products p JOIN products f ON f.org_pk = p.org_pk AND f.env = p.env"
    " AND f.id = p.id WHERE p.pk = ? ORDER BY f.version LIMIT 1)"_s;

bool ended(api::PlanStatus status)
{
    return status == api::PlanStatus::Canceled || status == api::PlanStatus::Expired;
}

} // namespace

PlanAttacher::PlanAttacher(Context context, KeyAllocator &keys)
    : m_context(std::move(context))
    , m_keys(keys)
{}

api::Result<api::FlashedPlan> PlanAttacher::attach(qint64 customerPk, const api::Billable &billable,
                                                   const StoredPlan &plan, const ImportTerms &terms)
{
    api::FlashedPlan flashed;
    flashed.planId = billable.plan.planId;
    flashed.processor = billable.processor;
    flashed.status = billable.plan.status.value_or(api::PlanStatus::Active);
    const std::optional<QString> subscription =
        billable.link ? billable.link->subscriptionId : std::nullopt;
    // The same plan from the same processor; when both name a subscription,
    // only that one (a customer may hold one plan through two subscriptions).
    QString sql = u"SELECT cp.pk, cp.id, cp.status FROM customer_products cp JOIN products p"
                  " ON p.pk = cp.product_pk WHERE cp.customer_pk = ? AND p.id = ?"
                  " AND cp.processor = ?"_s;
    QVariantList binds{customerPk, billable.plan.planId, QString(api::toWire(billable.processor))};
    if (subscription) {
        sql += u" AND (cp.subscription_id IS NULL OR cp.subscription_id = ?)"_s;
        binds << *subscription;
    }
    auto current = queryRows(m_context.db, sql + u" ORDER BY cp.pk DESC"_s, binds);
    if (!current)
        return current.error();
    const auto found = [&](bool inForce) -> const QVariantList * {
        for (const QVariantList &row : std::as_const(current.value()))
            if (StoredPlan::inForce(row.at(2).toString()) == inForce)
                return &row;
        return nullptr;
    };
    const auto skip = [&](const QVariantList &row, const QString &reason) {
        flashed.skipped = true;
        flashed.reason = reason;
        if (!m_context.dryRun)
            flashed.customerProductId = row.at(1).toString();
        return flashed;
    };
    if (!ended(flashed.status)) {
        if (const QVariantList *active = found(true))
            return skip(*active, u"already_active"_s);
        return create(customerPk, billable, plan, terms, flashed);
    }
    // The processor says the subscription is over: the plan in force ends
    // now; one already ended stays as it is.
    if (const QVariantList *active = found(true)) {
        if (auto done = end(customerPk, active->at(0), flashed.status); !done)
            return done.error();
        flashed.expired = true;
        if (!m_context.dryRun)
            flashed.customerProductId = active->at(1).toString();
        return flashed;
    }
    if (const QVariantList *over = found(false))
        return skip(*over, u"already_ended"_s);
    return create(customerPk, billable, plan, terms, flashed);
}

api::Result<api::FlashedPlan> PlanAttacher::create(qint64 customerPk, const api::Billable &billable,
                                                   const StoredPlan &plan, const ImportTerms &terms,
                                                   api::FlashedPlan flashed)
{
    const QSqlDatabase &db = m_context.db;
    const qint64 now = m_context.now;
    const Decimal quantity = billable.plan.quantity.value_or(Decimal::fromInteger(1));
    if (!quantity.isInteger())
        return ApiError::invalidInputs(u"plan.quantity"_s, u"must be a whole number"_s);
    if (quantity > Decimal::fromInteger(api::MaxSafeInteger))
        return ApiError::invalidInputs(u"plan.quantity"_s, u"is too large"_s);
    const qint64 units = qint64(quantity.raw() / Decimal::One);
    auto productPk = m_keys.next(u"customer_products"_s);
    if (!productPk)
        return productPk.error();
    const QString productId = u"cp_"_s + QUuid::createUuid().toString(QUuid::Id128);
    // A plan recorded as canceled or expired is history: stored expired (as
    // the clock stores a plan whose end came; canceled_at tells a canceled
    // one), its balances expired from the start, so it grants nothing.
    const bool over = ended(flashed.status);
    // The period that holds now, counted from the billing cycle anchor
    // (or the plan's start); item resets fall on their own periods' ends.
    const qint64 startedAt = billable.plan.startedAt.value_or(now);
    const qint64 anchor = billable.billingCycleAnchor.value_or(startedAt);
    const auto [periodStart, periodEnd] =
        api::BillingPeriod::containing(StoredPlan::renewalInterval(plan.items), anchor, now);
    // The processor's trial end and end, when it said; else the plan's trial.
    const std::optional<qint64> trialEndsAt =
        over ? std::nullopt
             : (flashed.status == api::PlanStatus::Trialing && terms.trialEndsAt
                    ? terms.trialEndsAt
                    : plan.trialEndOf(flashed.status, startedAt));
    const QVariant expiresAt =
        over ? QVariant(now) : (terms.endsAt ? QVariant(*terms.endsAt) : QVariant());
    const QVariant canceledAt = flashed.status == api::PlanStatus::Canceled
                                    ? QVariant(terms.canceledAt.value_or(now))
                                    : (terms.canceledAt ? QVariant(*terms.canceledAt) : QVariant());
    if (auto inserted = execute(
            db,
            u"INSERT INTO customer_products (pk, id, customer_pk, product_pk, processor,"
            " subscription_id, schedule_id, status, quantity, started_at,"
            " current_period_start, current_period_end, expires_at, canceled_at,"
            " created_at, period_anchor, trial_ends_at, plan_pk)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "_s +
                PlanKey + u")"_s,
            {productPk.value(), productId, customerPk, plan.pk,
             QString(api::toWire(billable.processor)),
             billable.link && billable.link->subscriptionId
                 ? QVariant(*billable.link->subscriptionId)
                 : QVariant(),
             billable.link && billable.link->scheduleId ? QVariant(*billable.link->scheduleId)
                                                        : QVariant(),
             over ? u"expired"_s : QString(api::toWire(flashed.status)), units, startedAt,
             periodStart, periodEnd, expiresAt, canceledAt, now, anchor,
             trialEndsAt ? QVariant(*trialEndsAt) : QVariant(), plan.pk});
        !inserted)
        return inserted.error();
    // One balance per plan item, the reported usage applied to the grant it matches.
    QList<bool> used(billable.plan.balances.size(), false);
    for (const api::ProductItem &item : plan.items) {
        if (!m_context.featurePks.contains(item.featureId))
            continue;
        const qint64 featurePk = m_context.featurePks.value(item.featureId);
        const auto included = item.includedUsage.value_or(Decimal()).mulDiv(units, 1);
        if (!included)
            return ApiError::invalidInputs(u"plan.quantity"_s, u"is too large"_s);
        Decimal prepaid;
        for (const api::FeatureQuantity &bought : billable.plan.featureQuantities)
            if (bought.featureId == item.featureId)
                prepaid = bought.quantity;
        // Every figure of the balance must stay an amount (below 10^20):
        // refused here, never stored past it.
        const auto sum = included.value().plus(prepaid);
        if (!sum)
            return ApiError::invalidInputs(
                u"plan.feature_quantities"_s,
                u"%1: included and prepaid together pass what an amount holds"_s.arg(
                    item.featureId));
        const Decimal granted = *sum;
        Decimal usage;
        Decimal remaining = granted;
        std::optional<qint64> resetsAt;
        for (qsizetype j = 0; j < billable.plan.balances.size(); ++j) {
            const api::ImportBalance &reported = billable.plan.balances.at(j);
            if (used.at(j) || !StoredPlan::matches(reported, item))
                continue;
            used[j] = true;
            const auto left =
                reported.usage ? granted.minus(*reported.usage) : std::optional<Decimal>(granted);
            const auto spent = reported.balance ? granted.minus(*reported.balance)
                                                : std::optional<Decimal>(Decimal());
            if (!left || !spent)
                return ApiError::invalidInputs(
                    u"plan.balances"_s,
                    u"%1: the grant less what is reported passes what an amount holds"_s.arg(
                        item.featureId));
            if (reported.usage) {
                usage = *reported.usage;
                remaining = *left;
            } else if (reported.balance) {
                remaining = *reported.balance;
                usage = *spent;
            }
            resetsAt = reported.nextResetAt;
            if (remaining.isNegative())
                flashed.mismatch = true; // more used than the plan grants
            break;
        }
        const bool resets = item.interval && *item.interval != api::ResetInterval::OneOff;
        // Resets count from the reported next reset, else from the plan's
        // anchor, every interval_count intervals (BalanceClock).
        ClockedBalance clocked;
        clocked.standalone = false;
        if (resets) {
            clocked.interval = *item.interval;
            clocked.intervalCount = item.intervalCount.value_or(1);
            clocked.anchor = resetsAt.value_or(anchor);
            clocked.resetsAt = resetsAt.value_or(
                BalanceClock::nextReset(clocked.interval, clocked.intervalCount, anchor, now));
        }
        const std::optional<qint64> dueAt = over ? std::nullopt : BalanceClock::dueAt(clocked);
        auto balancePk = m_keys.next(u"balances"_s);
        if (!balancePk)
            return balancePk.error();
        const std::optional<api::Price> price = StoredPlan::priceOf(item);
        const QString balanceId = u"b_"_s + QUuid::createUuid().toString(QUuid::Id128);
        if (auto inserted = execute(
                db,
                u"INSERT INTO balances (pk, id, org_pk, env, customer_pk, feature_pk,"
                " customer_product_pk, included_grant, prepaid_grant, remaining, usage,"
                " unlimited, overage_allowed, reset_interval, reset_interval_count, resets_at,"
                " price, expires_at, created_at, reset_anchor, rollover, due_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s,
                {balancePk.value(),
                 balanceId,
                 m_context.scope.orgPk,
                 m_context.scope.envWord(),
                 customerPk,
                 featurePk,
                 productPk.value(),
                 included.value().toString(),
                 prepaid.toString(),
                 remaining.toString(),
                 usage.toString(),
                 int(price && StoredPlan::billingMethodOf(item) == api::BillingMethod::UsageBased),
                 resets ? QVariant(QString(api::toWire(*item.interval))) : QVariant(),
                 resets ? QVariant(clocked.intervalCount) : QVariant(),
                 resets ? QVariant(*clocked.resetsAt) : QVariant(),
                 price ? QVariant(storedText(*price)) : QVariant(),
                 over ? QVariant(now) : QVariant(),
                 now,
                 resets ? QVariant(clocked.anchor) : QVariant(),
                 resets && item.rollover ? QVariant(storedText(*item.rollover)) : QVariant(),
                 dueAt ? QVariant(*dueAt) : QVariant()});
            !inserted)
            return inserted.error();
        // What was bought is billed as it is bought (docs/billing.md).
        if (price && !over) {
            const ResetCharges::Row row{m_context.scope,
                                        customerPk,
                                        balanceId,
                                        item.featureId,
                                        billable.plan.planId,
                                        std::nullopt,
                                        storedText(*price),
                                        granted,
                                        prepaid,
                                        false,
                                        m_context.creditSystems.contains(item.featureId),
                                        trialEndsAt,
                                        m_context.money};
            auto bought = ResetCharges::purchase(row, now);
            if (!bought)
                return bought.error();
            if (bought.value())
                if (auto written = ResetCharges::write(db, {*bought.value()}, m_keys); !written)
                    return written.error();
        }
        m_ledger += BalanceLedger::planGrant(m_context.scope, customerPk, featurePk, balanceId,
                                             granted, remaining, usage, over);
    }
    if (flashed.mismatch)
        flashed.reason = u"usage_exceeds_grant"_s;
    if (!m_context.dryRun)
        flashed.customerProductId = productId;
    return flashed;
}

api::Result<api::Done> PlanAttacher::end(qint64 customerPk, const QVariant &customerProductPk,
                                         api::PlanStatus status)
{
    const qint64 now = m_context.now;
    const bool canceled = status == api::PlanStatus::Canceled;
    // Expired, as the clock leaves a plan whose end came (PlanClock), so it
    // writes no second expiry; canceled_at tells a canceled one.
    if (auto updated =
            execute(m_context.db,
                    u"UPDATE customer_products SET status = 'expired', expires_at = ?,"
                    " canceled_at = COALESCE(canceled_at, ?) WHERE pk = ?"_s,
                    {now, canceled ? QVariant(now) : QVariant(QMetaType::fromType<qint64>()),
                     customerProductPk});
        !updated)
        return updated.error();
    // Nothing falls due for its balances any more, as PlanClock leaves them.
    if (auto updated = execute(
            m_context.db,
            u"UPDATE balances SET expires_at = ?, due_at = NULL WHERE customer_product_pk = ?"_s,
            {now, customerProductPk});
        !updated)
        return updated.error();
    auto given =
        BalanceLedger::expiriesOf(m_context.db, m_context.scope, customerPk, customerProductPk);
    if (!given)
        return given.error();
    m_ledger += given.value();
    return api::Done{};
}

api::Result<QList<api::FlashedPlan>>
PlanAttacher::expireMissing(qint64 customerPk, const api::ImportCustomerRequest &request,
                            const QSet<QString> &named)
{
    QSet<QString> processors;
    for (const api::Billable &billable : request.billables)
        processors.insert(api::toWire(billable.processor));
    for (const api::ProcessorIdentity &identity : request.processors)
        processors.insert(api::toWire(identity.type));
    auto current = queryRows(m_context.db,
                             u"SELECT cp.pk, cp.id, cp.processor, cp.status, p.id"
                             " FROM customer_products cp JOIN products p ON p.pk = cp.product_pk"
                             " WHERE cp.customer_pk = ? ORDER BY cp.pk"_s,
                             {customerPk});
    if (!current)
        return current.error();
    QList<api::FlashedPlan> expired;
    for (const QVariantList &row : std::as_const(current.value())) {
        const QString processor = row.at(2).toString();
        if (!processors.contains(processor) || !StoredPlan::inForce(row.at(3).toString()) ||
            named.contains(processor + u'/' + row.at(4).toString()))
            continue;
        if (auto done = end(customerPk, row.at(0), api::PlanStatus::Expired); !done)
            return done.error();
        api::FlashedPlan flashed;
        flashed.planId = row.at(4).toString();
        flashed.processor =
            processor == "revenuecat"_L1 ? api::Processor::RevenueCat : api::Processor::Stripe;
        if (!m_context.dryRun)
            flashed.customerProductId = row.at(1).toString();
        flashed.status = api::PlanStatus::Expired;
        flashed.expired = true;
        expired.append(flashed);
    }
    return expired;
}

} // namespace md::engine
