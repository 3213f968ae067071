#include "services/engine/customers/CustomerImporter.h"

#include "services/engine/customers/StoredPlan.h"

#include "services/api/BillingPeriod.h"
#include "services/api/WireCodec.h"
#include "services/engine/clock/BalanceClock.h"
#include "services/engine/customers/CustomerReads.h"
#include "services/engine/ledger/BalanceLedger.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/sql/StoredJson.h"

#include <QDateTime>
#include <QUuid>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;
using api::Decimal;

namespace {

class Importer
{
public:
    Importer(const QSqlDatabase &db, Dialect dialect, const Scope &scope, qint64 nowMs)
        : m_db(db)
        , m_dialect(dialect)
        , m_scope(scope)
        , m_now(nowMs)
        , m_keys(db, dialect)
    {}

    api::Result<api::ImportCustomerResponse> run(const api::ImportCustomerRequest &request)
    {
        m_dryRun = request.dryRun;
        if (auto checked = checkProcessors(request); !checked)
            return checked.error();
        QList<StoredPlan> plans;
        for (qsizetype i = 0; i < request.billables.size(); ++i) {
            const api::Billable &billable = request.billables.at(i);
            auto plan = StoredPlan::find(m_db, m_scope, billable.plan,
                                         u"billables[%1].plan.plan_id"_s.arg(i));
            if (!plan)
                return plan.error();
            if (auto checked = checkBalances(billable.plan, plan.value(), i); !checked)
                return checked.error();
            plans.append(plan.value());
        }
        auto customer = upsertCustomer(request);
        if (!customer)
            return customer.error();
        const qint64 customerPk = customer.value();

        api::ImportCustomerResponse response;
        response.customerId = request.customerId;
        QSet<QString> named; // processor/plan pairs in the payload
        for (qsizetype i = 0; i < request.billables.size(); ++i) {
            const api::Billable &billable = request.billables.at(i);
            named.insert(api::toWire(billable.processor) + u'/' + billable.plan.planId);
            auto flashed = attach(customerPk, billable, plans.at(i));
            if (!flashed)
                return flashed.error();
            response.flashed.append(flashed.value());
        }
        auto expired = expireMissing(customerPk, request, named);
        if (!expired)
            return expired.error();
        response.flashed += expired.value();
        if (auto written =
                BalanceLedger::write(m_db, m_dialect, u"customers.import"_s, m_now, m_ledger);
            !written)
            return written.error();
        return response;
    }

private:
    api::Result<api::Done> checkProcessors(const api::ImportCustomerRequest &request)
    {
        QHash<api::Processor, qsizetype> seen;
        for (qsizetype i = 0; i < request.processors.size(); ++i) {
            const api::ProcessorIdentity &identity = request.processors.at(i);
            const auto first = seen.constFind(identity.type);
            if (first != seen.cend() && request.processors.at(*first).id != identity.id)
                return ApiError::invalidInputs(
                    u"processors[%1].id"_s.arg(i),
                    u"conflicts with processors[%1]: one %2 identity per customer"_s.arg(*first)
                        .arg(api::toWire(identity.type)));
            seen.insert(identity.type, i);
        }
        auto stored = queryRows(m_db,
                                u"SELECT p.type, p.external_id FROM customer_processors p"
                                " JOIN customers c ON c.pk = p.customer_pk"
                                " WHERE c.org_pk = ? AND c.env = ? AND c.id = ?"_s,
                                {m_scope.orgPk, m_scope.envWord(), request.customerId});
        if (!stored)
            return stored.error();
        for (const QVariantList &row : std::as_const(stored.value()))
            for (qsizetype i = 0; i < request.processors.size(); ++i)
                if (api::toWire(request.processors.at(i).type) == row.at(0).toString() &&
                    request.processors.at(i).id != row.at(1).toString())
                    return ApiError::invalidInputs(
                        u"processors[%1].id"_s.arg(i),
                        u"customer \"%1\" is already linked to %2 \"%3\"; it cannot change by import"_s
                            .arg(request.customerId, row.at(0).toString(), row.at(1).toString()));
        return api::Done{};
    }

