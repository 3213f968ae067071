#include "services/engine/customers/CustomerImporter.h"

#include "services/engine/customers/CustomerPlans.h"

#include "services/engine/customers/PlanAttacher.h"
#include "services/engine/customers/StoredPlan.h"

#include "services/api/WireCodec.h"
#include "services/engine/customers/CustomerReads.h"
#include "services/engine/customers/OpenCharges.h"
#include "services/engine/ledger/BalanceLedger.h"
#include "services/engine/sql/KeyAllocator.h"
#include "services/engine/sql/Sql.h"

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;

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

    api::Result<api::ImportCustomerResponse> run(const api::ImportCustomerRequest &request,
                                                 const QList<ImportTerms> &terms)
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
        auto money = OpenCharges::moneyOf(m_db, m_scope.orgPk);
        if (!money)
            return money.error();
        PlanAttacher attacher(
            {m_db, m_scope, m_now, m_dryRun, m_featurePks, m_creditSystems, money.value()}, m_keys);
        QSet<QString> named; // processor/plan pairs in the payload
        for (qsizetype i = 0; i < request.billables.size(); ++i) {
            const api::Billable &billable = request.billables.at(i);
            named.insert(api::toWire(billable.processor) + u'/' + billable.plan.planId);
            auto flashed =
                attacher.attach(customerPk, billable, plans.at(i), terms.value(i, ImportTerms()));
            if (!flashed)
                return flashed.error();
            response.flashed.append(flashed.value());
        }
        auto expired = attacher.expireMissing(customerPk, request, named);
        if (!expired)
            return expired.error();
        response.flashed += expired.value();
        if (auto written = BalanceLedger::write(m_db, m_dialect, u"customers.import"_s, m_now,
                                                attacher.ledger());
            !written)
            return written.error();
        // A new customer's first statement period opens now, at the
        // scope's now (docs/billing.md, "Statements").
        if (!m_dryRun)
            if (auto opened =
                    CustomerPlans::openFirstPeriods(m_db, m_dialect, {{customerPk, m_now}});
                !opened)
                return opened.error();
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
                return ApiError::notFound(api::ErrorCode::FeatureNotFound,
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
            if (!item.featureId.isEmpty())
                if (auto known = lookUpFeature(item.featureId); !known)
                    return known.error();
        return api::Done{};
    }

    // Whether the feature exists; its key is kept in m_featurePks for the
    // balances, and whether it is an AI credit system for their charges.
    api::Result<bool> lookUpFeature(const QString &featureId)
    {
        if (m_featurePks.contains(featureId))
            return true;
        auto feature = queryRows(
            m_db, u"SELECT pk, type FROM features WHERE org_pk = ? AND env = ? AND id = ?"_s,
            {m_scope.orgPk, m_scope.envWord(), featureId});
        if (!feature)
            return feature.error();
        if (feature.value().isEmpty())
            return false;
        m_featurePks.insert(featureId, feature.value().first().first().toLongLong());
        if (feature.value().first().at(1).toString() == "credit_system"_L1)
            m_creditSystems.insert(featureId);
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

    QSqlDatabase m_db;
    Dialect m_dialect;
    Scope m_scope;
    qint64 m_now;
    KeyAllocator m_keys;
    bool m_dryRun = false;
    QHash<QString, qint64> m_featurePks;
    QSet<QString> m_creditSystems;
};

} // namespace

api::Result<api::ImportCustomerResponse>
CustomerImporter::import(const QSqlDatabase &db, Dialect dialect, const Scope &scope,
                         const api::ImportCustomerRequest &request, qint64 nowMs,
                         const QList<ImportTerms> &terms)
{
    WriteTransaction transaction(db, dialect);
    if (auto begun = transaction.begin(); !begun)
        return begun.error();
    auto response = Importer(db, dialect, scope, nowMs).run(request, terms);
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
