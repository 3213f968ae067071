#include "services/engine/ApiOperations.h"

#include "services/api/Version.h"
#include "services/engine/AuditedWrite.h"
#include "services/engine/access/OrganizationReads.h"
#include "services/engine/access/PlatformLinker.h"
#include "services/engine/access/PortalLinks.h"
#include "services/engine/balances/BalanceLister.h"
#include "services/engine/balances/BalanceTotaller.h"
#include "services/engine/customers/ChargePreview.h"
#include "services/engine/customers/CustomerReads.h"
#include "services/engine/customers/UsageTotaller.h"
#include "services/engine/products/EnvironmentPromoter.h"
#include "services/engine/products/ProductReads.h"
#include "services/engine/products/ProductUpdater.h"
#include "services/engine/products/RewardUpdater.h"
#include "services/engine/sql/StoredJson.h"
#include "services/engine/track/CallResolver.h"

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;

namespace {
const QString ReadScope = u"balances:read"_s;
const QString PlansScope = u"plans:write"_s;
const QString RewardsScope = u"rewards:write"_s;
// Either lets a key compare the environments and promote its half.
const QStringList PromotionScopes{PlansScope, RewardsScope};
} // namespace

api::Result<api::Done> ApiOperations::upToDate(const KeyContext &key,
                                               const std::optional<QString> &customerId,
                                               const std::optional<QString> &balanceId)
{
    Scope clock = key.scope;
    clock.keyPk = 0; // the clock's doing, not the caller's
    auto work = m_engine.clockSweep().bringUpToDate({clock, {}, customerId, balanceId, {}},
                                                    m_engine.now(key.scope), u"clock"_s, true);
    if (!work)
        return work.error();
    return api::Done{};
}

#define MD_REQUIRE_SCOPE(key, scope)                                                               \
    if (const auto denied = (key).missingScope(scope))                                             \
        return *denied;

api::Result<api::ListBalancesResponse>
ApiOperations::listBalances(const KeyContext &key, const api::ListBalancesRequest &request)
{
    MD_REQUIRE_SCOPE(key, ReadScope)
    if (auto current = upToDate(key, request.customerId); !current)
        return current.error();
    return m_engine.withConnection([&](const QSqlDatabase &db) {
        return BalanceLister::list(db, key.scope, request, m_engine.now(key.scope));
    });
}

api::Result<api::BalancePages> ApiOperations::balancePages(const KeyContext &key,
                                                           const api::BalancePagesRequest &request,
                                                           const StopCheck &stop)
{
    MD_REQUIRE_SCOPE(key, ReadScope)
    if (auto current = upToDate(key, request.filter.customerId); !current)
        return current.error();
    return m_engine.withConnection([&](const QSqlDatabase &db) {
        return BalanceLister::pages(db, key.scope, request, m_engine.now(key.scope), stop);
    });
}

api::Result<api::BalanceTotals>
ApiOperations::balanceTotals(const KeyContext &key, const api::BalanceTotalsRequest &request,
                             const StopCheck &stop)
{
    MD_REQUIRE_SCOPE(key, ReadScope)
    if (auto current = upToDate(key, request.filter.customerId); !current)
        return current.error();
    return m_engine.withConnection([&](const QSqlDatabase &db) {
        return BalanceTotaller::totals(db, m_engine.dialect(), key.scope, request,
                                       m_engine.now(key.scope), stop);
    });
}

api::Result<api::TrackTokensResponse>
ApiOperations::trackTokens(const KeyContext &key, const api::TrackTokensRequest &request,
                           const std::optional<QString> &idempotencyKey)
{
    MD_REQUIRE_SCOPE(key, u"balances:write"_s)
    return m_engine.trackTokens(key.scope, request, idempotencyKey);
}

void ApiOperations::trackTokens(const KeyContext &key, const api::TrackTokensRequest &request,
                                const std::optional<QString> &idempotencyKey,
                                TrackWriter::Answer answer)
{
    if (const auto denied = key.missingScope(u"balances:write"_s))
        return answer(*denied);
    m_engine.trackTokens(key.scope, request, idempotencyKey, std::move(answer));
}