    api::Result<api::Done> checkBalances(const api::ImportPlan &plan, const StoredPlan &stored,
                                         qsizetype billable)
    {
        for (qsizetype j = 0; j < plan.balances.size(); ++j) {
            const api::ImportBalance &reported = plan.balances.at(j);
            const QString path = u"billables[%1].plan.balances[%2]"_s.arg(billable).arg(j);
            auto known = lookUpFeature(reported.featureId);
            if (!known)
                return known.error();
            if (!known.value())
                return ApiError::notFound(u"feature_not_found"_s,
                                          u"%1.feature_id: feature \"%2\" does not exist"_s.arg(
                                              path, reported.featureId));
            if (reported.usage && reported.balance)
                return ApiError::invalidInputs(path + u".balance"_s,
                                               u"give usage or balance, not both"_s);
            if (std::none_of(stored.items.cbegin(), stored.items.cend(),
                             [&](const api::ProductItem &item) {
                                 return StoredPlan::matches(reported, item);
                             }))
                return ApiError::invalidInputs(
                    path + u".feature_id"_s,
                    u"plan \"%1\" has no grant of feature \"%2\"%3"_s.arg(
                        plan.planId, reported.featureId,
                        reported.filter ? u" matching the filter"_s : QString()));
        }
        for (const api::ProductItem &item : stored.items)
            if (auto known = lookUpFeature(item.featureId); !known)
                return known.error();
        return api::Done{};
    }

    // Whether the feature exists; its key is kept in m_featurePks for the balances.
    api::Result<bool> lookUpFeature(const QString &featureId)
    {
        if (m_featurePks.contains(featureId))
            return true;
        auto feature =
            queryRows(m_db, u"SELECT pk FROM features WHERE org_pk = ? AND env = ? AND id = ?"_s,
                      {m_scope.orgPk, m_scope.envWord(), featureId});
        if (!feature)
            return feature.error();
        if (feature.value().isEmpty())
            return false;
        m_featurePks.insert(featureId, feature.value().first().first().toLongLong());
        return true;
    }

    api::Result<qint64> upsertCustomer(const api::ImportCustomerRequest &request)
    {
        const api::CustomerData data = request.customerData.value_or(api::CustomerData());
        auto existing =
            queryRows(m_db, u"SELECT pk FROM customers WHERE org_pk = ? AND env = ? AND id = ?"_s,
                      {m_scope.orgPk, m_scope.envWord(), request.customerId});
        if (!existing)
            return existing.error();
        qint64 pk = 0;
        if (existing.value().isEmpty()) {
            auto allocated = m_keys.next(u"customers"_s);
            if (!allocated)
                return allocated.error();
            pk = allocated.value();
            if (auto inserted = execute(
                    m_db,
                    u"INSERT INTO customers (pk, org_pk, env, id, name, email, fingerprint,"
                    " metadata, send_email_receipts, disable_pooled_balance,"
                    " disable_overage_billing, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, '{}', 0, 0,"
                    " 0, ?)"_s,
                    {pk, m_scope.orgPk, m_scope.envWord(), request.customerId,
                     data.name.value_or(u""_s), data.email.value_or(u""_s),
                     data.fingerprint ? QVariant(*data.fingerprint) : QVariant(),
                     data.createdAt.value_or(m_now)});
                !inserted)
                return inserted.error();
        } else {
            pk = existing.value().first().first().toLongLong();
            for (const auto &[column, value] :
                 {std::pair{u"name"_s, data.name ? QVariant(*data.name) : QVariant()},
                  std::pair{u"email"_s, data.email ? QVariant(*data.email) : QVariant()},
                  std::pair{u"fingerprint"_s,
                            data.fingerprint ? QVariant(*data.fingerprint) : QVariant()},
                  std::pair{u"created_at"_s,
                            data.createdAt ? QVariant(*data.createdAt) : QVariant()}})
                if (value.isValid())
                    if (auto updated =
                            execute(m_db, u"UPDATE customers SET %1 = ? WHERE pk = ?"_s.arg(column),
                                    {value, pk});
                        !updated)
                        return updated.error();
        }
        for (const api::ProcessorIdentity &identity : request.processors)
            if (auto recorded =
                    execute(m_db,
                            u"INSERT INTO customer_processors (customer_pk, type, external_id)"
                            " VALUES (?, ?, ?) ON CONFLICT (customer_pk, type) DO NOTHING"_s,
                            {pk, QString(api::toWire(identity.type)), identity.id});
                !recorded)
                return recorded.error();
        return pk;
    }

