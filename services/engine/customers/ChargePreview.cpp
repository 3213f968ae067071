#include "services/engine/customers/ChargePreview.h"

#include "services/api/BillingPeriod.h"
#include "services/api/Product.h"
#include "services/engine/balances/BalanceLister.h"
#include "services/engine/charges/FixedCharge.h"
#include "services/engine/charges/UsageCharge.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/sql/StoredJson.h"

namespace md::engine {

using api::ApiError;
using api::Decimal;
using namespace Qt::StringLiterals;

namespace {

struct Plan
{
    QString id;
    bool addOn = false;
    Subscription subscription;
    std::optional<qint64> periodStart;
    std::optional<qint64> periodEnd;
    QList<api::ProductItem> items;
};

api::Result<QList<Plan>> plansOf(const QSqlDatabase &db, qint64 customerPk)
{
    auto rows = queryRows(
        db,
        u"SELECT p.id, p.is_add_on, cp.status, cp.quantity, cp.started_at, cp.trial_ends_at,"
        " cp.expires_at, cp.current_period_start, cp.current_period_end, p.items"
        " FROM customer_products cp JOIN products p ON p.pk = cp.product_pk"
        " WHERE cp.customer_pk = ? ORDER BY cp.pk"_s,
        {customerPk});
    if (!rows)
        return rows.error();
    QList<Plan> plans;
    for (const QVariantList &row : std::as_const(rows.value())) {
        Plan plan;
        plan.id = row.at(0).toString();
        plan.addOn = row.at(1).toInt() != 0;
        const QString status = row.at(2).toString();
        plan.subscription.status =
            api::readPlanStatus(api::JsonReader(api::JsonValue::string(status)));
        plan.subscription.quantity = row.at(3).toLongLong();
        plan.subscription.startedAt = row.at(4).toLongLong();
        plan.subscription.trialEndsAt = optionalInteger(row.at(5));
        plan.subscription.expiresAt = optionalInteger(row.at(6));
        plan.periodStart = optionalInteger(row.at(7));
        plan.periodEnd = optionalInteger(row.at(8));
        auto items = decodeStored(row.at(9), u"items of plan %1"_s.arg(plan.id),
                                  &api::readList<api::ProductItem>);
        if (!items)
            return items.error();
        plan.items = items.value();
        plans.append(plan);
    }
    return plans;
}

// The customer's billing period: its first plan in force that has a
// period, a plan before an add-on; else the calendar month in UTC.
std::pair<qint64, qint64> periodOf(const QList<Plan> &plans, qint64 nowMs)
{
    for (const bool addOns : {false, true})
        for (const Plan &plan : plans) {
            const bool ended =
                plan.subscription.status == api::PlanStatus::Expired ||
                (plan.subscription.expiresAt && *plan.subscription.expiresAt <= nowMs);
            if (plan.addOn == addOns && !ended && plan.periodStart && plan.periodEnd &&
                *plan.periodEnd > *plan.periodStart)
                return {*plan.periodStart, *plan.periodEnd};
        }
    return api::BillingPeriod::containing(api::ResetInterval::Month, 0, nowMs);
}

} // namespace

api::Result<api::ChargesPreview> ChargePreview::preview(const QSqlDatabase &db, const Scope &scope,
                                                        const QString &customerId, qint64 nowMs)
{
    auto customer =
        queryRows(db, u"SELECT pk FROM customers WHERE org_pk = ? AND env = ? AND id = ?"_s,
                  {scope.orgPk, scope.envWord(), customerId});
    if (!customer)
        return customer.error();
    if (customer.value().isEmpty())
        return ApiError::notFound(api::ErrorCode::CustomerNotFound,
                                  u"customer \"%1\" does not exist"_s.arg(customerId));
    auto plans = plansOf(db, customer.value().first().first().toLongLong());
    if (!plans)
        return plans.error();
    api::ChargesPreview preview;
    preview.customerId = customerId;
    preview.currency = Currency;
    std::tie(preview.periodStart, preview.periodEnd) = periodOf(plans.value(), nowMs);
    Decimal total;
    const auto add = [&](api::ChargeLine line) -> api::Result<api::Done> {
        const auto sum = total.sum(line.amount);
        if (!sum)
            return ApiError::internal(u"the charges leave the range of sums"_s);
        total = *sum;
        preview.lines.append(std::move(line));
        return api::Done{};
    };

    for (const Plan &plan : std::as_const(plans.value()))
        for (const api::ProductItem &item : plan.items) {
            auto fixed = FixedCharges::forPeriod(item, plan.subscription, preview.periodStart,
                                                 preview.periodEnd, MinorDigits);
            if (!fixed)
                return fixed.error();
            if (!fixed.value())
                continue;
            api::ChargeLine line;
            line.kind = api::ChargeKind::Fixed;
            line.planId = plan.id;
            line.quantity = Decimal::fromInteger(fixed.value()->quantity);
            line.amount = fixed.value()->amount;
            line.description =
                u"%1 × %2 for plan %3"_s.arg(QString::number(fixed.value()->quantity),
                                             fixed.value()->unitPrice.toString(), plan.id);
            if (auto added = add(std::move(line)); !added)
                return added.error();
        }

    // The customer's active rows, in the listing's order: each usage-based
    // row with a price owes for its usage past its grant since its last reset.
    api::ListBalancesRequest request;
    request.customerId = customerId;
    request.limit = api::ListBalancesRequest::MaxLimit;
    for (;;) {
        auto page = BalanceLister::list(db, scope, request, nowMs);
        if (!page)
            return page.error();
        for (const api::BalanceRow &row : std::as_const(page.value().list)) {
            if (!row.price || row.unlimited ||
                row.price->billingMethod != api::BillingMethod::UsageBased)
                continue;
            const auto grant = row.includedGrant.plus(row.prepaidGrant);
            if (!grant)
                return ApiError::internal(u"the grant of %1 leaves the range"_s.arg(row.id));
            auto charge = UsageCharges::charge(*row.price, row.usage, *grant, MinorDigits);
            if (!charge)
                return ApiError::internal(
                    u"balance %1's price: %2"_s.arg(row.id, charge.error().message));
            api::ChargeLine line;
            line.kind = api::ChargeKind::Usage;
            line.planId = row.planId;
            line.featureId = row.featureId;
            line.entityId = row.entityId;
            line.balanceId = row.id;
            line.quantity = charge.value().pastGrant;
            line.billableUnits = charge.value().billableUnits;
            line.amount = charge.value().amount;
            line.description = charge.value().pastGrant.isZero()
                                   ? u"%1 %2 used of %3 included: nothing past it"_s.arg(
                                         row.usage.toString(), row.featureId, grant->toString())
                                   : u"%1 %2 used, %3 included: %4 billed as %5 = %6"_s.arg(
                                         row.usage.toString(), row.featureId, grant->toString(),
                                         charge.value().pastGrant.toString(),
                                         charge.value().billableUnits.toString(),
                                         charge.value().amount.toString());
            if (auto added = add(std::move(line)); !added)
                return added.error();
        }
        if (!page.value().hasMore)
            break;
        request.startCursor = *page.value().nextCursor;
    }
    preview.total = total;
    return preview;
}

} // namespace md::engine
