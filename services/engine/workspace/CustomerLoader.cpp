#include "services/engine/workspace/CustomerLoader.h"

#include "services/api/Balance.h"
#include "services/api/BillingControls.h"
#include "services/api/WireCodec.h"
#include "services/engine/ledger/BalanceLedger.h"
#include "services/engine/sql/StoredJson.h"
#include "services/engine/workspace/BalanceLoader.h"
#include "services/engine/workspace/StatementLoader.h"

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;
using api::JsonReader;

namespace {

constexpr std::pair<QLatin1StringView, int> PlanStatuses[] = {
    {"active"_L1, 0}, {"trialing"_L1, 1}, {"past_due"_L1, 2}, {"canceled"_L1, 3}, {"expired"_L1, 4},
};
constexpr std::pair<QLatin1StringView, int> Processors[] = {{"stripe"_L1, 0}, {"revenuecat"_L1, 1}};

class Customer final
{
public:
    explicit Customer(LoadState &state)
        : m_state(state)
    {}

    api::Result<api::Done> customer(const JsonReader &customer, const Scope &scope)
    {
        customer.object();
        const JsonReader idReader = customer.field("id"_L1);
        const QString id = nonEmptyId(idReader);
        const QString name = customer.field("name"_L1).optString().value_or(QString());
        const QString email = customer.field("email"_L1).optString().value_or(QString());
        const JsonReader fingerprintReader = customer.field("fingerprint"_L1);
        const std::optional<QString> fingerprint =
            fingerprintReader.isMissing() ? std::nullopt : fingerprintReader.nullableString();
        const qint64 createdAt = customer.field("created_at"_L1).integer();
        const JsonReader metadataReader = customer.field("metadata"_L1);
        const api::JsonValue metadata =
            metadataReader.isMissing() ? api::JsonValue::object() : metadataReader.object();
        const bool receipts = customer.field("send_email_receipts"_L1).optBoolean().value_or(false);
        // Its open billing period, as a dump keeps it; without one the
        // loader opens the first (WorkspaceLoader).
        const std::optional<qint64> statementFrom =
            customer.field("statement_from"_L1).optInteger();
        const std::optional<qint64> statementDue =
            customer.field("statement_due_at"_L1).optInteger();
        if (statementFrom.has_value() != statementDue.has_value() ||
            (statementFrom && *statementDue <= *statementFrom))
            customer.field("statement_due_at"_L1)
                .fail(u"statement_from and statement_due_at come together, the second after"
                      " the first"_s);
        const JsonReader config = customer.field("config"_L1);
        bool noPooled = false;
        bool noOverage = false;
        if (!config.isMissing()) {
            config.object();
            noPooled = config.field("disable_pooled_balance"_L1).optBoolean().value_or(false);
            noOverage = config.field("disable_overage_billing"_L1).optBoolean().value_or(false);
        }
        MD_CHECK(customer)
        if (m_state.customerIds.contains(id))
            idReader.fail(u"customer \"%1\" appears twice"_s.arg(id));
        MD_CHECK(customer)
        auto pk = m_state.key(u"customers"_s);
        if (!pk)
            return pk.error();
        const qint64 customerPk = pk.value();
        m_state.customerIds.insert(id);
        if (auto added = m_state.add(u"customers"_s,
                                     {customerPk, scope.orgPk, scope.envWord(), id, name, email,
                                      orNull(fingerprint), storedText(metadata), int(receipts),
                                      int(noPooled), int(noOverage), createdAt,
                                      nullable(statementFrom), nullable(statementDue)});
            !added)
            return added.error();
        ++m_state.summary.customers;
        if (auto loaded = billingControls(customer, customerPk, 0, createdAt); !loaded)
            return loaded.error();

        QSet<int> processorTypes;
        for (const JsonReader &processor :
             customer.field("processors"_L1).optArray().value_or(QList<JsonReader>())) {
            processor.object();
            const JsonReader typeReader = processor.field("type"_L1);
            const int type = typeReader.word(Processors);
            const QString externalId = nonEmptyId(processor.field("id"_L1));
            if (customer.ok() && processorTypes.contains(type))
                typeReader.fail(
                    u"the customer has two \"%1\" identities"_s.arg(Processors[type].first));
            processorTypes.insert(type);
            MD_CHECK(customer)
            if (auto added = m_state.add(u"customer_processors"_s,
                                         {customerPk, QString(Processors[type].first), externalId});
                !added)
                return added.error();
        }

        QHash<QString, qint64> entities;
        for (const JsonReader &entity :
             customer.field("entities"_L1).optArray().value_or(QList<JsonReader>())) {
            entity.object();
            const JsonReader entityIdReader = entity.field("id"_L1);
            const QString entityId = nonEmptyId(entityIdReader);
            const JsonReader featureReader = entity.field("feature_id"_L1);
            const std::optional<QString> featureId =
                featureReader.isMissing() ? std::nullopt : featureReader.nullableString();
            if (customer.ok() && featureId && !m_state.features.contains(*featureId))
                featureReader.fail(
                    u"feature \"%1\" is not defined in this environment"_s.arg(*featureId));
            const QString entityName = entity.field("name"_L1).optString().value_or(QString());
            const qint64 entityCreated = entity.field("created_at"_L1).integer();
            if (customer.ok() && entities.contains(entityId))
                entityIdReader.fail(u"entity \"%1\" appears twice"_s.arg(entityId));
            MD_CHECK(customer)
            auto entityPk = m_state.key(u"entities"_s);
            if (!entityPk)
                return entityPk.error();
            entities.insert(entityId, entityPk.value());
            if (auto added =
                    m_state.add(u"entities"_s, {entityPk.value(), customerPk, entityId,
                                                orNull(featureId), entityName, entityCreated});
                !added)
                return added.error();
            if (auto loaded = billingControls(entity, customerPk, entityPk.value(), entityCreated);
                !loaded)
                return loaded.error();
        }

        QHash<QString, qint64> customerProducts;
        for (const JsonReader &cp :
             customer.field("products"_L1).optArray().value_or(QList<JsonReader>())) {
            if (auto loaded = customerProduct(cp, customerPk, customerProducts); !loaded)
                return loaded.error();
        }
        // Oldest first, so keys (which count down) list the newest first.
        QList<JsonReader> balances =
            customer.field("balances"_L1).optArray().value_or(QList<JsonReader>());
        QList<std::pair<qint64, qsizetype>> order;
        order.reserve(balances.size());
        for (qsizetype i = 0; i < balances.size(); ++i)
            order.append({balances.at(i)
                              .field("created_at"_L1)
                              .raw()
                              .numberText()
                              .toByteArray()
                              .toLongLong(),
                          i});
        std::sort(order.begin(), order.end());
        QList<JsonReader> sorted;
        sorted.reserve(balances.size());
        for (const auto &[created, index] : std::as_const(order))
            sorted.append(balances.at(index));
        balances = std::move(sorted);
        for (const JsonReader &balance : std::as_const(balances)) {
            if (auto loaded = BalanceLoader(m_state).load(balance, scope, customerPk, entities,
                                                          customerProducts);
                !loaded)
                return loaded.error();
        }
        for (const JsonReader &event :
             customer.field("usage_events"_L1).optArray().value_or(QList<JsonReader>())) {
            if (auto loaded = usageEvent(event, scope, customerPk, entities); !loaded)
                return loaded.error();
        }
        if (auto loaded = StatementLoader(m_state).load(customer, scope, customerPk, statementFrom);
            !loaded)
            return loaded.error();
        MD_CHECK(customer)
        return api::Done{};
    }

private:
    // A customer's or entity's billing_controls: the object
    // customers.update_billing_controls takes (camelCase keys), checked the
    // same way; entityPk 0 for the customer's own (as BillingControlStore keys them).
    api::Result<api::Done> billingControls(const JsonReader &owner, qint64 customerPk,
                                           qint64 entityPk, qint64 createdAt)
    {
        const JsonReader reader = owner.field("billing_controls"_L1);
        if (reader.isMissingOrNull())
            return api::Done{};
        const api::BillingControls controls = api::BillingControls::read(reader);
        for (const auto &[path, id] : controls.namedFeatures())
            if (reader.ok() && !m_state.features.contains(id))
                reader.fail(
                    u"%1.featureId: feature \"%2\" is not defined in this environment"_s.arg(path,
                                                                                             id));
        MD_CHECK(reader)
        if (controls.isEmpty())
            return api::Done{};
        return m_state.add(u"billing_controls"_s,
                           {customerPk, entityPk, storedText(controls), createdAt});
    }