api::Result<api::UpdateRewardResponse>
ApiOperations::updateReward(const KeyContext &key, const api::UpdateRewardRequest &request)
{
    MD_REQUIRE_SCOPE(key, RewardsScope)
    return AuditedWrite::run<api::UpdateRewardResponse>(
        m_engine, key, {u"reward.update"_s, u"reward"_s, request.rewardId},
        [&](const QSqlDatabase &db) -> api::Result<api::JsonValue> {
            auto rewards = ProductReads::rewards(db, key.scope);
            if (!rewards)
                return rewards.error();
            // Each is {"coupon": {...}} or {"feature_grant": {...}}, as rewards.update answers.
            for (const api::RewardEntry &reward : std::as_const(rewards.value().list))
                if (const api::JsonValue json = jsonOf(reward);
                    json.at(0).value("id"_L1).toString() == request.rewardId)
                    return json;
            return api::JsonValue::null();
        },
        [&](const QSqlDatabase &db) {
            return RewardUpdater::update(db, m_engine.dialect(), key.scope, request);
        },
        [](const api::UpdateRewardResponse &answer) { return jsonOf(answer); });
}

api::Result<api::BillingPortalResponse>
ApiOperations::billingPortal(const KeyContext &key, const QString &customerId,
                             const api::BillingPortalRequest &request)
{
    MD_REQUIRE_SCOPE(key, u"billing:read"_s)
    const QUrl base = m_engine.portalBase();
    if (base.isEmpty())
        return ApiError::internal(u"this server serves no billing portal"_s);
    const QString returnUrl = request.returnUrl.value_or(QString());
    if (const QUrl url(returnUrl, QUrl::StrictMode);
        !returnUrl.isEmpty() && (!url.isValid() || url.host().isEmpty() ||
                                 (url.scheme() != "https"_L1 && url.scheme() != "http"_L1)))
        return ApiError::invalidInputs(u"return_url"_s, u"expected an http or https URL"_s);
    if (auto current = upToDate(key, customerId); !current)
        return current.error();
    return m_engine.withConnection(
        [&](const QSqlDatabase &db) -> api::Result<api::BillingPortalResponse> {
            if (auto customer =
                    CustomerReads::customer(db, key.scope, customerId, m_engine.now(key.scope));
                !customer)
                return customer.error();
            auto token = PortalLinks::sign(
                db, m_engine.dialect(),
                {key.scope, customerId, m_engine.now() + PortalLinks::LifetimeMs, returnUrl});
            if (!token)
                return token.error();
            QUrl url = base;
            url.setPath(url.path().chopped(url.path().endsWith(u'/') ? 1 : 0) + u"/portal/"_s +
                        token.value());
            return api::BillingPortalResponse{customerId, url.toString()};
        });
}

api::Result<api::Product> ApiOperations::updateProduct(const KeyContext &key,
                                                       const QString &productId,
                                                       const api::UpdateProductRequest &request)
{
    MD_REQUIRE_SCOPE(key, PlansScope)
    if (request.dryRun) // writes nothing, so nothing is audited or told
        return m_engine.withConnection([&](const QSqlDatabase &db) {
            return ProductUpdater::update(db, m_engine.dialect(), key.scope, productId, request,
                                          m_engine.now(key.scope));
        });
    return AuditedWrite::run<api::Product>(
        m_engine, key, {u"product.update"_s, u"product"_s, productId},
        [&](const QSqlDatabase &db) -> api::Result<api::JsonValue> {
            auto products = ProductReads::products(db, key.scope);
            if (!products)
                return products.error();
            const api::Product *newest = nullptr;
            for (const api::Product &product : std::as_const(products.value().list))
                if (product.id == productId && (!newest || product.version > newest->version))
                    newest = &product;
            return newest ? jsonOf(*newest) : api::JsonValue::null();
        },
        [&](const QSqlDatabase &db) {
            return ProductUpdater::update(db, m_engine.dialect(), key.scope, productId, request,
                                          m_engine.now(key.scope));
        },
        [](const api::Product &product) { return jsonOf(product); });
}

