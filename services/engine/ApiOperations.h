// Every operation as an authenticated key may call it: the scope check of
// docs/api.md ("Keys and scopes"), then the engine. meterdesk-server and EngineBackend both go
// through here, so the embedded and remote paths answer alike.
#pragma once

#include "services/api/AboutInfo.h"
#include "services/api/ApiKey.h"
#include "services/api/AuditLog.h"
#include "services/api/BalanceAdjustment.h"
#include "services/api/BalanceCreation.h"
#include "services/api/BalancePages.h"
#include "services/api/BalanceTotals.h"
#include "services/api/BillingControls.h"
#include "services/api/BillingPortal.h"
#include "services/api/CallQuote.h"
#include "services/api/CatalogueInfo.h"
#include "services/api/ChargesPreview.h"
#include "services/api/Customer.h"
#include "services/api/CustomerSummary.h"
#include "services/api/FeatureInfo.h"
#include "services/api/ImportCustomer.h"
#include "services/api/Ledger.h"
#include "services/api/LinkOrganization.h"
#include "services/api/ListBalances.h"
#include "services/api/Organization.h"
#include "services/api/Page.h"
#include "services/api/ProcessorKey.h"
#include "services/api/ProcessorsVerify.h"
#include "services/api/Product.h"
#include "services/api/Promotion.h"
#include "services/api/SandboxClock.h"
#include "services/api/Statements.h"
#include "services/api/StripeSubscriptions.h"
#include "services/api/TrackTokens.h"
#include "services/api/TrackUsage.h"
#include "services/api/UpdateProduct.h"
#include "services/api/UpdateReward.h"
#include "services/api/UsageBatch.h"
#include "services/api/UsageEvent.h"
#include "services/api/UsageTotals.h"
#include "services/api/Webhook.h"
#include "services/engine/Engine.h"
#include "services/engine/sql/StopCheck.h"

namespace md::engine {

class ApiOperations final
{
public:
    explicit ApiOperations(Engine &engine)
        : m_engine(engine)
    {}

    // Spec endpoints.
    api::Result<api::ListBalancesResponse> listBalances(const KeyContext &key,
                                                        const api::ListBalancesRequest &request);
    api::Result<api::ImportCustomerResponse>
    importCustomer(const KeyContext &key, const api::ImportCustomerRequest &request);
    api::Result<api::TrackTokensResponse>
    trackTokens(const KeyContext &key, const api::TrackTokensRequest &request,
                const std::optional<QString> &idempotencyKey = std::nullopt);
    // The same, answered through `answer` once the call's batch committed
    // (Engine::trackTokens), so the calling thread need not wait.
    void trackTokens(const KeyContext &key, const api::TrackTokensRequest &request,
                     const std::optional<QString> &idempotencyKey, TrackWriter::Answer answer);
    // Usage of any feature (docs/api.md, "Usage of any feature";
    // ApiOperationsUsage.cpp): balances.track, as track_tokens is answered,
    // balances.check, and usage.batch, each event answered at its index.
    api::Result<api::TrackTokensResponse>
    track(const KeyContext &key, const api::TrackRequest &request,
          const std::optional<QString> &idempotencyKey = std::nullopt);
    void track(const KeyContext &key, const api::TrackRequest &request,
               const std::optional<QString> &idempotencyKey, TrackWriter::Answer answer);
    api::Result<api::CheckResponse> check(const KeyContext &key, const api::CheckRequest &request);
    api::Result<api::UsageBatchResponse> usageBatch(const KeyContext &key,
                                                    const api::UsageBatchRequest &request);
    using BatchAnswer = std::function<void(api::Result<api::UsageBatchResponse>)>;
    void usageBatch(const KeyContext &key, const api::UsageBatchRequest &request,
                    BatchAnswer answer);
    api::Result<api::UpdateRewardResponse> updateReward(const KeyContext &key,
                                                        const api::UpdateRewardRequest &request);
    api::Result<api::BillingPortalResponse> billingPortal(const KeyContext &key,
                                                          const QString &customerId,
                                                          const api::BillingPortalRequest &request);
    api::Result<api::Product> updateProduct(const KeyContext &key, const QString &productId,
                                            const api::UpdateProductRequest &request);
    api::Result<api::LinkOrganizationResponse>
    linkOrganization(const KeyContext &key, const api::LinkOrganizationRequest &request);

