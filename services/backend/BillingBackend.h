// The one interface views and models use to reach billing data, whether the
// engine is embedded or remote. Every call is asynchronous and never blocks
// the calling thread; results are values or ApiErrors. EngineBackend and
// RemoteBackend must behave alike: tests/conformance checks that they do.
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
#include "services/api/Result.h"
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

#include <QFuture>
#include <QString>

namespace md::backend {

template <typename T> using Reply = QFuture<api::Result<T>>;

// Who the console is connected as.
struct ConnectionInfo
{
    QString location;    // database path or server URL, without secrets
    QString kind;        // "embedded" or "remote"
    QString environment; // "test" or "live"
    QString orgSlug;
    QString orgName;
};

class BillingBackend
{
public:
    virtual ~BillingBackend() = default;

    // Spec endpoints (docs/api.md, Conventions), one each.
    virtual Reply<api::ListBalancesResponse>
    listBalances(const api::ListBalancesRequest &request) = 0; // §4.1
    virtual Reply<api::ImportCustomerResponse>
    importCustomer(const api::ImportCustomerRequest &request) = 0; // §4.2
    virtual Reply<api::TrackTokensResponse>
    trackTokens(const api::TrackTokensRequest &request,
                const std::optional<QString> &idempotencyKey =
                    std::nullopt) = 0; // §4.3 (Idempotency-Key header)
    virtual Reply<api::UpdateRewardResponse>
    updateReward(const api::UpdateRewardRequest &request) = 0; // §4.4
    virtual Reply<api::BillingPortalResponse>
    billingPortal(const QString &customerId,
                  const api::BillingPortalRequest &request) = 0; // §4.5
    virtual Reply<api::Product> updateProduct(const QString &productId,
                                              const api::UpdateProductRequest &request) = 0; // §4.6
    virtual Reply<api::LinkOrganizationResponse>
    linkOrganization(const api::LinkOrganizationRequest &request) = 0; // §4.7