    api::Result<api::FlashedPlan> attach(qint64 customerPk, const api::Billable &billable,
                                         const StoredPlan &plan)
    {
        const QString processor = api::toWire(billable.processor);
        api::FlashedPlan flashed;
        flashed.planId = billable.plan.planId;
        flashed.processor = billable.processor;
        flashed.status = billable.plan.status.value_or(api::PlanStatus::Active);
        auto current = queryRows(
            m_db,
            u"SELECT cp.id, cp.status FROM customer_products cp JOIN products p"
            " ON p.pk = cp.product_pk WHERE cp.customer_pk = ? AND p.id = ? AND cp.processor = ?"
            " ORDER BY cp.pk DESC"_s,
            {customerPk, billable.plan.planId, processor});
        if (!current)
            return current.error();
        for (const QVariantList &row : std::as_const(current.value()))
            if (StoredPlan::inForce(row.at(1).toString())) {
                flashed.customerProductId = row.at(0).toString();
                flashed.skipped = true;
                flashed.reason = u"already_active"_s;
                return flashed;
            }
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
        const bool expired = flashed.status == api::PlanStatus::Expired;
        // The period that holds now, counted from the billing cycle anchor
        // (or the plan's start); item resets fall on their own periods' ends.
        const qint64 startedAt = billable.plan.startedAt.value_or(m_now);
        const qint64 anchor = billable.billingCycleAnchor.value_or(startedAt);
        const auto [periodStart, periodEnd] =
            api::BillingPeriod::containing(StoredPlan::renewalInterval(plan.items), anchor, m_now);
        if (auto inserted = execute(
                m_db,
                u"INSERT INTO customer_products (pk, id, customer_pk, product_pk, processor,"
                " subscription_id, schedule_id, status, quantity, started_at,"
                " current_period_start, current_period_end, expires_at,"
                " created_at, period_anchor) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s,
                {productPk.value(), productId, customerPk, plan.pk, processor,
                 billable.link && billable.link->subscriptionId
                     ? QVariant(*billable.link->subscriptionId)
                     : QVariant(),
                 billable.link && billable.link->scheduleId ? QVariant(*billable.link->scheduleId)
                                                            : QVariant(),
                 QString(api::toWire(flashed.status)), units, startedAt, periodStart, periodEnd,
                 expired ? QVariant(m_now) : QVariant(), m_now, anchor});
            !inserted)
            return inserted.error();
        // One balance per plan item, the reported usage applied to the grant it matches.
        QList<bool> used(billable.plan.balances.size(), false);
        for (const api::ProductItem &item : plan.items) {
            if (!m_featurePks.contains(item.featureId))
                continue;
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
                const auto left = reported.usage ? granted.minus(*reported.usage)
                                                 : std::optional<Decimal>(granted);
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
                clocked.resetsAt = resetsAt.value_or(BalanceClock::nextReset(
                    clocked.interval, clocked.intervalCount, anchor, m_now));
            }
            const std::optional<qint64> dueAt =
                expired ? std::nullopt : BalanceClock::dueAt(clocked);
            auto balancePk = m_keys.next(u"balances"_s);
            if (!balancePk)
                return balancePk.error();
            const std::optional<api::Price> price = StoredPlan::priceOf(item);
            const QString balanceId = u"b_"_s + QUuid::createUuid().toString(QUuid::Id128);
            if (auto inserted = execute(
                    m_db,
                    u"INSERT INTO balances (pk, id, org_pk, env, customer_pk, feature_pk,"
                    " customer_product_pk, included_grant, prepaid_grant, remaining, usage,"
                    " unlimited, overage_allowed, reset_interval, reset_interval_count, resets_at,"
                    " price, expires_at, created_at, reset_anchor, rollover, due_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s,
                    {balancePk.value(),
                     balanceId,
                     m_scope.orgPk,
                     m_scope.envWord(),
                     customerPk,
                     m_featurePks.value(item.featureId),
                     productPk.value(),
                     included.value().toString(),
                     prepaid.toString(),
                     remaining.toString(),
                     usage.toString(),
                     int(price &&
                         StoredPlan::billingMethodOf(item) == api::BillingMethod::UsageBased),
                     resets ? QVariant(QString(api::toWire(*item.interval))) : QVariant(),
                     resets ? QVariant(clocked.intervalCount) : QVariant(),
                     resets ? QVariant(*clocked.resetsAt) : QVariant(),
                     price ? QVariant(storedText(*price)) : QVariant(),
                     expired ? QVariant(m_now) : QVariant(),
                     m_now,
                     resets ? QVariant(clocked.anchor) : QVariant(),
                     resets && item.rollover ? QVariant(storedText(*item.rollover)) : QVariant(),
                     dueAt ? QVariant(*dueAt) : QVariant()});
                !inserted)
                return inserted.error();
            m_ledger +=
                BalanceLedger::planGrant(m_scope, customerPk, m_featurePks.value(item.featureId),
                                         balanceId, granted, remaining, usage, expired);
        }
        if (flashed.mismatch)
            flashed.reason = u"usage_exceeds_grant"_s;
        if (!m_dryRun)
            flashed.customerProductId = productId;
        return flashed;
    }

