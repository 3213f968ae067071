// BillingBackend over the embedded engine: each call runs on a small pool of
// worker threads, each with its own database connection, through the same
// ApiOperations (scope checks included) that meterdesk-server uses. Billing
// portal links point at a loopback server that the PortalStarter it is given
// starts on first use; without one, opening a portal is refused.
#pragma once

#include "services/backend/BillingBackend.h"
#include "services/engine/ApiOperations.h"
#include "services/engine/PortalStarter.h"
#include "services/engine/WebhookStarter.h"

#include <QMutex>
#include <QThreadPool>

#include <memory>
#include <optional>

namespace md::embedded {

using backend::BillingBackend;
using backend::ConnectionInfo;
using backend::Reply;

class EngineBackend final : public BillingBackend
{
public:
    // Without an API key the console acts as the workspace's first master
    // organization, test environment, every scope (it owns the file). With
    // one, it acts exactly as that key would on a server.
    explicit EngineBackend(const QString &location, engine::Clock clock = {},
                           std::optional<QString> apiKey = std::nullopt,
                           engine::PortalStarter portal = {}, engine::WebhookStarter webhooks = {});
    ~EngineBackend() override;
    Q_DISABLE_COPY_MOVE(EngineBackend)

    enum class Workspace { Ready, Empty, DemoLoaded };
    // Migrates the database and, when asked and it is empty, loads the demo
    // workspace. Run once before other calls.
    QFuture<api::Result<Workspace>> prepare(bool loadDemoIfEmpty);
    // Loads the demo workspace into an empty database.
    QFuture<api::Result<Workspace>> loadDemo();

    // Prices calls with a models.dev catalogue file from now on, once it has
    // been read and validated; on any problem the one in use stays.
    QFuture<api::Result<api::CatalogueInfo>> loadCatalogue(const QString &path);

    Reply<api::ListBalancesResponse> listBalances(const api::ListBalancesRequest &request) override;
    Reply<api::BalanceTotals> balanceTotals(const api::BalanceTotalsRequest &request) override;
    Reply<api::BalancePages> balancePages(const api::BalancePagesRequest &request) override;
    Reply<api::UsageTotals> usageTotals(const api::UsageTotalsRequest &request) override;
    Reply<api::ChargesPreview> chargesPreview(const api::ChargesPreviewRequest &request) override;
    Reply<api::Page<api::Statement>> listStatements(const api::PageRequest &request) override;
    Reply<api::Statement> statement(const QString &id) override;
    Reply<api::RevenueSummary> revenueSummary(const api::RevenueSummaryRequest &request) override;
    Reply<api::ProcessorsVerifyResponse>
    verifyProcessors(const api::ProcessorsVerifyRequest &request) override;
    Reply<api::StripeSubscriptionsPage>
    stripeSubscriptions(const api::StripeSubscriptionsRequest &request) override;
    Reply<api::Page<api::ProcessorKeyInfo>> listProcessorKeys() override;
    Reply<api::ProcessorKeyInfo>
    connectProcessorKey(const api::ProcessorKeyConnect &request) override;
    Reply<api::Page<api::ProcessorKeyInfo>> disconnectProcessorKey() override;
    Reply<api::ImportCustomerResponse>
    importCustomer(const api::ImportCustomerRequest &request) override;
    Reply<api::TrackTokensResponse>
    trackTokens(const api::TrackTokensRequest &request,
                const std::optional<QString> &idempotencyKey = std::nullopt) override;
    Reply<api::UpdateRewardResponse> updateReward(const api::UpdateRewardRequest &request) override;
    Reply<api::BillingPortalResponse>
    billingPortal(const QString &customerId, const api::BillingPortalRequest &request) override;
    Reply<api::Product> updateProduct(const QString &productId,
                                      const api::UpdateProductRequest &request) override;
    Reply<api::LinkOrganizationResponse>
    linkOrganization(const api::LinkOrganizationRequest &request) override;