    // Meterdesk extensions.
    api::Result<api::BalancePages> balancePages(const KeyContext &key,
                                                const api::BalancePagesRequest &request,
                                                const StopCheck &stop = {});
    api::Result<api::BalanceTotals> balanceTotals(const KeyContext &key,
                                                  const api::BalanceTotalsRequest &request,
                                                  const StopCheck &stop = {});
    api::Result<api::Page<api::CustomerSummary>> listCustomers(const KeyContext &key,
                                                               const api::PageRequest &request);
    api::Result<api::Customer> customer(const KeyContext &key, const QString &customerId);
    api::Result<api::Page<api::FeatureInfo>> listFeatures(const KeyContext &key);
    api::Result<api::Page<api::Product>> listProducts(const KeyContext &key);
    api::Result<api::Page<api::RewardEntry>> listRewards(const KeyContext &key);
    api::Result<api::Page<api::OrganizationInfo>> listOrganizations(const KeyContext &key);
    api::Result<api::Page<api::UsageEvent>> listUsageEvents(const KeyContext &key,
                                                            const api::PageRequest &request);
    api::Result<api::UsageTotals> usageTotals(const KeyContext &key,
                                              const api::UsageTotalsRequest &request,
                                              const StopCheck &stop = {});
    // What the customer owes for its open billing period so far (docs/billing.md).
    api::Result<api::ChargesPreview> chargesPreview(const KeyContext &key,
                                                    const api::ChargesPreviewRequest &request);
    // Closed statements, newest period first, and one by id; what they came
    // to by month, product, feature or customer (docs/billing.md).
    api::Result<api::Page<api::Statement>> listStatements(const KeyContext &key,
                                                          const api::PageRequest &request);
    api::Result<api::Statement> statement(const KeyContext &key,
                                          const api::StatementGetRequest &request);
    api::Result<api::RevenueSummary> revenueSummary(const KeyContext &key,
                                                    const api::RevenueSummaryRequest &request);
    // Imported customers' plans against their Stripe subscriptions
    // (docs/processors.md, "Checking against Stripe").
    api::Result<api::ProcessorsVerifyResponse>
    verifyProcessors(const KeyContext &key, const api::ProcessorsVerifyRequest &request);
    // The organization's Stripe secret key for the calling key's
    // environment: its hint, connecting one (checked with Stripe first),
    // forgetting it (docs/processors.md, "Keys").
    api::Result<api::Page<api::ProcessorKeyInfo>> listProcessorKeys(const KeyContext &key);
    api::Result<api::ProcessorKeyInfo> connectProcessorKey(const KeyContext &key,
                                                           const api::ProcessorKeyConnect &request);
    // Answers the keys still connected.
    api::Result<api::Page<api::ProcessorKeyInfo>> disconnectProcessorKey(const KeyContext &key);
    // One page of the organization's Stripe subscriptions (an import's scope).
    api::Result<api::StripeSubscriptionsPage>
    stripeSubscriptions(const KeyContext &key, const api::StripeSubscriptionsRequest &request);
    api::Result<api::Page<api::ModelInfo>> listModels(const KeyContext &key);
    // Every write through the API or the console, newest first.
    api::Result<api::Page<api::AuditEntry>> listAuditLog(const KeyContext &key,
                                                         const api::AuditLogRequest &request);
    // Every change of a customer's balances, newest first.
    api::Result<api::Page<api::LedgerEntry>> listLedger(const KeyContext &key,
                                                        const api::LedgerRequest &request);
    // A manual correction of one balance, with its ledger and audit entries.
    api::Result<api::LedgerEntry> adjustBalance(const KeyContext &key,
                                                const api::BalanceAdjustment &request);
    // A standalone balance made by hand, with its ledger and audit entries.
    api::Result<api::LedgerEntry> createBalance(const KeyContext &key,
                                                const api::BalanceCreation &request);
    // Sandbox against production, and production made what the sandbox
    // shows (docs/promotion.md): a production key, or the console on its
    // own workspace.
    api::Result<api::EnvironmentDiff> environmentDiff(const KeyContext &key,
                                                      const api::EnvironmentDiffRequest &request);
    api::Result<api::EnvironmentPromoted>
    promoteEnvironment(const KeyContext &key, const api::EnvironmentPromotion &request);
    api::Result<api::CallQuote> priceCall(const KeyContext &key,
                                          const api::TrackTokensRequest &request);
    // Billing controls (docs/billing-controls.md) and the alerts they fired.
    api::Result<api::BillingControlsAnswer> billingControls(const KeyContext &key,
                                                            const QString &customerId,
                                                            const std::optional<QString> &entityId);
    api::Result<api::BillingControlsAnswer>
    updateBillingControls(const KeyContext &key, const api::UpdateBillingControlsRequest &request);
    api::Result<api::Page<api::UsageAlertEvent>> listUsageAlerts(const KeyContext &key,
                                                                 const api::PageRequest &request);
    // Async calls accepted and then not applied (docs/api.md, "Failed events").
    api::Result<api::Page<api::FailedEvent>> listFailedEvents(const KeyContext &key,
                                                              const api::PageRequest &request);
    api::Result<api::FailedEventOutcome> retryFailedEvents(const KeyContext &key,
                                                           const api::FailedEventIds &request);
    api::Result<api::FailedEventOutcome> discardFailedEvents(const KeyContext &key,
                                                             const api::FailedEventIds &request);
    // The billing clock (docs/api.md, "The billing clock"): the environment's
    // now, and a sandbox's moved forward with what falls due applied.
    api::Result<api::ClockReading> clock(const KeyContext &key);
    api::Result<api::ClockAdvanced> advanceClock(const KeyContext &key,
                                                 const api::ClockAdvance &request);
    // Webhooks (docs/api.md, "Webhooks"): endpoints, their deliveries, a
    // delivery sent again and a test event (ApiOperationsWebhooks.cpp).
    api::Result<api::Page<api::WebhookEndpoint>> listWebhookEndpoints(const KeyContext &key);
    api::Result<api::WebhookEndpoint>
    createWebhookEndpoint(const KeyContext &key, const api::WebhookEndpointCreate &request);
    api::Result<api::WebhookEndpoint>
    updateWebhookEndpoint(const KeyContext &key, const api::WebhookEndpointUpdate &request);
    api::Result<api::WebhookEndpointDeleted>
    deleteWebhookEndpoint(const KeyContext &key, const api::WebhookTarget &request);
    api::Result<api::WebhookEndpoint> rotateWebhookSecret(const KeyContext &key,
                                                          const api::WebhookTarget &request);
    api::Result<api::WebhookDelivery> sendTestWebhook(const KeyContext &key,
                                                      const api::WebhookTarget &request);
    api::Result<api::Page<api::WebhookDelivery>>
    listWebhookDeliveries(const KeyContext &key, const api::WebhookDeliveriesRequest &request);
    api::Result<api::WebhookDelivery> redeliverWebhook(const KeyContext &key,
                                                       const api::WebhookTarget &request);
    // API keys (docs/api.md, "API keys"): listed, made, revoked and rolled
    // by a key holding every scope it hands out (ApiOperationsKeys.cpp).
    api::Result<api::Page<api::ApiKey>> listApiKeys(const KeyContext &key);
    api::Result<api::ApiKey> createApiKey(const KeyContext &key, const api::ApiKeyCreate &request);
    api::Result<api::ApiKey> revokeApiKey(const KeyContext &key, const api::ApiKeyTarget &request);
    api::Result<api::ApiKey> rollApiKey(const KeyContext &key, const api::ApiKeyRoll &request);
    // Any valid key: the version and catalogue are no organization's; the
    // queue's counts are the key's own environment's.
    api::Result<api::AboutInfo> about(const KeyContext &key);

private:
    // Before a read or a write: what the billing clock made due, applied (a
    // customer's, a balance's customer's, or the whole scope's), so no
    // answer shows a balance it passed and no write lands before it.
    api::Result<api::Done> upToDate(const KeyContext &key, const std::optional<QString> &customerId,
                                    const std::optional<QString> &balanceId = std::nullopt);
    Engine &m_engine;
};

} // namespace md::engine
