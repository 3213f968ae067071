#include "services/remote/RemoteBackend.h"

#include "services/api/WireCodec.h"
#include "services/remote/NetworkWorker.h"

namespace md::remote {

using namespace Qt::StringLiterals;
using api::ApiError;

namespace {

const QByteArray EmptyBody = QByteArrayLiteral("{}");

// A path segment for a URL, percent-encoded.
QString segment(const QString &value)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(value));
}

} // namespace

RemoteBackend::RemoteBackend(QUrl baseUrl, QString apiKey, Options options)
    : m_baseUrl(std::move(baseUrl))
{
    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    if (!options.caCertificates.isEmpty())
        tls.addCaCertificates(options.caCertificates);
    m_worker = new NetworkWorker(std::move(apiKey), options.timeoutMs, tls);
    m_worker->moveToThread(&m_thread);
    QObject::connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.setObjectName(u"meterdesk-network"_s);
    m_thread.start();
}

RemoteBackend::~RemoteBackend()
{
    m_thread.quit();
    m_thread.wait();
}

QFuture<api::Result<QByteArray>>
RemoteBackend::post(const QString &path, const QByteArray &body,
                    const QList<std::pair<QByteArray, QByteArray>> &headers)
{
    auto promise = std::make_shared<QPromise<api::Result<QByteArray>>>();
    QFuture<api::Result<QByteArray>> future = promise->future();
    promise->start();
    QUrl url = m_baseUrl;
    url.setPath(url.path().chopped(url.path().endsWith(u'/') ? 1 : 0) + path);
    QMetaObject::invokeMethod(
        m_worker,
        [worker = m_worker, url, body, headers, promise] {
            worker->post(url, body, headers, promise);
        },
        Qt::QueuedConnection);
    return future;
}

backend::Reply<api::ListBalancesResponse>
RemoteBackend::listBalances(const api::ListBalancesRequest &request)
{
    return call<api::ListBalancesResponse>(u"/v1/balances.list"_s, api::toJsonText(request));
}

backend::Reply<api::BalancePages>
RemoteBackend::balancePages(const api::BalancePagesRequest &request)
{
    return call<api::BalancePages>(u"/v1/meterdesk/balances.pages"_s, api::toJsonText(request));
}

backend::Reply<api::BalanceTotals>
RemoteBackend::balanceTotals(const api::BalanceTotalsRequest &request)
{
    return call<api::BalanceTotals>(u"/v1/meterdesk/balances.totals"_s, api::toJsonText(request));
}

backend::Reply<api::ChargesPreview>
RemoteBackend::chargesPreview(const api::ChargesPreviewRequest &request)
{
    return call<api::ChargesPreview>(u"/v1/meterdesk/charges.preview"_s, api::toJsonText(request));
}

backend::Reply<api::Page<api::Statement>>
RemoteBackend::listStatements(const api::PageRequest &request)
{
    return call<api::Page<api::Statement>>(u"/v1/meterdesk/statements.list"_s,
                                           api::toJsonText(request));
}

backend::Reply<api::Statement> RemoteBackend::statement(const QString &id)
{
    return call<api::Statement>(u"/v1/meterdesk/statements.get"_s,
                                api::toJsonText(api::StatementGetRequest{id}));
}

backend::Reply<api::RevenueSummary>
RemoteBackend::revenueSummary(const api::RevenueSummaryRequest &request)
{
    return call<api::RevenueSummary>(u"/v1/meterdesk/revenue.summary"_s, api::toJsonText(request));
}

backend::Reply<api::Page<api::ProcessorKeyInfo>> RemoteBackend::listProcessorKeys()
{
    return call<api::Page<api::ProcessorKeyInfo>>(u"/v1/meterdesk/processors.keys"_s, "{}");
}

backend::Reply<api::ProcessorKeyInfo>
RemoteBackend::connectProcessorKey(const api::ProcessorKeyConnect &request)
{
    return call<api::ProcessorKeyInfo>(u"/v1/meterdesk/processors.connect"_s,
                                       api::toJsonText(request));
}

backend::Reply<api::Page<api::ProcessorKeyInfo>> RemoteBackend::disconnectProcessorKey()
{
    return call<api::Page<api::ProcessorKeyInfo>>(u"/v1/meterdesk/processors.disconnect"_s, "{}");
}

