// BillingBackend over HTTP: POST {base_url}/v1/... with the bearer key,
// Content-Type: application/json and x-api-version: 2.4.0. Requests run on a
// network thread of its own, so callers never block and may wait if they
// must. Every failure (HTTP error, timeout, refused connection, TLS, a body
// that is not the expected JSON) becomes an ApiError that says what happened.
#pragma once

#include "services/api/WireCodec.h"
#include "services/backend/BillingBackend.h"

#include <QSslCertificate>
#include <QThread>
#include <QUrl>

namespace md::remote {

class NetworkWorker;

class RemoteBackend final : public backend::BillingBackend
{
public:
    struct Options
    {
        int timeoutMs = 30000;
        // Extra certificate authorities to trust (e.g. a team's self-signed server).
        QList<QSslCertificate> caCertificates;
    };

    RemoteBackend(QUrl baseUrl, QString apiKey, Options options);
    RemoteBackend(QUrl baseUrl, QString apiKey)
        : RemoteBackend(std::move(baseUrl), std::move(apiKey), Options{})
    {}
    ~RemoteBackend() override;
    Q_DISABLE_COPY_MOVE(RemoteBackend)

    // POSTs the JSON text `body` to `path` (below the base URL) and returns
    // the JSON text answered (empty for 204), or the error. The typed calls
    // below are built on it.
    QFuture<api::Result<QByteArray>>
    post(const QString &path, const QByteArray &body,
         const QList<std::pair<QByteArray, QByteArray>> &headers = {});

    backend::Reply<api::ListBalancesResponse>
    listBalances(const api::ListBalancesRequest &request) override;
    backend::Reply<api::BalanceTotals>
    balanceTotals(const api::BalanceTotalsRequest &request) override;
    backend::Reply<api::BalancePages>
    balancePages(const api::BalancePagesRequest &request) override;
    backend::Reply<api::UsageTotals> usageTotals(const api::UsageTotalsRequest &request) override;
    backend::Reply<api::ChargesPreview>
    chargesPreview(const api::ChargesPreviewRequest &request) override;
    backend::Reply<api::Page<api::Statement>>
    listStatements(const api::PageRequest &request) override;
    backend::Reply<api::Statement> statement(const QString &id) override;
    backend::Reply<api::RevenueSummary>
    revenueSummary(const api::RevenueSummaryRequest &request) override;
    backend::Reply<api::ProcessorsVerifyResponse>
    verifyProcessors(const api::ProcessorsVerifyRequest &request) override;
    backend::Reply<api::StripeSubscriptionsPage>
    stripeSubscriptions(const api::StripeSubscriptionsRequest &request) override;
    backend::Reply<api::Page<api::ProcessorKeyInfo>> listProcessorKeys() override;
    backend::Reply<api::ProcessorKeyInfo>
    connectProcessorKey(const api::ProcessorKeyConnect &request) override;
    backend::Reply<api::Page<api::ProcessorKeyInfo>> disconnectProcessorKey() override;
    backend::Reply<api::ImportCustomerResponse>
    importCustomer(const api::ImportCustomerRequest &request) override;
    backend::Reply<api::TrackTokensResponse>
    trackTokens(const api::TrackTokensRequest &request,
                const std::optional<QString> &idempotencyKey = std::nullopt) override;
    backend::Reply<api::UpdateRewardResponse>
    updateReward(const api::UpdateRewardRequest &request) override;
    backend::Reply<api::BillingPortalResponse>
    billingPortal(const QString &customerId, const api::BillingPortalRequest &request) override;
    backend::Reply<api::Product> updateProduct(const QString &productId,
                                               const api::UpdateProductRequest &request) override;
    backend::Reply<api::LinkOrganizationResponse>
    linkOrganization(const api::LinkOrganizationRequest &request) override;