    Reply<ConnectionInfo> connectionInfo() override;
    Reply<api::AboutInfo> about() override;
    Reply<api::Page<api::CustomerSummary>> listCustomers(const api::PageRequest &request) override;
    Reply<api::Customer> customer(const QString &customerId) override;
    Reply<api::Page<api::FeatureInfo>> listFeatures() override;
    Reply<api::Page<api::Product>> listProducts() override;
    Reply<api::Page<api::RewardEntry>> listRewards() override;
    Reply<api::Page<api::OrganizationInfo>> listOrganizations() override;
    Reply<api::Page<api::UsageEvent>> listUsageEvents(const api::PageRequest &request) override;
    Reply<api::Page<api::ModelInfo>> listModels() override;
    Reply<api::CallQuote> priceCall(const api::TrackTokensRequest &request) override;
    Reply<api::BillingControlsAnswer> billingControls(const api::ControlsOwner &owner) override;
    Reply<api::BillingControlsAnswer>
    updateBillingControls(const api::UpdateBillingControlsRequest &request) override;
    Reply<api::Page<api::UsageAlertEvent>>
    listUsageAlerts(const api::PageRequest &request) override;
    Reply<api::Page<api::AuditEntry>> listAuditLog(const api::AuditLogRequest &request) override;
    Reply<api::Page<api::LedgerEntry>> listLedger(const api::LedgerRequest &request) override;
    Reply<api::LedgerEntry> adjustBalance(const api::BalanceAdjustment &request) override;
    Reply<api::LedgerEntry> createBalance(const api::BalanceCreation &request) override;
    Reply<api::ClockReading> clock() override;
    Reply<api::ClockAdvanced> advanceClock(const api::ClockAdvance &request) override;
    Reply<api::EnvironmentDiff> environmentDiff() override;
    Reply<api::EnvironmentPromoted>
    promoteEnvironment(const api::EnvironmentPromotion &request) override;
    Reply<api::Page<api::FailedEvent>> listFailedEvents(const api::PageRequest &request) override;
    Reply<api::FailedEventOutcome> retryFailedEvents(const api::FailedEventIds &request) override;
    Reply<api::FailedEventOutcome> discardFailedEvents(const api::FailedEventIds &request) override;
    // EngineBackendWebhooks.cpp
    Reply<api::Page<api::WebhookEndpoint>> listWebhookEndpoints() override;
    Reply<api::WebhookEndpoint>
    createWebhookEndpoint(const api::WebhookEndpointCreate &request) override;
    Reply<api::WebhookEndpoint>
    updateWebhookEndpoint(const api::WebhookEndpointUpdate &request) override;
    Reply<api::WebhookEndpointDeleted>
    deleteWebhookEndpoint(const api::WebhookTarget &request) override;
    Reply<api::WebhookEndpoint> rotateWebhookSecret(const api::WebhookTarget &request) override;
    Reply<api::WebhookDelivery> sendTestWebhook(const api::WebhookTarget &request) override;
    Reply<api::Page<api::WebhookDelivery>>
    listWebhookDeliveries(const api::WebhookDeliveriesRequest &request) override;
    Reply<api::WebhookDelivery> redeliverWebhook(const api::WebhookTarget &request) override;
    // EngineBackendKeys.cpp
    Reply<api::Page<api::ApiKey>> listApiKeys() override;
    Reply<api::ApiKey> createApiKey(const api::ApiKeyCreate &request) override;
    Reply<api::ApiKey> revokeApiKey(const api::ApiKeyTarget &request) override;
    Reply<api::ApiKey> rollApiKey(const api::ApiKeyRoll &request) override;
    // EngineBackendUsage.cpp
    Reply<api::TrackTokensResponse>
    track(const api::TrackRequest &request,
          const std::optional<QString> &idempotencyKey = std::nullopt) override;
    Reply<api::CheckResponse> check(const api::CheckRequest &request) override;
    Reply<api::UsageBatchResponse> usageBatch(const api::UsageBatchRequest &request) override;

private:
    // Runs `call(service, key)` on the pool once the acting key is known.
    template <typename T, typename F> Reply<T> run(F &&call);
    // Like run, with `request` encoded and decoded first, so the embedded path
    // rejects exactly what the wire rejects.
    template <typename T, typename R, typename F> Reply<T> runReceived(const R &request, F &&call);
    // A scan of every row, on its own pool: `call(service, key, request, stop)`.
    // Cancelling the reply skips a scan not started and stops a running one
    // within a few thousand rows, freeing its thread for the newest filter.
    template <typename T, typename R, typename F> Reply<T> runScan(const R &request, F &&call);
    api::Result<engine::KeyContext> actingKey();

    std::shared_ptr<engine::Engine> m_engine;
    engine::PortalStarter m_startPortal;
    std::shared_ptr<void> m_portal; // made on the thread that opens a portal
    engine::WebhookStarter m_startWebhooks;
    std::shared_ptr<void> m_webhooks; // sending once prepared; stopped before the engine goes
    engine::ApiOperations m_service;
    std::optional<QString> m_apiKey;
    QMutex m_keyMutex;
    std::optional<engine::KeyContext> m_key;
    QThreadPool m_pool;
    QThreadPool m_scanPool;
};

} // namespace md::embedded