backend::Reply<api::StripeSubscriptionsPage>
RemoteBackend::stripeSubscriptions(const api::StripeSubscriptionsRequest &request)
{
    return call<api::StripeSubscriptionsPage>(u"/v1/meterdesk/processors.subscriptions"_s,
                                              api::toJsonText(request));
}

backend::Reply<api::ProcessorsVerifyResponse>
RemoteBackend::verifyProcessors(const api::ProcessorsVerifyRequest &request)
{
    return call<api::ProcessorsVerifyResponse>(u"/v1/meterdesk/processors.verify"_s,
                                               api::toJsonText(request));
}

backend::Reply<api::UsageTotals> RemoteBackend::usageTotals(const api::UsageTotalsRequest &request)
{
    return call<api::UsageTotals>(u"/v1/meterdesk/usage_events.totals"_s, api::toJsonText(request));
}

backend::Reply<api::ImportCustomerResponse>
RemoteBackend::importCustomer(const api::ImportCustomerRequest &request)
{
    return call<api::ImportCustomerResponse>(u"/v1/billing.import"_s, api::toJsonText(request));
}

backend::Reply<api::TrackTokensResponse>
RemoteBackend::trackTokens(const api::TrackTokensRequest &request,
                           const std::optional<QString> &idempotencyKey)
{
    return postTrack(u"/v1/balances.track_tokens"_s, api::toJsonText(request), request.customerId,
                     request.async, idempotencyKey);
}

backend::Reply<api::TrackTokensResponse>
RemoteBackend::postTrack(const QString &path, const QByteArray &body, const QString &customerId,
                         bool async, const std::optional<QString> &idempotencyKey)
{
    QList<std::pair<QByteArray, QByteArray>> headers;
    if (idempotencyKey)
        headers.append({"Idempotency-Key", idempotencyKey->toUtf8()});
    if (!async)
        return call<api::TrackTokensResponse>(path, body, headers);
    return post(path, body, headers)
        .then([customerId](
                  const api::Result<QByteArray> &answer) -> api::Result<api::TrackTokensResponse> {
            if (!answer)
                return answer.error();
            if (answer.value().isEmpty()) {
                api::TrackTokensResponse accepted;
                accepted.customerId = customerId;
                accepted.queued = true;
                return accepted;
            }
            return api::decodeBody<api::TrackTokensResponse>(answer.value());
        });
}

backend::Reply<api::UpdateRewardResponse>
RemoteBackend::updateReward(const api::UpdateRewardRequest &request)
{
    return call<api::UpdateRewardResponse>(u"/v1/rewards.update"_s, api::toJsonText(request));
}

backend::Reply<api::BillingPortalResponse>
RemoteBackend::billingPortal(const QString &customerId, const api::BillingPortalRequest &request)
{
    return call<api::BillingPortalResponse>(
        u"/v1/customers/%1/billing_portal"_s.arg(segment(customerId)), api::toJsonText(request));
}

backend::Reply<api::Product> RemoteBackend::updateProduct(const QString &productId,
                                                          const api::UpdateProductRequest &request)
{
    return call<api::Product>(u"/v1/products/%1"_s.arg(segment(productId)),
                              api::toJsonText(request));
}

backend::Reply<api::LinkOrganizationResponse>
RemoteBackend::linkOrganization(const api::LinkOrganizationRequest &request)
{
    return call<api::LinkOrganizationResponse>(u"/v1/platform/organizations/stripe"_s,
                                               api::toJsonText(request));
}

backend::Reply<backend::ConnectionInfo> RemoteBackend::connectionInfo()
{
    const QString location = m_baseUrl.toString(QUrl::RemoveUserInfo);
    return post(u"/v1/meterdesk/whoami"_s, EmptyBody)
        .then([location](
                  const api::Result<QByteArray> &answer) -> api::Result<backend::ConnectionInfo> {
            if (!answer)
                return answer.error();
            const api::JsonReader reader = api::JsonReader::fromBody(answer.value());
            const api::JsonReader org = reader.field("organization"_L1);
            backend::ConnectionInfo info{
                location, u"remote"_s, reader.field("environment"_L1).string(),
                org.field("slug"_L1).string(), org.field("name"_L1).string()};
            if (!reader.ok())
                return ApiError::received(502, u"invalid_response"_s, reader.error()->message);
            return info;
        });
}