    // Plans in force from the payload's processors that the payload leaves out.
    api::Result<QList<api::FlashedPlan>> expireMissing(qint64 customerPk,
                                                       const api::ImportCustomerRequest &request,
                                                       const QSet<QString> &named)
    {
        QSet<QString> processors;
        for (const api::Billable &billable : request.billables)
            processors.insert(api::toWire(billable.processor));
        for (const api::ProcessorIdentity &identity : request.processors)
            processors.insert(api::toWire(identity.type));
        auto current =
            queryRows(m_db,
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
            for (const QString &sql :
                 {u"UPDATE customer_products SET status = 'expired', expires_at = ? WHERE pk = ?"_s,
                  u"UPDATE balances SET expires_at = ? WHERE customer_product_pk = ?"_s})
                if (auto updated = execute(m_db, sql, {m_now, row.at(0)}); !updated)
                    return updated.error();
            auto given = BalanceLedger::expiriesOf(m_db, m_scope, customerPk, row.at(0));
            if (!given)
                return given.error();
            m_ledger += given.value();
            api::FlashedPlan flashed;
            flashed.planId = row.at(4).toString();
            flashed.processor =
                processor == "revenuecat"_L1 ? api::Processor::RevenueCat : api::Processor::Stripe;
            if (!m_dryRun)
                flashed.customerProductId = row.at(1).toString();
            flashed.status = api::PlanStatus::Expired;
            flashed.expired = true;
            expired.append(flashed);
        }
        return expired;
    }

    QSqlDatabase m_db;
    Dialect m_dialect;
    Scope m_scope;
    qint64 m_now;
    KeyAllocator m_keys;
    bool m_dryRun = false;
    QHash<QString, qint64> m_featurePks;
    QList<BalanceLedger::Entry> m_ledger; // written once the import is complete
};

} // namespace

api::Result<api::ImportCustomerResponse>
CustomerImporter::import(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
                         const api::ImportCustomerRequest &request, qint64 nowMs)
{
    WriteTransaction transaction(db, dialect);
    if (auto begun = transaction.begin(); !begun)
        return begun.error();
    auto response = Importer(db, dialect, scope, nowMs).run(request);
    if (!response || request.dryRun)
        return response; // the transaction rolls back: a dry run writes nothing
    if (auto committed = transaction.commit(); !committed)
        return committed.error();
    auto customer = CustomerReads::customer(db, scope, request.customerId, nowMs);
    if (!customer)
        return customer.error();
    response.value().customer = customer.value();
    return response;
}

} // namespace md::engine
