// ApiOperations' routes that read the payment processor (docs/processors.md):
// billing.import, which reads the subscriptions it links before anything is
// written, processors.verify, which only reads, and processors.subscriptions,
// the import wizard's Stripe source.
#include "services/engine/ApiOperations.h"

#include "services/engine/AuditedWrite.h"
#include "services/engine/customers/CustomerImporter.h"
#include "services/engine/customers/CustomerReads.h"
#include "services/engine/processors/ProcessorKeys.h"
#include "services/engine/processors/StripeImport.h"
#include "services/engine/processors/StripeListing.h"
#include "services/engine/processors/StripeVerifier.h"
#include "services/engine/sql/StoredJson.h"

namespace md::engine {

using namespace Qt::StringLiterals;

api::Result<api::ImportCustomerResponse>
ApiOperations::importCustomer(const KeyContext &key, const api::ImportCustomerRequest &request)
{
    if (const auto denied = key.missingScope(u"billing:write"_s))
        return *denied;
    // Stripe is read first, on no transaction: a slow Stripe holds no lock.
    auto prepared = m_engine.withConnection([&](const QSqlDatabase &db) {
        return StripeImport::prepare(db, key.scope, request, m_engine.stripeOptions());
    });
    if (!prepared)
        return prepared.error();
    const StripeImport::Prepared &stripe = prepared.value();
    // What the clock made due lands before the import changes the customer.
    if (auto current = upToDate(key, request.customerId); !current)
        return current.error();
    const auto import = [&](const QSqlDatabase &db) {
        auto answer = CustomerImporter::import(db, m_engine.dialect(), key.scope, stripe.request,
                                               m_engine.now(key.scope), stripe.terms);
        if (answer) // the billables' outcomes come first, in the body's order
            for (qsizetype i = 0; i < stripe.differences.size(); ++i)
                if (!stripe.differences.at(i).isEmpty()) {
                    api::FlashedPlan &flashed = answer.value().flashed[i];
                    flashed.differences = stripe.differences.at(i);
                    flashed.mismatch = true;
                }
        return answer;
    };
    if (request.dryRun) // writes nothing, so nothing to record
        return m_engine.withConnection(import);
    return AuditedWrite::run<api::ImportCustomerResponse>(
        m_engine, key, {u"customer.import"_s, u"customer"_s, request.customerId},
        [&](const QSqlDatabase &db) -> api::Result<api::JsonValue> {
            auto was =
                CustomerReads::customer(db, key.scope, request.customerId, m_engine.now(key.scope));
            if (!was)
                return was.error().status == 404
                           ? api::Result<api::JsonValue>(api::JsonValue::null())
                           : was.error();
            return jsonOf(was.value());
        },
        import,
        [](const api::ImportCustomerResponse &answer) {
            return answer.customer ? jsonOf(*answer.customer) : api::JsonValue::null();
        });
}

api::Result<api::ProcessorsVerifyResponse>
ApiOperations::verifyProcessors(const KeyContext &key, const api::ProcessorsVerifyRequest &request)
{
    if (const auto denied = key.missingScope(u"balances:read"_s))
        return *denied;
    // The wire's limit, for callers that skip the wire (the console's engine).
    if (request.customerIds &&
        request.customerIds->size() > api::ProcessorsVerifyRequest::MaxCustomers)
        return api::ApiError::invalidInputs(u"customer_ids"_s,
                                            u"at most %1 customers at a time, got %2"_s
                                                .arg(api::ProcessorsVerifyRequest::MaxCustomers)
                                                .arg(request.customerIds->size()));
    // Plans whose period ended move on before they are compared.
    if (auto current = upToDate(key, std::nullopt); !current)
        return current.error();
    return m_engine.withConnection([&](const QSqlDatabase &db) {
        return StripeVerifier::verify(db, key.scope, request, m_engine.stripeOptions());
    });
}

api::Result<api::Page<api::ProcessorKeyInfo>>
ApiOperations::listProcessorKeys(const KeyContext &key)
{
    if (const auto denied = key.missingScope(QStringList{u"keys:read"_s, u"keys:write"_s}))
        return *denied;
    auto connected = m_engine.withConnection(
        [&](const QSqlDatabase &db) { return ProcessorKeys::list(db, key.scope.orgPk); });
    if (!connected)
        return connected.error();
    api::Page<api::ProcessorKeyInfo> page;
    for (const ProcessorKeys::Connected &one : std::as_const(connected.value()))
        page.list.append({one.env, one.hint, one.connectedAt});
    return page;
}

api::Result<api::ProcessorKeyInfo>
ApiOperations::connectProcessorKey(const KeyContext &key, const api::ProcessorKeyConnect &request)
{
    if (const auto denied = key.missingScope(u"keys:write"_s))
        return *denied;
    const QString secret = request.secret.trimmed();
    if (const auto problem = ProcessorKeys::problemOf(secret, key.scope.env))
        return api::ApiError::invalidInputs(u"secret"_s, *problem);
    // Stripe says whether the key works (and may read customers) before it
    // is kept.
    QUrlQuery query;
    query.addQueryItem(u"limit"_s, u"1"_s);
    StripeClient::Refusal refusal;
    auto tried = StripeClient(secret, m_engine.stripeOptions())
                     .get(u"/v1/customers"_s, query, std::nullopt, &refusal);
    if (!tried && refusal.status != 0)
        return api::ApiError::invalidInputs(
            u"secret"_s,
            u"Stripe refused %1: %2"_s.arg(ProcessorKeys::hintOf(secret), refusal.message));
    if (!tried)
        return tried.error();
    auto connected = m_engine.withConnection([&](const QSqlDatabase &db) {
        return ProcessorKeys::connect(db, m_engine.dialect(), key.scope, secret,
                                      m_engine.now(key.scope), AuditedWrite::actorOf(key));
    });
    if (!connected)
        return connected.error();
    return api::ProcessorKeyInfo{connected.value().env, connected.value().hint,
                                 connected.value().connectedAt};
}

api::Result<api::Page<api::ProcessorKeyInfo>>
ApiOperations::disconnectProcessorKey(const KeyContext &key)
{
    if (const auto denied = key.missingScope(u"keys:write"_s))
        return *denied;
    auto gone = m_engine.withConnection([&](const QSqlDatabase &db) {
        return ProcessorKeys::disconnect(db, m_engine.dialect(), key.scope, m_engine.now(key.scope),
                                         AuditedWrite::actorOf(key));
    });
    if (!gone)
        return gone.error();
    return listProcessorKeys(key);
}

api::Result<api::StripeSubscriptionsPage>
ApiOperations::stripeSubscriptions(const KeyContext &key,
                                   const api::StripeSubscriptionsRequest &request)
{
    if (const auto denied = key.missingScope(u"billing:write"_s))
        return *denied;
    if (request.limit < 1 || request.limit > api::StripeSubscriptionsRequest::MaxLimit)
        return api::ApiError::invalidInputs(
            u"limit"_s, u"must be 1 to %1, got %2"_s.arg(api::StripeSubscriptionsRequest::MaxLimit)
                            .arg(request.limit));
    return m_engine.withConnection([&](const QSqlDatabase &db) {
        return StripeListing::page(db, key.scope, request, m_engine.stripeOptions());
    });
}

} // namespace md::engine
