// A BillingBackend that answers every call with 501, for tests that script
// only the calls they care about.
#pragma once

#include "services/backend/BillingBackend.h"

#include <QFuture>

namespace md::test {

class StubBackend : public backend::BillingBackend
{
public:
    template <typename T> static backend::Reply<T> unavailable()
    {
        return QtFuture::makeReadyFuture(
            api::Result<T>(api::ApiError::notImplemented(QStringLiteral("this call"))));
    }

    backend::Reply<api::ListBalancesResponse>
    listBalances(const api::ListBalancesRequest &) override
    {
        return unavailable<api::ListBalancesResponse>();
    }
    backend::Reply<api::BalanceTotals> balanceTotals(const api::BalanceTotalsRequest &) override
    {
        return unavailable<api::BalanceTotals>();
    }
    backend::Reply<api::BalancePages> balancePages(const api::BalancePagesRequest &) override
    {
        return unavailable<api::BalancePages>();
    }
    backend::Reply<api::ImportCustomerResponse>
    importCustomer(const api::ImportCustomerRequest &) override
    {
        return unavailable<api::ImportCustomerResponse>();
    }
    backend::Reply<api::TrackTokensResponse>
    trackTokens(const api::TrackTokensRequest &,
                const std::optional<QString> & = std::nullopt) override
    {
        return unavailable<api::TrackTokensResponse>();
    }
    backend::Reply<api::UpdateRewardResponse>
    updateReward(const api::UpdateRewardRequest &) override
    {
        return unavailable<api::UpdateRewardResponse>();
    }
    backend::Reply<api::BillingPortalResponse>
    billingPortal(const QString &, const api::BillingPortalRequest &) override
    {
        return unavailable<api::BillingPortalResponse>();
    }
    backend::Reply<api::Product> updateProduct(const QString &,
                                               const api::UpdateProductRequest &) override
    {
        return unavailable<api::Product>();
    }
    backend::Reply<api::LinkOrganizationResponse>
    linkOrganization(const api::LinkOrganizationRequest &) override
    {
        return unavailable<api::LinkOrganizationResponse>();
    }
    backend::Reply<backend::ConnectionInfo> connectionInfo() override
    {
        return unavailable<backend::ConnectionInfo>();
    }
    backend::Reply<api::Page<api::CustomerSummary>> listCustomers(const api::PageRequest &) override
    {
        return unavailable<api::Page<api::CustomerSummary>>();
    }
    backend::Reply<api::Customer> customer(const QString &) override
    {
        return unavailable<api::Customer>();
    }
    backend::Reply<api::Page<api::FeatureInfo>> listFeatures() override
    {
        return unavailable<api::Page<api::FeatureInfo>>();
    }
    backend::Reply<api::AboutInfo> about() override { return unavailable<api::AboutInfo>(); }
    backend::Reply<api::Page<api::ModelInfo>> listModels() override
    {
        return unavailable<api::Page<api::ModelInfo>>();
    }
    backend::Reply<api::CallQuote> priceCall(const api::TrackTokensRequest &) override
    {
        return unavailable<api::CallQuote>();
    }
    backend::Reply<api::Page<api::Product>> listProducts() override
    {
        return unavailable<api::Page<api::Product>>();
    }
    backend::Reply<api::Page<api::RewardEntry>> listRewards() override
    {
        return unavailable<api::Page<api::RewardEntry>>();
    }
    backend::Reply<api::Page<api::OrganizationInfo>> listOrganizations() override
    {
        return unavailable<api::Page<api::OrganizationInfo>>();
    }
    backend::Reply<api::Page<api::UsageEvent>> listUsageEvents(const api::PageRequest &) override
    {
        return unavailable<api::Page<api::UsageEvent>>();
    }
    backend::Reply<api::ChargesPreview> chargesPreview(const api::ChargesPreviewRequest &) override
    {
        return unavailable<api::ChargesPreview>();
    }
    backend::Reply<api::Page<api::Statement>> listStatements(const api::PageRequest &) override
    {
        return unavailable<api::Page<api::Statement>>();
    }
    backend::Reply<api::Statement> statement(const QString &) override
    {
        return unavailable<api::Statement>();
    }
    backend::Reply<api::Page<api::ProcessorKeyInfo>> listProcessorKeys() override
    {
        return unavailable<api::Page<api::ProcessorKeyInfo>>();
    }
    backend::Reply<api::ProcessorKeyInfo>
    connectProcessorKey(const api::ProcessorKeyConnect &) override
    {
        return unavailable<api::ProcessorKeyInfo>();
    }
    backend::Reply<api::Page<api::ProcessorKeyInfo>> disconnectProcessorKey() override
    {
        return unavailable<api::Page<api::ProcessorKeyInfo>>();
    }
    backend::Reply<api::StripeSubscriptionsPage>
    stripeSubscriptions(const api::StripeSubscriptionsRequest &) override
    {
        return unavailable<api::StripeSubscriptionsPage>();
    }
    backend::Reply<api::ProcessorsVerifyResponse>
    verifyProcessors(const api::ProcessorsVerifyRequest &) override
    {
        return unavailable<api::ProcessorsVerifyResponse>();
    }
    backend::Reply<api::RevenueSummary> revenueSummary(const api::RevenueSummaryRequest &) override
    {
        return unavailable<api::RevenueSummary>();
    }
    backend::Reply<api::UsageTotals> usageTotals(const api::UsageTotalsRequest &) override
    {
        return unavailable<api::UsageTotals>();
    }
    backend::Reply<api::BillingControlsAnswer> billingControls(const api::ControlsOwner &) override
    {
        return unavailable<api::BillingControlsAnswer>();
    }
    backend::Reply<api::BillingControlsAnswer>
    updateBillingControls(const api::UpdateBillingControlsRequest &) override
    {
        return unavailable<api::BillingControlsAnswer>();
    }
    backend::Reply<api::Page<api::AuditEntry>> listAuditLog(const api::AuditLogRequest &) override
    {
        return unavailable<api::Page<api::AuditEntry>>();
    }
    backend::Reply<api::Page<api::LedgerEntry>> listLedger(const api::LedgerRequest &) override
    {
        return unavailable<api::Page<api::LedgerEntry>>();
    }
    backend::Reply<api::LedgerEntry> adjustBalance(const api::BalanceAdjustment &) override
    {
        return unavailable<api::LedgerEntry>();
    }
    backend::Reply<api::LedgerEntry> createBalance(const api::BalanceCreation &) override
    {
        return unavailable<api::LedgerEntry>();
    }
    backend::Reply<api::ClockReading> clock() override { return unavailable<api::ClockReading>(); }
    backend::Reply<api::ClockAdvanced> advanceClock(const api::ClockAdvance &) override
    {
        return unavailable<api::ClockAdvanced>();
    }
    backend::Reply<api::EnvironmentDiff> environmentDiff() override
    {
        return unavailable<api::EnvironmentDiff>();
    }
    backend::Reply<api::EnvironmentPromoted>
    promoteEnvironment(const api::EnvironmentPromotion &) override
    {
        return unavailable<api::EnvironmentPromoted>();
    }
    backend::Reply<api::Page<api::UsageAlertEvent>>
    listUsageAlerts(const api::PageRequest &) override
    {
        return unavailable<api::Page<api::UsageAlertEvent>>();
    }
    backend::Reply<api::Page<api::FailedEvent>> listFailedEvents(const api::PageRequest &) override
    {
        return unavailable<api::Page<api::FailedEvent>>();
    }
    backend::Reply<api::FailedEventOutcome> retryFailedEvents(const api::FailedEventIds &) override
    {
        return unavailable<api::FailedEventOutcome>();
    }
    backend::Reply<api::FailedEventOutcome>
    discardFailedEvents(const api::FailedEventIds &) override
    {
        return unavailable<api::FailedEventOutcome>();
    }
    backend::Reply<api::Page<api::WebhookEndpoint>> listWebhookEndpoints() override
    {
        return unavailable<api::Page<api::WebhookEndpoint>>();
    }
    backend::Reply<api::WebhookEndpoint>
    createWebhookEndpoint(const api::WebhookEndpointCreate &) override
    {
        return unavailable<api::WebhookEndpoint>();
    }
    backend::Reply<api::WebhookEndpoint>
    updateWebhookEndpoint(const api::WebhookEndpointUpdate &) override
    {
        return unavailable<api::WebhookEndpoint>();
    }
    backend::Reply<api::WebhookEndpointDeleted>
    deleteWebhookEndpoint(const api::WebhookTarget &) override
    {
        return unavailable<api::WebhookEndpointDeleted>();
    }
    backend::Reply<api::WebhookEndpoint> rotateWebhookSecret(const api::WebhookTarget &) override
    {
        return unavailable<api::WebhookEndpoint>();
    }
    backend::Reply<api::WebhookDelivery> sendTestWebhook(const api::WebhookTarget &) override
    {
        return unavailable<api::WebhookDelivery>();
    }
    backend::Reply<api::Page<api::WebhookDelivery>>
    listWebhookDeliveries(const api::WebhookDeliveriesRequest &) override
    {
        return unavailable<api::Page<api::WebhookDelivery>>();
    }
    backend::Reply<api::WebhookDelivery> redeliverWebhook(const api::WebhookTarget &) override
    {
        return unavailable<api::WebhookDelivery>();
    }
    backend::Reply<api::Page<api::ApiKey>> listApiKeys() override
    {
        return unavailable<api::Page<api::ApiKey>>();
    }
    backend::Reply<api::ApiKey> createApiKey(const api::ApiKeyCreate &) override
    {
        return unavailable<api::ApiKey>();
    }
    backend::Reply<api::ApiKey> revokeApiKey(const api::ApiKeyTarget &) override
    {
        return unavailable<api::ApiKey>();
    }
    backend::Reply<api::ApiKey> rollApiKey(const api::ApiKeyRoll &) override
    {
        return unavailable<api::ApiKey>();
    }
    backend::Reply<api::TrackTokensResponse> track(const api::TrackRequest &,
                                                   const std::optional<QString> &) override
    {
        return unavailable<api::TrackTokensResponse>();
    }
    backend::Reply<api::CheckResponse> check(const api::CheckRequest &) override
    {
        return unavailable<api::CheckResponse>();
    }
    backend::Reply<api::UsageBatchResponse> usageBatch(const api::UsageBatchRequest &) override
    {
        return unavailable<api::UsageBatchResponse>();
    }
};

} // namespace md::test
