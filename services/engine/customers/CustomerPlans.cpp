#include "services/engine/customers/CustomerPlans.h"

#include "services/api/BillingPeriod.h"
#include "services/engine/customers/StoredPlan.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/sql/StoredJson.h"

namespace md::engine {

using namespace Qt::StringLiterals;

api::Result<QHash<qint64, QList<CustomerPlan>>>
CustomerPlans::of(const QSqlDatabase &db, Dialect dialect, const QList<qint64> &customerPks)
{
    QHash<qint64, QList<CustomerPlan>> plans;
    if (customerPks.isEmpty())
        return plans;
    QVariantList binds;
    const QString which = inKeys(dialect, u"cp.customer_pk"_s, customerPks, binds);
    auto rows = queryRows(
        db,
        u"SELECT cp.customer_pk, p.id, p.is_add_on, cp.status, cp.quantity, cp.started_at,"
        " cp.trial_ends_at, cp.expires_at,"
        " COALESCE(cp.period_anchor, cp.current_period_start, cp.started_at), p.items"
        " FROM customer_products cp JOIN products p ON p.pk = cp.product_pk WHERE "_s +
            which + u" ORDER BY cp.customer_pk, cp.pk"_s,
        binds);
    if (!rows)
        return rows.error();
    // Many customers share a plan version: its items are decoded once.
    QHash<QString, QList<api::ProductItem>> decoded;
    for (const QVariantList &row : std::as_const(rows.value())) {
        CustomerPlan plan;
        plan.id = row.at(1).toString();
        plan.addOn = row.at(2).toInt() != 0;
        plan.subscription.status =
            api::readPlanStatus(api::JsonReader(api::JsonValue::string(row.at(3).toString())));
        plan.subscription.quantity = row.at(4).toLongLong();
        plan.subscription.startedAt = row.at(5).toLongLong();
        plan.subscription.trialEndsAt = optionalInteger(row.at(6));
        plan.subscription.expiresAt = optionalInteger(row.at(7));
        plan.anchor = row.at(8).toLongLong();
        const QString stored = row.at(9).toString();
        auto known = decoded.constFind(stored);
        if (known == decoded.cend()) {
            auto items = decodeStored(row.at(9), u"items of plan %1"_s.arg(plan.id),
                                      &api::readList<api::ProductItem>);
            if (!items)
                return items.error();
            known = decoded.insert(stored, items.value());
        }
        plan.items = *known;
        plan.renewal = StoredPlan::renewalInterval(plan.items);
        plans[row.at(0).toLongLong()].append(std::move(plan));
    }
    return plans;
}

namespace {

// The period holding `atMs` of a plan whose anchor (its current period's
// start) comes later: counted back from the anchor, as its later periods
// count on from it. (BillingPeriod::containing starts at the anchor.)
std::pair<qint64, qint64> before(api::ResetInterval interval, qint64 anchorMs, qint64 atMs)
{
    // Each interval is at least the shortest, so this many back is at or before `atMs`.
    const qint64 shortest = std::max<qint64>(1, api::BillingPeriod::shortestMs(interval));
    qint64 n = -((anchorMs - atMs) / shortest) - 1;
    while (api::BillingPeriod::advance(interval, anchorMs, n + 1) <= atMs)
        ++n;
    return {api::BillingPeriod::advance(interval, anchorMs, n),
            api::BillingPeriod::advance(interval, anchorMs, n + 1)};
}

} // namespace

std::pair<qint64, qint64> CustomerPlans::periodAt(const QList<CustomerPlan> &plans, qint64 atMs)
{
    for (const bool addOns : {false, true})
        for (const CustomerPlan &plan : plans) {
            const Subscription &s = plan.subscription;
            const bool on = s.status != api::PlanStatus::Expired && s.startedAt <= atMs &&
                            (!s.expiresAt || *s.expiresAt > atMs);
            if (plan.addOn == addOns && on && plan.renewal != api::ResetInterval::OneOff)
                return plan.anchor <= atMs
                           ? api::BillingPeriod::containing(plan.renewal, plan.anchor, atMs)
                           : before(plan.renewal, plan.anchor, atMs);
        }
    return api::BillingPeriod::containing(api::ResetInterval::Month, 0, atMs);
}

api::Result<qint64>
CustomerPlans::openFirstPeriods(const QSqlDatabase &db, Dialect dialect,
                                const QList<std::pair<qint64, qint64>> &customers)
{
    QList<qint64> pks;
    for (const auto &[pk, at] : customers)
        pks.append(pk);
    auto plans = of(db, dialect, pks);
    if (!plans)
        return plans.error();
    qint64 opened = 0;
    for (const auto &[pk, at] : customers) {
        const auto [start, end] = periodAt(plans.value().value(pk), at);
        auto updated = queryRows(db,
                                 u"UPDATE customers SET statement_from = ?, statement_due_at = ?"
                                 " WHERE pk = ? AND statement_due_at IS NULL RETURNING pk"_s,
                                 {start, end, pk});
        if (!updated)
            return updated.error();
        opened += updated.value().size();
    }
    return opened;
}

api::Result<QList<api::ChargeLine>> CustomerPlans::fixedLines(const QList<CustomerPlan> &plans,
                                                              qint64 start, qint64 end,
                                                              int minorDigits)
{
    QList<api::ChargeLine> lines;
    for (const CustomerPlan &plan : plans)
        for (const api::ProductItem &item : plan.items) {
            auto fixed = FixedCharges::forPeriod(item, plan.subscription, start, end, minorDigits);
            if (!fixed)
                return fixed.error();
            if (!fixed.value())
                continue;
            api::ChargeLine line;
            line.kind = api::ChargeKind::Fixed;
            line.planId = plan.id;
            line.quantity = api::Decimal::fromInteger(fixed.value()->quantity);
            line.amount = fixed.value()->amount;
            line.description = u"%1 × %2 for plan %3%4"_s.arg(
                QString::number(fixed.value()->quantity), fixed.value()->unitPrice.toString(),
                plan.id,
                fixed.value()->capped
                    ? u": more than the largest line, billed at %1"_s.arg(line.amount.toString())
                    : QString());
            lines.append(std::move(line));
        }
    return lines;
}

} // namespace md::engine