    backend::Reply<backend::ConnectionInfo> connectionInfo() override;
    backend::Reply<api::AboutInfo> about() override;
    backend::Reply<api::Page<api::CustomerSummary>>
    listCustomers(const api::PageRequest &request) override;
    backend::Reply<api::Customer> customer(const QString &customerId) override;
    backend::Reply<api::Page<api::FeatureInfo>> listFeatures() override;
    backend::Reply<api::Page<api::ModelInfo>> listModels() override;
    backend::Reply<api::CallQuote> priceCall(const api::TrackTokensRequest &request) override;
    backend::Reply<api::BillingControlsAnswer>
    billingControls(const api::ControlsOwner &owner) override;
    backend::Reply<api::BillingControlsAnswer>
    updateBillingControls(const api::UpdateBillingControlsRequest &request) override;
    backend::Reply<api::Page<api::UsageAlertEvent>>
    listUsageAlerts(const api::PageRequest &request) override;
    backend::Reply<api::Page<api::AuditEntry>>
    listAuditLog(const api::AuditLogRequest &request) override;
    backend::Reply<api::Page<api::LedgerEntry>>
    listLedger(const api::LedgerRequest &request) override;
    backend::Reply<api::LedgerEntry> adjustBalance(const api::BalanceAdjustment &request) override;
    backend::Reply<api::LedgerEntry> createBalance(const api::BalanceCreation &request) override;
    backend::Reply<api::ClockReading> clock() override;
    backend::Reply<api::ClockAdvanced> advanceClock(const api::ClockAdvance &request) override;
    backend::Reply<api::EnvironmentDiff> environmentDiff() override;
    backend::Reply<api::EnvironmentPromoted>
    promoteEnvironment(const api::EnvironmentPromotion &request) override;
    backend::Reply<api::Page<api::FailedEvent>>
    listFailedEvents(const api::PageRequest &request) override;
    backend::Reply<api::FailedEventOutcome>
    retryFailedEvents(const api::FailedEventIds &request) override;
    backend::Reply<api::FailedEventOutcome>
    discardFailedEvents(const api::FailedEventIds &request) override;
    backend::Reply<api::Page<api::WebhookEndpoint>> listWebhookEndpoints() override;
    backend::Reply<api::WebhookEndpoint>
    createWebhookEndpoint(const api::WebhookEndpointCreate &request) override;
    backend::Reply<api::WebhookEndpoint>
    updateWebhookEndpoint(const api::WebhookEndpointUpdate &request) override;
    backend::Reply<api::WebhookEndpointDeleted>
    deleteWebhookEndpoint(const api::WebhookTarget &request) override;
    backend::Reply<api::WebhookEndpoint>
    rotateWebhookSecret(const api::WebhookTarget &request) override;
    backend::Reply<api::WebhookDelivery>
    sendTestWebhook(const api::WebhookTarget &request) override;
    backend::Reply<api::Page<api::WebhookDelivery>>
    listWebhookDeliveries(const api::WebhookDeliveriesRequest &request) override;
    backend::Reply<api::WebhookDelivery>
    redeliverWebhook(const api::WebhookTarget &request) override;
    // RemoteBackendKeys.cpp
    backend::Reply<api::Page<api::ApiKey>> listApiKeys() override;
    backend::Reply<api::ApiKey> createApiKey(const api::ApiKeyCreate &request) override;
    backend::Reply<api::ApiKey> revokeApiKey(const api::ApiKeyTarget &request) override;
    backend::Reply<api::ApiKey> rollApiKey(const api::ApiKeyRoll &request) override;
    // RemoteBackendUsage.cpp
    backend::Reply<api::TrackTokensResponse>
    track(const api::TrackRequest &request,
          const std::optional<QString> &idempotencyKey = std::nullopt) override;
    backend::Reply<api::CheckResponse> check(const api::CheckRequest &request) override;
    backend::Reply<api::UsageBatchResponse>
    usageBatch(const api::UsageBatchRequest &request) override;
    backend::Reply<api::Page<api::Product>> listProducts() override;
    backend::Reply<api::Page<api::RewardEntry>> listRewards() override;
    backend::Reply<api::Page<api::OrganizationInfo>> listOrganizations() override;
    backend::Reply<api::Page<api::UsageEvent>>
    listUsageEvents(const api::PageRequest &request) override;

private:
    // A track route: 200 with the call's answer, or 204 when stored with
    // the async flag (a server that applied it at once may still answer 200).
    backend::Reply<api::TrackTokensResponse>
    postTrack(const QString &path, const QByteArray &body, const QString &customerId, bool async,
              const std::optional<QString> &idempotencyKey);
    template <typename T>
    backend::Reply<T> call(const QString &path, const QByteArray &body,
                           const QList<std::pair<QByteArray, QByteArray>> &headers = {});

    QUrl m_baseUrl;
    QThread m_thread;
    NetworkWorker *m_worker; // lives on m_thread
};

// Defined here for the methods kept in files of their own (RemoteBackendKeys.cpp).
template <typename T>
backend::Reply<T> RemoteBackend::call(const QString &path, const QByteArray &body,
                                      const QList<std::pair<QByteArray, QByteArray>> &headers)
{
    return post(path, body, headers)
        .then([path](const api::Result<QByteArray> &answer) -> api::Result<T> {
            if (!answer)
                return answer.error();
            auto decoded = api::decodeBody<T>(answer.value());
            if (!decoded)
                return api::ApiError::received(
                    502, QStringLiteral("invalid_response"),
                    QStringLiteral("the server's answer to %1 is not what the API promises: %2")
                        .arg(path, decoded.error().message));
            return decoded;
        });
}

} // namespace md::remote