api::Result<api::LinkOrganizationResponse>
ApiOperations::linkOrganization(const KeyContext &key, const api::LinkOrganizationRequest &request)
{
    MD_REQUIRE_SCOPE(key, u"platform:write"_s)
    if (auto reachable = m_engine.withConnection([&](const QSqlDatabase &db) {
            return PlatformLinker::reachable(db, key.scope, request, m_engine.stripeOptions());
        });
        !reachable)
        return reachable.error();
    return AuditedWrite::run<api::LinkOrganizationResponse>(
        m_engine, key, {u"organization.link"_s, u"organization"_s, request.organizationSlug},
        [&](const QSqlDatabase &db) -> api::Result<api::JsonValue> {
            auto tenants = OrganizationReads::organizations(db, key.scope.orgPk);
            if (!tenants)
                return tenants.error();
            for (const api::OrganizationInfo &tenant : std::as_const(tenants.value().list))
                if (tenant.slug == request.organizationSlug)
                    return jsonOf(tenant);
            return api::JsonValue::null();
        },
        [&](const QSqlDatabase &db) {
            return PlatformLinker::link(db, m_engine.dialect(), key.scope, request,
                                        m_engine.now(key.scope));
        },
        [](const api::LinkOrganizationResponse &answer) { return jsonOf(answer); });
}

api::Result<api::Page<api::CustomerSummary>>
ApiOperations::listCustomers(const KeyContext &key, const api::PageRequest &request)
{
    MD_REQUIRE_SCOPE(key, ReadScope)
    return m_engine.withConnection(
        [&](const QSqlDatabase &db) { return CustomerReads::customers(db, key.scope, request); });
}

api::Result<api::Customer> ApiOperations::customer(const KeyContext &key, const QString &customerId)
{
    MD_REQUIRE_SCOPE(key, ReadScope)
    if (auto current = upToDate(key, customerId); !current)
        return current.error();
    return m_engine.withConnection([&](const QSqlDatabase &db) {
        return CustomerReads::customer(db, key.scope, customerId, m_engine.now(key.scope));
    });
}

api::Result<api::Page<api::FeatureInfo>> ApiOperations::listFeatures(const KeyContext &key)
{
    MD_REQUIRE_SCOPE(key, ReadScope)
    return m_engine.withConnection(
        [&](const QSqlDatabase &db) { return ProductReads::features(db, key.scope); });
}

api::Result<api::Page<api::Product>> ApiOperations::listProducts(const KeyContext &key)
{
    MD_REQUIRE_SCOPE(key, ReadScope)
    return m_engine.withConnection(
        [&](const QSqlDatabase &db) { return ProductReads::products(db, key.scope); });
}

api::Result<api::Page<api::RewardEntry>> ApiOperations::listRewards(const KeyContext &key)
{
    MD_REQUIRE_SCOPE(key, ReadScope)
    return m_engine.withConnection(
        [&](const QSqlDatabase &db) { return ProductReads::rewards(db, key.scope); });
}

api::Result<api::Page<api::OrganizationInfo>>
ApiOperations::listOrganizations(const KeyContext &key)
{
    MD_REQUIRE_SCOPE(key, ReadScope)
    return m_engine.withConnection([&](const QSqlDatabase &db) {
        return OrganizationReads::organizations(db, key.scope.orgPk);
    });
}

api::Result<api::Page<api::UsageEvent>>
ApiOperations::listUsageEvents(const KeyContext &key, const api::PageRequest &request)
{
    MD_REQUIRE_SCOPE(key, ReadScope)
    return m_engine.withConnection(
        [&](const QSqlDatabase &db) { return CustomerReads::usageEvents(db, key.scope, request); });
}

api::Result<api::UsageTotals> ApiOperations::usageTotals(const KeyContext &key,
                                                         const api::UsageTotalsRequest &request,
                                                         const StopCheck &stop)
{
    MD_REQUIRE_SCOPE(key, ReadScope)
    return m_engine.withConnection([&](const QSqlDatabase &db) {
        return UsageTotaller::totals(db, m_engine.dialect(), key.scope, request,
                                     m_engine.now(key.scope), stop);
    });
}