    api::Result<api::Done> customerProduct(const JsonReader &cp, qint64 customerPk,
                                           QHash<QString, qint64> &customerProducts)
    {
        cp.object();
        const JsonReader idReader = cp.field("id"_L1);
        const QString id = nonEmptyId(idReader);
        const JsonReader planReader = cp.field("plan_id"_L1);
        const QString planId = planReader.string();
        const JsonReader versionReader = cp.field("version"_L1);
        const std::optional<qint64> version = versionReader.optInteger(1);
        const auto nullableText = [&](QLatin1StringView name) {
            const JsonReader r = cp.field(name);
            return r.isMissing() ? std::optional<QString>() : r.nullableString();
        };
        const auto nullableTime = [&](QLatin1StringView name) {
            const JsonReader r = cp.field(name);
            return r.isMissing() ? std::optional<qint64>() : r.nullableInteger();
        };
        const std::optional<QString> processor = nullableText("processor"_L1);
        if (processor && cp.ok())
            cp.field("processor"_L1).word(Processors);
        const std::optional<QString> subscriptionId = nullableText("subscription_id"_L1);
        const std::optional<QString> scheduleId = nullableText("schedule_id"_L1);
        const int status = cp.field("status"_L1).word(PlanStatuses);
        const qint64 quantity = cp.field("quantity"_L1).optInteger(0).value_or(1);
        const qint64 startedAt = cp.field("started_at"_L1).integer();
        const auto periodStart = nullableTime("current_period_start"_L1);
        const auto periodEnd = nullableTime("current_period_end"_L1);
        const auto trialEndsAt = nullableTime("trial_ends_at"_L1);
        const auto canceledAt = nullableTime("canceled_at"_L1);
        const auto expiresAt = nullableTime("expires_at"_L1);
        const auto periodAnchor = nullableTime("period_anchor"_L1); // the billing clock's
        const qint64 createdAt = cp.field("created_at"_L1).integer();
        MD_CHECK(cp)
        const QString productKey = version ? planId + u'@' + QString::number(*version) : planId;
        if (!m_state.products.contains(productKey))
            (version ? versionReader : planReader)
                .fail(version
                          ? u"plan \"%1\" has no version %2 in this environment"_s.arg(planId).arg(
                                *version)
                          : u"plan \"%1\" is not defined in this environment"_s.arg(planId));
        if (cp.ok() && m_state.customerProductIds.contains(id))
            idReader.fail(u"customer product \"%1\" appears twice"_s.arg(id));
        MD_CHECK(cp)
        auto pk = m_state.key(u"customer_products"_s);
        if (!pk)
            return pk.error();
        m_state.customerProductIds.insert(id);
        customerProducts.insert(id, pk.value());
        if (PlanStatuses[status].first == "expired"_L1)
            m_state.expiredProducts.insert(pk.value());
        return m_state.add(u"customer_products"_s,
                           {pk.value(), id, customerPk, m_state.products.value(productKey),
                            orNull(processor), orNull(subscriptionId), orNull(scheduleId),
                            QString(PlanStatuses[status].first), quantity, startedAt,
                            orNull(periodStart), orNull(periodEnd), orNull(trialEndsAt),
                            orNull(canceledAt), orNull(expiresAt), createdAt, orNull(periodAnchor),
                            m_state.planKeys.value(planId).second});
    }