backend::Reply<api::Page<api::CustomerSummary>>
RemoteBackend::listCustomers(const api::PageRequest &request)
{
    return call<api::Page<api::CustomerSummary>>(u"/v1/meterdesk/customers.list"_s,
                                                 api::toJsonText(request));
}

backend::Reply<api::Customer> RemoteBackend::customer(const QString &customerId)
{
    api::JsonWriter body;
    body.beginObject().field("customer_id"_L1, customerId).endObject();
    return call<api::Customer>(u"/v1/meterdesk/customers.get"_s, body.take());
}

backend::Reply<api::AboutInfo> RemoteBackend::about()
{
    return call<api::AboutInfo>(u"/v1/meterdesk/about"_s, EmptyBody);
}

backend::Reply<api::ClockReading> RemoteBackend::clock()
{
    return call<api::ClockReading>(u"/v1/meterdesk/clock.get"_s, EmptyBody);
}

backend::Reply<api::ClockAdvanced> RemoteBackend::advanceClock(const api::ClockAdvance &request)
{
    return call<api::ClockAdvanced>(u"/v1/meterdesk/clock.advance"_s, api::toJsonText(request));
}

backend::Reply<api::Page<api::ModelInfo>> RemoteBackend::listModels()
{
    return call<api::Page<api::ModelInfo>>(u"/v1/meterdesk/models.list"_s, EmptyBody);
}

backend::Reply<api::CallQuote> RemoteBackend::priceCall(const api::TrackTokensRequest &request)
{
    return call<api::CallQuote>(u"/v1/meterdesk/track_tokens.price"_s, api::toJsonText(request));
}

backend::Reply<api::Page<api::FeatureInfo>> RemoteBackend::listFeatures()
{
    return call<api::Page<api::FeatureInfo>>(u"/v1/meterdesk/features.list"_s, EmptyBody);
}

backend::Reply<api::Page<api::Product>> RemoteBackend::listProducts()
{
    return call<api::Page<api::Product>>(u"/v1/meterdesk/products.list"_s, EmptyBody);
}

backend::Reply<api::Page<api::RewardEntry>> RemoteBackend::listRewards()
{
    return call<api::Page<api::RewardEntry>>(u"/v1/meterdesk/rewards.list"_s, EmptyBody);
}

backend::Reply<api::Page<api::OrganizationInfo>> RemoteBackend::listOrganizations()
{
    return call<api::Page<api::OrganizationInfo>>(u"/v1/meterdesk/organizations.list"_s, EmptyBody);
}

backend::Reply<api::Page<api::UsageEvent>>
RemoteBackend::listUsageEvents(const api::PageRequest &request)
{
    return call<api::Page<api::UsageEvent>>(u"/v1/meterdesk/usage_events.list"_s,
                                            api::toJsonText(request));
}

backend::Reply<api::BillingControlsAnswer>
RemoteBackend::billingControls(const api::ControlsOwner &owner)
{
    return call<api::BillingControlsAnswer>(u"/v1/meterdesk/customers.billing_controls"_s,
                                            api::toJsonText(owner));
}

backend::Reply<api::BillingControlsAnswer>
RemoteBackend::updateBillingControls(const api::UpdateBillingControlsRequest &request)
{
    return call<api::BillingControlsAnswer>(u"/v1/meterdesk/customers.update_billing_controls"_s,
                                            api::toJsonText(request));
}

backend::Reply<api::Page<api::LedgerEntry>>
RemoteBackend::listLedger(const api::LedgerRequest &request)
{
    return call<api::Page<api::LedgerEntry>>(u"/v1/meterdesk/ledger.list"_s,
                                             api::toJsonText(request));
}

backend::Reply<api::EnvironmentDiff> RemoteBackend::environmentDiff()
{
    return call<api::EnvironmentDiff>(u"/v1/meterdesk/environments.diff"_s,
                                      api::toJsonText(api::EnvironmentDiffRequest{}));
}

backend::Reply<api::EnvironmentPromoted>
RemoteBackend::promoteEnvironment(const api::EnvironmentPromotion &request)
{
    return call<api::EnvironmentPromoted>(u"/v1/meterdesk/environments.promote"_s,
                                          api::toJsonText(request));
}