api::Result<api::ChargesPreview>
ApiOperations::chargesPreview(const KeyContext &key, const api::ChargesPreviewRequest &request)
{
    MD_REQUIRE_SCOPE(key, ReadScope)
    if (auto current = upToDate(key, request.customerId); !current)
        return current.error();
    return m_engine.withConnection([&](const QSqlDatabase &db) {
        return ChargePreview::preview(db, m_engine.dialect(), key.scope, request.customerId,
                                      m_engine.now(key.scope));
    });
}

api::Result<api::Page<api::ModelInfo>> ApiOperations::listModels(const KeyContext &key)
{
    MD_REQUIRE_SCOPE(key, ReadScope)
    return api::Page<api::ModelInfo>{m_engine.catalogue()->models(), false, std::nullopt};
}

api::Result<api::AboutInfo> ApiOperations::about(const KeyContext &key)
{
    auto counts = m_engine.trackQueue().counts(key.scope);
    if (!counts)
        return counts.error();
    return api::AboutInfo{api::meterdeskVersion(), m_engine.catalogue()->info(), counts.value(),
                          key.scopes,
                          key.keyId.isEmpty() ? std::nullopt : std::optional(key.keyId)};
}

api::Result<api::EnvironmentDiff>
ApiOperations::environmentDiff(const KeyContext &key, const api::EnvironmentDiffRequest &)
{
    MD_REQUIRE_SCOPE(key, PromotionScopes)
    if (auto refused = key.missingLiveKey())
        return *refused;
    auto diff = m_engine.withConnection(
        [&](const QSqlDatabase &db) { return EnvironmentPromoter::diff(db, key.scope.orgPk); });
    // Each half only to a key that may promote it: the sandbox is otherwise
    // out of a live key's sight (docs/promotion.md, "Who may").
    if (diff && !key.allows(PlansScope))
        diff.value().products.clear();
    if (diff && !key.allows(RewardsScope))
        diff.value().rewards.clear();
    return diff;
}

api::Result<api::EnvironmentPromoted>
ApiOperations::promoteEnvironment(const KeyContext &key, const api::EnvironmentPromotion &request)
{
    MD_REQUIRE_SCOPE(key, PromotionScopes)
    // Then the scope of each half the promotion has.
    if (!request.products.isEmpty()) {
        MD_REQUIRE_SCOPE(key, PlansScope)
    }
    if (!request.rewards.isEmpty()) {
        MD_REQUIRE_SCOPE(key, RewardsScope)
    }
    if (auto refused = key.missingLiveKey())
        return *refused;
    return m_engine.withConnection([&](const QSqlDatabase &db) {
        return EnvironmentPromoter::promote(db, m_engine.dialect(), key.scope,
                                            AuditedWrite::actorOf(key), request,
                                            m_engine.now(key.scope));
    });
}

api::Result<api::CallQuote> ApiOperations::priceCall(const KeyContext &key,
                                                     const api::TrackTokensRequest &request)
{
    MD_REQUIRE_SCOPE(key, ReadScope)
    const std::shared_ptr<const PriceCatalogue> prices = m_engine.catalogue();
    return m_engine.withConnection([&](const QSqlDatabase &db) {
        return CallResolver::quote(db, key.scope, request, *prices);
    });
}

api::Result<api::ClockReading> ApiOperations::clock(const KeyContext &key)
{
    MD_REQUIRE_SCOPE(key, ReadScope)
    return m_engine.clockSweep().reading(key.scope);
}

api::Result<api::ClockAdvanced> ApiOperations::advanceClock(const KeyContext &key,
                                                            const api::ClockAdvance &request)
{
    MD_REQUIRE_SCOPE(key, u"balances:write"_s)
    return m_engine.clockSweep().advance(key.scope, request);
}

#undef MD_REQUIRE_SCOPE

} // namespace md::engine