    api::Result<api::Done> usageEvent(const JsonReader &event, const Scope &scope,
                                      qint64 customerPk, const QHash<QString, qint64> &entities)
    {
        event.object();
        const JsonReader featureReader = event.field("feature_id"_L1);
        const QString featureId = featureReader.string();
        if (event.ok() && !m_state.features.contains(featureId))
            featureReader.fail(
                u"feature \"%1\" is not defined in this environment"_s.arg(featureId));
        const JsonReader entityReader = event.field("entity_id"_L1);
        const std::optional<QString> entityId =
            entityReader.isMissing() ? std::nullopt : entityReader.nullableString();
        if (event.ok() && entityId && !entities.contains(*entityId))
            entityReader.fail(
                u"entity \"%1\" is not one of this customer's entities"_s.arg(*entityId));
        const JsonReader modelReader = event.field("model_id"_L1);
        const std::optional<QString> modelId =
            modelReader.isMissing() ? std::nullopt : modelReader.nullableString();
        const JsonReader tokensReader = event.field("tokens"_L1);
        const api::JsonValue tokens =
            tokensReader.isMissing() ? api::JsonValue::object() : tokensReader.object();
        if (!tokensReader.isMissing())
            for (const auto &[pool, count] : tokensReader.members())
                count.integer();
        const api::Decimal value = event.field("value"_L1).decimal();
        const JsonReader propertiesReader = event.field("properties"_L1);
        const api::JsonValue properties =
            propertiesReader.isMissing() ? api::JsonValue::object() : propertiesReader.object();
        const qint64 timestamp = event.field("timestamp"_L1).integer(1);
        const JsonReader keyReader = event.field("idempotency_key"_L1);
        const std::optional<QString> idempotencyKey =
            keyReader.isMissing() ? std::nullopt : keyReader.nullableString();
        if (event.ok() && idempotencyKey && m_state.idempotencyKeys.contains(*idempotencyKey))
            keyReader.fail(
                u"idempotency key \"%1\" is used by another event"_s.arg(*idempotencyKey));
        if (idempotencyKey)
            m_state.idempotencyKeys.insert(*idempotencyKey);
        const qint64 createdAt = event.field("created_at"_L1).optInteger().value_or(timestamp);
        MD_CHECK(event)
        auto pk = m_state.key(u"usage_events"_s);
        if (!pk)
            return pk.error();
        return m_state.add(u"usage_events"_s,
                           {pk.value(), scope.orgPk, scope.envWord(), customerPk,
                            entityId ? QVariant(entities.value(*entityId)) : QVariant(),
                            m_state.features.value(featureId), orNull(modelId), storedText(tokens),
                            value.toString(), storedText(properties), timestamp,
                            orNull(idempotencyKey), createdAt});
    }

    LoadState &m_state;
};

} // namespace

api::Result<api::Done> CustomerLoader::load(LoadState &state, const JsonReader &customer,
                                            const Scope &scope)
{
    return Customer(state).customer(customer, scope);
}

} // namespace md::engine