backend::Reply<api::LedgerEntry> RemoteBackend::adjustBalance(const api::BalanceAdjustment &request)
{
    return call<api::LedgerEntry>(u"/v1/meterdesk/balances.adjust"_s, api::toJsonText(request));
}

backend::Reply<api::LedgerEntry> RemoteBackend::createBalance(const api::BalanceCreation &request)
{
    return call<api::LedgerEntry>(u"/v1/meterdesk/balances.create"_s, api::toJsonText(request));
}

backend::Reply<api::Page<api::AuditEntry>>
RemoteBackend::listAuditLog(const api::AuditLogRequest &request)
{
    return call<api::Page<api::AuditEntry>>(u"/v1/meterdesk/audit_log.list"_s,
                                            api::toJsonText(request));
}

backend::Reply<api::Page<api::UsageAlertEvent>>
RemoteBackend::listUsageAlerts(const api::PageRequest &request)
{
    return call<api::Page<api::UsageAlertEvent>>(u"/v1/meterdesk/usage_alerts.list"_s,
                                                 api::toJsonText(request));
}

backend::Reply<api::Page<api::FailedEvent>>
RemoteBackend::listFailedEvents(const api::PageRequest &request)
{
    return call<api::Page<api::FailedEvent>>(u"/v1/meterdesk/track_queue.failed"_s,
                                             api::toJsonText(request));
}

backend::Reply<api::FailedEventOutcome>
RemoteBackend::retryFailedEvents(const api::FailedEventIds &request)
{
    return call<api::FailedEventOutcome>(u"/v1/meterdesk/track_queue.retry"_s,
                                         api::toJsonText(request));
}

backend::Reply<api::FailedEventOutcome>
RemoteBackend::discardFailedEvents(const api::FailedEventIds &request)
{
    return call<api::FailedEventOutcome>(u"/v1/meterdesk/track_queue.discard"_s,
                                         api::toJsonText(request));
}

backend::Reply<api::Page<api::WebhookEndpoint>> RemoteBackend::listWebhookEndpoints()
{
    return call<api::Page<api::WebhookEndpoint>>(u"/v1/meterdesk/webhook_endpoints.list"_s,
                                                 EmptyBody);
}

backend::Reply<api::WebhookEndpoint>
RemoteBackend::createWebhookEndpoint(const api::WebhookEndpointCreate &request)
{
    return call<api::WebhookEndpoint>(u"/v1/meterdesk/webhook_endpoints.create"_s,
                                      api::toJsonText(request));
}

backend::Reply<api::WebhookEndpoint>
RemoteBackend::updateWebhookEndpoint(const api::WebhookEndpointUpdate &request)
{
    return call<api::WebhookEndpoint>(u"/v1/meterdesk/webhook_endpoints.update"_s,
                                      api::toJsonText(request));
}

backend::Reply<api::WebhookEndpointDeleted>
RemoteBackend::deleteWebhookEndpoint(const api::WebhookTarget &request)
{
    return call<api::WebhookEndpointDeleted>(u"/v1/meterdesk/webhook_endpoints.delete"_s,
                                             api::toJsonText(request));
}

backend::Reply<api::WebhookEndpoint>
RemoteBackend::rotateWebhookSecret(const api::WebhookTarget &request)
{
    return call<api::WebhookEndpoint>(u"/v1/meterdesk/webhook_endpoints.rotate_secret"_s,
                                      api::toJsonText(request));
}

backend::Reply<api::WebhookDelivery>
RemoteBackend::sendTestWebhook(const api::WebhookTarget &request)
{
    return call<api::WebhookDelivery>(u"/v1/meterdesk/webhook_endpoints.send_test"_s,
                                      api::toJsonText(request));
}

backend::Reply<api::Page<api::WebhookDelivery>>
RemoteBackend::listWebhookDeliveries(const api::WebhookDeliveriesRequest &request)
{
    return call<api::Page<api::WebhookDelivery>>(u"/v1/meterdesk/webhook_deliveries.list"_s,
                                                 api::toJsonText(request));
}

backend::Reply<api::WebhookDelivery>
RemoteBackend::redeliverWebhook(const api::WebhookTarget &request)
{
    return call<api::WebhookDelivery>(u"/v1/meterdesk/webhook_deliveries.redeliver"_s,
                                      api::toJsonText(request));
}

} // namespace md::remote
