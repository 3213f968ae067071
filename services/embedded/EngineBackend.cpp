#include "services/embedded/EngineBackend.h"
#include "services/embedded/EngineBackendCalls.h"

#include "services/api/WireCodec.h"
#include "services/engine/workspace/DemoWorkspace.h"

#include <QtConcurrent/QtConcurrentRun>

namespace md::embedded {

using namespace Qt::StringLiterals;

EngineBackend::EngineBackend(const QString &location, engine::Clock clock,
                             std::optional<QString> apiKey, engine::PortalStarter portal,
                             engine::WebhookStarter webhooks)
    : m_engine(std::make_shared<engine::Engine>(location, std::move(clock)))
    , m_startPortal(std::move(portal))
    , m_startWebhooks(std::move(webhooks))
    , m_service(*m_engine)
    , m_apiKey(std::move(apiKey))
{
    // The console shows a window of rows, not a server's working set: a
    // smaller page cache per connection keeps its memory bounded
    // (docs/performance.md, "Windowed table").
    m_engine->database().setCacheKiB(4096);
    // Threads stay alive so their database connections are reused.
    m_pool.setMaxThreadCount(2);
    m_pool.setExpiryTimeout(-1);
    // Reads of the whole filter (page starts, usage charts, totals a kept
    // sum cannot answer: 0.1 to 0.4 s on 2,000,000 balances) run on threads
    // of their own, so a page of rows never waits behind one; three, so that
    // the totals of a filter change (milliseconds from the kept sums) do not
    // wait behind the page starts and a usage chart.
    m_scanPool.setMaxThreadCount(3);
    m_scanPool.setExpiryTimeout(-1);
}

EngineBackend::~EngineBackend()
{
    m_scanPool.waitForDone();
    m_pool.waitForDone();
}

QFuture<api::Result<EngineBackend::Workspace>> EngineBackend::prepare(bool loadDemoIfEmpty)
{
    return QtConcurrent::run(
        &m_pool, [this, engine = m_engine, loadDemoIfEmpty]() -> api::Result<Workspace> {
            if (auto opened = engine->open(); !opened)
                return opened.error();
            engine->trackQueue().startWorker();
            engine->startClock();
            // The console on a workspace file of its own sends its webhooks, as
            // a server would; a shared PostgreSQL database has servers for that.
            // (prepare() runs once; the destructor waits for this pool first.)
            if (m_startWebhooks && !m_webhooks && engine->dialect() == engine::Dialect::Sqlite)
                m_webhooks = m_startWebhooks(*engine);
            auto empty = engine->isEmpty();
            if (!empty)
                return empty.error();
            if (!empty.value())
                return Workspace::Ready;
            if (!loadDemoIfEmpty)
                return Workspace::Empty;
            engine::DemoOptions options;
            options.nowMs = engine->now();
            if (auto loaded = engine->loadWorkspace(engine::DemoWorkspace::build(options)); !loaded)
                return loaded.error();
            return Workspace::DemoLoaded;
        });
}

QFuture<api::Result<api::CatalogueInfo>> EngineBackend::loadCatalogue(const QString &path)
{
    return QtConcurrent::run(
        &m_pool, [engine = m_engine, path]() -> api::Result<api::CatalogueInfo> {
            auto catalogue = engine::PriceCatalogue::fromFile(path);
            if (!catalogue)
                return catalogue.error();
            auto shared =
                std::make_shared<const engine::PriceCatalogue>(std::move(catalogue.value()));
            api::CatalogueInfo info = shared->info();
            engine->setCatalogue(std::move(shared));
            return info;
        });
}

QFuture<api::Result<EngineBackend::Workspace>> EngineBackend::loadDemo()
{
    return prepare(true);
}

api::Result<engine::KeyContext> EngineBackend::actingKey()
{
    const QMutexLocker lock(&m_keyMutex);
    if (m_key)
        return *m_key;
    if (m_apiKey) {
        auto key = m_engine->authenticate(*m_apiKey);
        if (!key)
            return key.error();
        m_key = key.value();
        return *m_key;
    }
    auto orgs = m_engine->organizations();
    if (!orgs)
        return orgs.error();
    for (const engine::OrganizationRow &org : orgs.value()) {
        if (!org.isTenant) {
            m_key = engine::KeyContext{{org.pk, engine::Environment::Sandbox},
                                       org.id,
                                       org.slug,
                                       {u"*"_s},
                                       org.name,
                                       {},
                                       {},
                                       {}};
            return *m_key;
        }
    }
    return api::ApiError::notFound(
        api::ErrorCode::NotFound,
        u"the workspace has no organization yet; load a workspace file or the demo"_s);
}

Reply<api::ListBalancesResponse>
EngineBackend::listBalances(const api::ListBalancesRequest &request)
{
    return runReceived<api::ListBalancesResponse>(
        request, [](auto &s, const auto &k, const auto &r) { return s.listBalances(k, r); });
}

Reply<api::BalanceTotals> EngineBackend::balanceTotals(const api::BalanceTotalsRequest &request)
{
    return runScan<api::BalanceTotals>(
        request, [](auto &s, auto &k, auto &r, auto stop) { return s.balanceTotals(k, r, stop); });
}

Reply<api::BalancePages> EngineBackend::balancePages(const api::BalancePagesRequest &request)
{
    return runScan<api::BalancePages>(
        request, [](auto &s, auto &k, auto &r, auto stop) { return s.balancePages(k, r, stop); });
}

Reply<api::UsageTotals> EngineBackend::usageTotals(const api::UsageTotalsRequest &request)
{
    return runScan<api::UsageTotals>(
        request, [](auto &s, auto &k, auto &r, auto stop) { return s.usageTotals(k, r, stop); });
}

Reply<api::ImportCustomerResponse>
EngineBackend::importCustomer(const api::ImportCustomerRequest &request)
{
    return runReceived<api::ImportCustomerResponse>(
        request, [](auto &s, const auto &k, const auto &r) { return s.importCustomer(k, r); });
}

Reply<api::TrackTokensResponse>
EngineBackend::trackTokens(const api::TrackTokensRequest &request,
                           const std::optional<QString> &idempotencyKey)
{
    return runReceived<api::TrackTokensResponse>(
        request, [idempotencyKey](auto &s, const auto &k, const auto &r) {
            return s.trackTokens(k, r, idempotencyKey);
        });
}

Reply<api::UpdateRewardResponse>
EngineBackend::updateReward(const api::UpdateRewardRequest &request)
{
    return runReceived<api::UpdateRewardResponse>(
        request, [](auto &s, const auto &k, const auto &r) { return s.updateReward(k, r); });
}

Reply<api::BillingPortalResponse>
EngineBackend::billingPortal(const QString &customerId, const api::BillingPortalRequest &request)
{
    // The first portal opened starts the loopback server its links point at.
    if (!m_portal && m_startPortal) {
        auto started = m_startPortal(*m_engine);
        if (!started)
            return QtFuture::makeReadyFuture(
                api::Result<api::BillingPortalResponse>(started.error()));
        m_portal = std::move(started.value());
    }
    return runReceived<api::BillingPortalResponse>(
        request, [customerId](auto &s, const auto &k, const auto &r) {
            return s.billingPortal(k, customerId, r);
        });
}

Reply<api::Product> EngineBackend::updateProduct(const QString &productId,
                                                 const api::UpdateProductRequest &request)
{
    return runReceived<api::Product>(request, [productId](auto &s, const auto &k, const auto &r) {
        return s.updateProduct(k, productId, r);
    });
}

Reply<api::LinkOrganizationResponse>
EngineBackend::linkOrganization(const api::LinkOrganizationRequest &request)
{
    return runReceived<api::LinkOrganizationResponse>(
        request, [](auto &s, const auto &k, const auto &r) { return s.linkOrganization(k, r); });
}

Reply<ConnectionInfo> EngineBackend::connectionInfo()
{
    return run<ConnectionInfo>(
        [engine = m_engine](engine::ApiOperations &,
                            const engine::KeyContext &k) -> api::Result<ConnectionInfo> {
            auto orgs = engine->organizations();
            if (!orgs)
                return orgs.error();
            QString name;
            for (const engine::OrganizationRow &org : orgs.value())
                if (org.pk == k.scope.orgPk)
                    name = org.name;
            return ConnectionInfo{engine->database().displayName(), u"embedded"_s,
                                  k.scope.envWord(), k.orgSlug, name};
        });
}

Reply<api::AboutInfo> EngineBackend::about()
{
    return run<api::AboutInfo>(
        [](engine::ApiOperations &s, const engine::KeyContext &k) { return s.about(k); });
}

Reply<api::Page<api::CustomerSummary>> EngineBackend::listCustomers(const api::PageRequest &request)
{
    return runReceived<api::Page<api::CustomerSummary>>(
        request, [](auto &s, const auto &k, const auto &r) { return s.listCustomers(k, r); });
}

Reply<api::ChargesPreview> EngineBackend::chargesPreview(const api::ChargesPreviewRequest &request)
{
    return run<api::ChargesPreview>(
        [request](engine::ApiOperations &s, const engine::KeyContext &k) {
            return s.chargesPreview(k, request);
        });
}

Reply<api::Page<api::Statement>> EngineBackend::listStatements(const api::PageRequest &request)
{
    return run<api::Page<api::Statement>>(
        [request](engine::ApiOperations &s, const engine::KeyContext &k) {
            return s.listStatements(k, request);
        });
}

Reply<api::Statement> EngineBackend::statement(const QString &id)
{
    return run<api::Statement>([id](engine::ApiOperations &s, const engine::KeyContext &k) {
        return s.statement(k, {id});
    });
}

Reply<api::RevenueSummary> EngineBackend::revenueSummary(const api::RevenueSummaryRequest &request)
{
    return run<api::RevenueSummary>(
        [request](engine::ApiOperations &s, const engine::KeyContext &k) {
            return s.revenueSummary(k, request);
        });
}

Reply<api::ProcessorsVerifyResponse>
EngineBackend::verifyProcessors(const api::ProcessorsVerifyRequest &request)
{
    return run<api::ProcessorsVerifyResponse>(
        [request](engine::ApiOperations &s, const engine::KeyContext &k) {
            return s.verifyProcessors(k, request);
        });
}

Reply<api::Page<api::ProcessorKeyInfo>> EngineBackend::listProcessorKeys()
{
    return run<api::Page<api::ProcessorKeyInfo>>(
        [](engine::ApiOperations &s, const engine::KeyContext &k) {
            return s.listProcessorKeys(k);
        });
}

Reply<api::ProcessorKeyInfo>
EngineBackend::connectProcessorKey(const api::ProcessorKeyConnect &request)
{
    return run<api::ProcessorKeyInfo>(
        [request](engine::ApiOperations &s, const engine::KeyContext &k) {
            return s.connectProcessorKey(k, request);
        });
}

Reply<api::Page<api::ProcessorKeyInfo>> EngineBackend::disconnectProcessorKey()
{
    return run<api::Page<api::ProcessorKeyInfo>>(
        [](engine::ApiOperations &s, const engine::KeyContext &k) {
            return s.disconnectProcessorKey(k);
        });
}

Reply<api::StripeSubscriptionsPage>
EngineBackend::stripeSubscriptions(const api::StripeSubscriptionsRequest &request)
{
    return run<api::StripeSubscriptionsPage>(
        [request](engine::ApiOperations &s, const engine::KeyContext &k) {
            return s.stripeSubscriptions(k, request);
        });
}

Reply<api::Customer> EngineBackend::customer(const QString &customerId)
{
    return run<api::Customer>([customerId](engine::ApiOperations &s, const engine::KeyContext &k) {
        return s.customer(k, customerId);
    });
}

Reply<api::Page<api::FeatureInfo>> EngineBackend::listFeatures()
{
    return run<api::Page<api::FeatureInfo>>(
        [](engine::ApiOperations &s, const engine::KeyContext &k) { return s.listFeatures(k); });
}

Reply<api::Page<api::Product>> EngineBackend::listProducts()
{
    return run<api::Page<api::Product>>(
        [](engine::ApiOperations &s, const engine::KeyContext &k) { return s.listProducts(k); });
}

Reply<api::Page<api::RewardEntry>> EngineBackend::listRewards()
{
    return run<api::Page<api::RewardEntry>>(
        [](engine::ApiOperations &s, const engine::KeyContext &k) { return s.listRewards(k); });
}

Reply<api::Page<api::OrganizationInfo>> EngineBackend::listOrganizations()
{
    return run<api::Page<api::OrganizationInfo>>(
        [](engine::ApiOperations &s, const engine::KeyContext &k) {
            return s.listOrganizations(k);
        });
}

Reply<api::Page<api::UsageEvent>> EngineBackend::listUsageEvents(const api::PageRequest &request)
{
    return runReceived<api::Page<api::UsageEvent>>(
        request, [](auto &s, const auto &k, const auto &r) { return s.listUsageEvents(k, r); });
}

Reply<api::ClockReading> EngineBackend::clock()
{
    return run<api::ClockReading>(
        [](engine::ApiOperations &s, const engine::KeyContext &k) { return s.clock(k); });
}

Reply<api::ClockAdvanced> EngineBackend::advanceClock(const api::ClockAdvance &request)
{
    return runReceived<api::ClockAdvanced>(
        request, [](auto &s, const auto &k, const auto &r) { return s.advanceClock(k, r); });
}

Reply<api::Page<api::ModelInfo>> EngineBackend::listModels()
{
    return run<api::Page<api::ModelInfo>>(
        [](engine::ApiOperations &s, const engine::KeyContext &k) { return s.listModels(k); });
}

Reply<api::CallQuote> EngineBackend::priceCall(const api::TrackTokensRequest &request)
{
    return runReceived<api::CallQuote>(
        request, [](auto &s, const auto &k, const auto &r) { return s.priceCall(k, r); });
}

Reply<api::BillingControlsAnswer> EngineBackend::billingControls(const api::ControlsOwner &owner)
{
    return runReceived<api::BillingControlsAnswer>(
        owner, [](auto &s, const auto &k, const auto &r) {
            return s.billingControls(k, r.customerId, r.entityId);
        });
}

Reply<api::BillingControlsAnswer>
EngineBackend::updateBillingControls(const api::UpdateBillingControlsRequest &request)
{
    return runReceived<api::BillingControlsAnswer>(
        request,
        [](auto &s, const auto &k, const auto &r) { return s.updateBillingControls(k, r); });
}

Reply<api::LedgerEntry> EngineBackend::adjustBalance(const api::BalanceAdjustment &request)
{
    return runReceived<api::LedgerEntry>(
        request, [](auto &s, const auto &k, const auto &r) { return s.adjustBalance(k, r); });
}

Reply<api::LedgerEntry> EngineBackend::createBalance(const api::BalanceCreation &request)
{
    return runReceived<api::LedgerEntry>(
        request, [](auto &s, const auto &k, const auto &r) { return s.createBalance(k, r); });
}

Reply<api::EnvironmentDiff> EngineBackend::environmentDiff()
{
    return runReceived<api::EnvironmentDiff>(
        api::EnvironmentDiffRequest{},
        [](auto &s, const auto &k, const auto &r) { return s.environmentDiff(k, r); });
}

Reply<api::EnvironmentPromoted>
EngineBackend::promoteEnvironment(const api::EnvironmentPromotion &request)
{
    return runReceived<api::EnvironmentPromoted>(
        request, [](auto &s, const auto &k, const auto &r) { return s.promoteEnvironment(k, r); });
}

Reply<api::Page<api::LedgerEntry>> EngineBackend::listLedger(const api::LedgerRequest &request)
{
    return runReceived<api::Page<api::LedgerEntry>>(
        request, [](auto &s, const auto &k, const auto &r) { return s.listLedger(k, r); });
}

Reply<api::Page<api::AuditEntry>> EngineBackend::listAuditLog(const api::AuditLogRequest &request)
{
    return runReceived<api::Page<api::AuditEntry>>(
        request, [](auto &s, const auto &k, const auto &r) { return s.listAuditLog(k, r); });
}

Reply<api::Page<api::UsageAlertEvent>>
EngineBackend::listUsageAlerts(const api::PageRequest &request)
{
    return runReceived<api::Page<api::UsageAlertEvent>>(
        request, [](auto &s, const auto &k, const auto &r) { return s.listUsageAlerts(k, r); });
}

Reply<api::Page<api::FailedEvent>> EngineBackend::listFailedEvents(const api::PageRequest &request)
{
    return runReceived<api::Page<api::FailedEvent>>(
        request, [](auto &s, const auto &k, const auto &r) { return s.listFailedEvents(k, r); });
}

Reply<api::FailedEventOutcome> EngineBackend::retryFailedEvents(const api::FailedEventIds &request)
{
    return runReceived<api::FailedEventOutcome>(
        request, [](auto &s, const auto &k, const auto &r) { return s.retryFailedEvents(k, r); });
}

Reply<api::FailedEventOutcome>
EngineBackend::discardFailedEvents(const api::FailedEventIds &request)
{
    return runReceived<api::FailedEventOutcome>(
        request, [](auto &s, const auto &k, const auto &r) { return s.discardFailedEvents(k, r); });
}

} // namespace md::embedded