    // Meterdesk extensions (docs/openapi.yaml, /v1/meterdesk/...): the reads
    // the console browses. They need the key's `balances:read` scope.
    virtual Reply<ConnectionInfo> connectionInfo() = 0;
    // The balances.list filter added up, by feature, plan or customer.
    virtual Reply<api::BalanceTotals> balanceTotals(const api::BalanceTotalsRequest &request) = 0;
    // The row count of a balances.list filter and where each page starts
    // (docs/api.md, "balances.pages"): a table can show any part at once.
    virtual Reply<api::BalancePages> balancePages(const api::BalancePagesRequest &request) = 0;
    // The engine's version and price catalogue; any valid key may ask.
    virtual Reply<api::AboutInfo> about() = 0;
    virtual Reply<api::Page<api::CustomerSummary>>
    listCustomers(const api::PageRequest &request) = 0;
    virtual Reply<api::Customer> customer(const QString &customerId) = 0;
    virtual Reply<api::Page<api::FeatureInfo>> listFeatures() = 0;
    virtual Reply<api::Page<api::Product>> listProducts() = 0;
    virtual Reply<api::Page<api::RewardEntry>> listRewards() = 0;
    virtual Reply<api::Page<api::OrganizationInfo>> listOrganizations() = 0;
    virtual Reply<api::Page<api::UsageEvent>> listUsageEvents(const api::PageRequest &request) = 0;
    // Usage events of a filter added up per day, by feature, customer or model.
    virtual Reply<api::UsageTotals> usageTotals(const api::UsageTotalsRequest &request) = 0;
    // What a customer owes for its open billing period so far.
    virtual Reply<api::ChargesPreview>
    chargesPreview(const api::ChargesPreviewRequest &request) = 0;
    // Closed statements (customer_id, from and to filter), one by id, and
    // what they came to by month, product, feature or customer.
    virtual Reply<api::Page<api::Statement>> listStatements(const api::PageRequest &request) = 0;
    virtual Reply<api::Statement> statement(const QString &id) = 0;
    virtual Reply<api::RevenueSummary>
    revenueSummary(const api::RevenueSummaryRequest &request) = 0;
    // The imported customers' plans compared with their Stripe
    // subscriptions; every difference, nothing changed.
    virtual Reply<api::ProcessorsVerifyResponse>
    verifyProcessors(const api::ProcessorsVerifyRequest &request) = 0;
    // The organization's Stripe secret key for this connection's
    // environment: its hint, connecting one, forgetting it.
    virtual Reply<api::Page<api::ProcessorKeyInfo>> listProcessorKeys() = 0;
    virtual Reply<api::ProcessorKeyInfo>
    connectProcessorKey(const api::ProcessorKeyConnect &request) = 0;
    virtual Reply<api::Page<api::ProcessorKeyInfo>> disconnectProcessorKey() = 0;
    // One page of the organization's Stripe subscriptions, for the import
    // wizard's Stripe source.
    virtual Reply<api::StripeSubscriptionsPage>
    stripeSubscriptions(const api::StripeSubscriptionsRequest &request) = 0;
    // The price catalogue the engine or server uses, and what a call would
    // cost there (the customer's markups applied), recording nothing.
    virtual Reply<api::Page<api::ModelInfo>> listModels() = 0;
    virtual Reply<api::CallQuote> priceCall(const api::TrackTokensRequest &request) = 0;
    // Billing controls of a customer or one entity (docs/billing-controls.md),
    // the alerts they fired, and async calls that failed after acceptance.
    virtual Reply<api::BillingControlsAnswer> billingControls(const api::ControlsOwner &owner) = 0;
    virtual Reply<api::BillingControlsAnswer>
    updateBillingControls(const api::UpdateBillingControlsRequest &request) = 0;
    virtual Reply<api::Page<api::UsageAlertEvent>>
    listUsageAlerts(const api::PageRequest &request) = 0;
    // Every write through the API or the console, newest first (docs/api.md, "audit_log.list").
    virtual Reply<api::Page<api::AuditEntry>> listAuditLog(const api::AuditLogRequest &request) = 0;
    // Every change of a customer's balances, newest first (docs/ledger.md).
    virtual Reply<api::Page<api::LedgerEntry>> listLedger(const api::LedgerRequest &request) = 0;
    // A manual correction of one balance; answers its ledger entry (docs/ledger.md).
    virtual Reply<api::LedgerEntry> adjustBalance(const api::BalanceAdjustment &request) = 0;
    // A standalone balance that does not reset, made by hand; answers its
    // `grant` ledger entry, which names the new balance (docs/ledger.md).
    virtual Reply<api::LedgerEntry> createBalance(const api::BalanceCreation &request) = 0;
    // The environment's now, and a sandbox's clock moved forward with what
    // falls due applied, or previewed (docs/api.md, "The billing clock").
    virtual Reply<api::ClockReading> clock() = 0;
    virtual Reply<api::ClockAdvanced> advanceClock(const api::ClockAdvance &request) = 0;
    // Sandbox against production, and production made what the sandbox
    // shows, step by step (docs/promotion.md).
    virtual Reply<api::EnvironmentDiff> environmentDiff() = 0;
    virtual Reply<api::EnvironmentPromoted>
    promoteEnvironment(const api::EnvironmentPromotion &request) = 0;
    virtual Reply<api::Page<api::FailedEvent>>
    listFailedEvents(const api::PageRequest &request) = 0;
    virtual Reply<api::FailedEventOutcome>
    retryFailedEvents(const api::FailedEventIds &request) = 0;
    virtual Reply<api::FailedEventOutcome>
    discardFailedEvents(const api::FailedEventIds &request) = 0;
    // Webhooks (docs/api.md, "Webhooks"): endpoints, their deliveries, a
    // delivery sent again and a test event.
    virtual Reply<api::Page<api::WebhookEndpoint>> listWebhookEndpoints() = 0;
    virtual Reply<api::WebhookEndpoint>
    createWebhookEndpoint(const api::WebhookEndpointCreate &request) = 0;
    virtual Reply<api::WebhookEndpoint>
    updateWebhookEndpoint(const api::WebhookEndpointUpdate &request) = 0;
    virtual Reply<api::WebhookEndpointDeleted>
    deleteWebhookEndpoint(const api::WebhookTarget &request) = 0;
    virtual Reply<api::WebhookEndpoint> rotateWebhookSecret(const api::WebhookTarget &request) = 0;
    virtual Reply<api::WebhookDelivery> sendTestWebhook(const api::WebhookTarget &request) = 0;
    virtual Reply<api::Page<api::WebhookDelivery>>
    listWebhookDeliveries(const api::WebhookDeliveriesRequest &request) = 0;
    virtual Reply<api::WebhookDelivery> redeliverWebhook(const api::WebhookTarget &request) = 0;
    // API keys (docs/api.md, "API keys"): the environment's, made, revoked
    // and rolled; a secret is only in the answers of create and roll.
    virtual Reply<api::Page<api::ApiKey>> listApiKeys() = 0;
    virtual Reply<api::ApiKey> createApiKey(const api::ApiKeyCreate &request) = 0;
    virtual Reply<api::ApiKey> revokeApiKey(const api::ApiKeyTarget &request) = 0;
    virtual Reply<api::ApiKey> rollApiKey(const api::ApiKeyRoll &request) = 0;

    // Usage of any feature (docs/api.md, "Usage of any feature").
    virtual Reply<api::TrackTokensResponse>
    track(const api::TrackRequest &request,
          const std::optional<QString> &idempotencyKey = std::nullopt) = 0;
    virtual Reply<api::CheckResponse> check(const api::CheckRequest &request) = 0;
    virtual Reply<api::UsageBatchResponse> usageBatch(const api::UsageBatchRequest &request) = 0;
};

} // namespace md::backend
