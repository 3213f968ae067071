#include "services/server/ApiRoutes.h"

#include "services/api/Identifier.h"
#include "services/api/WireCodec.h"

#include <QUrl>
#include <QUrlQuery>

namespace md::server {

using namespace Qt::StringLiterals;
using engine::ApiOperations;
using engine::KeyContext;

namespace {

// The JSON of a decoded value, or its error, for a route's work function.
template <typename T> Answer json(const api::Result<T> &result)
{
    if (!result)
        return result.error();
    if constexpr (std::is_same_v<T, api::TrackTokensResponse>) {
        if (result.value().queued)
            return std::optional<QByteArray>(); // async: 204, no body
    }
    return std::optional<QByteArray>(api::toJsonText(result.value()));
}

// Decodes `body` as T, then runs `call` with it.
template <typename T, typename F> Answer withBody(const api::JsonReader &body, F &&call)
{
    auto request = api::decode<T>(body);
    if (!request)
        return request.error();
    return json(call(request.value()));
}

// Route for a body-only request: decode T, call the service.
template <typename T, typename F> Route bodyRoute(bool versionRequired, F call)
{
    return {versionRequired, [call](ApiOperations &s, const KeyContext &k,
                                    const api::JsonReader &body, const RequestInfo &info) {
                return withBody<T>(body, [&](const T &r) { return call(s, k, r, info); });
            }};
}

// Route for a list that takes no body.
template <typename F> Route listRoute(F call)
{
    return {false, [call](ApiOperations &s, const KeyContext &k, const api::JsonReader &,
                          const RequestInfo &) { return json(call(s, k)); }};
}

// The one segment of `path` between `prefix` and `suffix`, or nullopt.
std::optional<QByteArray> segmentBetween(QByteArrayView path, QByteArrayView prefix,
                                         QByteArrayView suffix)
{
    if (!path.startsWith(prefix) || !path.endsWith(suffix) ||
        path.size() < prefix.size() + suffix.size())
        return std::nullopt;
    const QByteArrayView segment =
        path.sliced(prefix.size(), path.size() - prefix.size() - suffix.size());
    if (segment.contains('/'))
        return std::nullopt;
    return segment.toByteArray();
}

// A path id percent-decoded, then held to the id rule.
api::Result<QString> pathId(const QByteArray &raw, const QString &name)
{
    const QByteArray bytes = QByteArray::fromPercentEncoding(raw);
    const QString id = QString::fromUtf8(bytes);
    if (id.toUtf8() != bytes)
        return api::ApiError::invalidInputs(name, u"is not valid UTF-8"_s);
    if (const auto problem = api::identifierProblem(id))
        return api::ApiError::invalidInputs(name, *problem);
    return id;
}

} // namespace

ApiRoutes::ApiRoutes()
{
    // Spec endpoints (docs/api.md, Conventions).
    m_exact.insert("/v1/balances.list",
                   bodyRoute<api::ListBalancesRequest>(true, [](auto &s, auto &k, auto &r, auto &) {
                       return s.listBalances(k, r);
                   }));
    m_exact.insert("/v1/billing.import", bodyRoute<api::ImportCustomerRequest>(
                                             false, [](auto &s, auto &k, auto &r, auto &) {
                                                 return s.importCustomer(k, r);
                                             }));
    m_exact.insert("/v1/balances.track_tokens",
                   {false,
                    {},
                    [](ApiOperations &s, const KeyContext &k, const api::JsonReader &body,
                       const RequestInfo &info, Reply reply) {
                        auto request = api::decode<api::TrackTokensRequest>(body);
                        if (!request)
                            return reply(request.error());
                        s.trackTokens(k, request.value(), info.idempotencyKey,
                                      [reply = std::move(reply)](
                                          api::Result<api::TrackTokensResponse> answer) {
                                          reply(json(answer));
                                      });
                    }});
    m_exact.insert("/v1/rewards.update", bodyRoute<api::UpdateRewardRequest>(
                                             false, [](auto &s, auto &k, auto &r, auto &) {
                                                 return s.updateReward(k, r);
                                             }));
    m_exact.insert(
        "/v1/platform/organizations/stripe",
        bodyRoute<api::LinkOrganizationRequest>(
            false, [](auto &s, auto &k, auto &r, auto &) { return s.linkOrganization(k, r); }));

    // Meterdesk extensions (docs/openapi.yaml).
    // Any valid key may ask who it is: the answer is only its own identity.
    m_exact.insert("/v1/meterdesk/whoami",
                   {false, [](ApiOperations &, const KeyContext &k, const api::JsonReader &,
                              const RequestInfo &) {
                        api::JsonWriter writer;
                        writer.beginObject()
                            .key("organization"_L1)
                            .beginObject()
                            .field("id"_L1, k.orgId)
                            .field("slug"_L1, k.orgSlug)
                            .field("name"_L1, k.orgName)
                            .endObject()
                            .field("environment"_L1, k.scope.envWord())
                            .key("scopes"_L1);
                        api::writeStrings(writer, k.scopes);
                        writer.endObject();
                        return Answer(writer.take());
                    }});
    // Any valid key, too: the version and price catalogue are no organization's.
    m_exact.insert("/v1/meterdesk/about",
                   listRoute([](ApiOperations &s, const KeyContext &k) { return s.about(k); }));
    m_exact.insert(
        "/v1/meterdesk/balances.totals",
        bodyRoute<api::BalanceTotalsRequest>(
            false, [](auto &s, auto &k, auto &r, auto &) { return s.balanceTotals(k, r); }));
    m_exact.insert(
        "/v1/meterdesk/balances.pages",
        bodyRoute<api::BalancePagesRequest>(
            false, [](auto &s, auto &k, auto &r, auto &) { return s.balancePages(k, r); }));
    m_exact.insert("/v1/meterdesk/customers.list",
                   bodyRoute<api::PageRequest>(false, [](auto &s, auto &k, auto &r, auto &) {
                       return s.listCustomers(k, r);
                   }));
    m_exact.insert("/v1/meterdesk/customers.get",
                   {false,
                    [](ApiOperations &s, const KeyContext &k, const api::JsonReader &body,
                       const RequestInfo &) -> Answer {
                        const QString id = body.field("customer_id"_L1).identifier();
                        if (!body.ok())
                            return *body.error();
                        return json(s.customer(k, id));
                    }});
    m_exact.insert(
        "/v1/meterdesk/features.list",
        listRoute([](ApiOperations &s, const KeyContext &k) { return s.listFeatures(k); }));
    m_exact.insert(
        "/v1/meterdesk/products.list",
        listRoute([](ApiOperations &s, const KeyContext &k) { return s.listProducts(k); }));
    m_exact.insert(
        "/v1/meterdesk/rewards.list",
        listRoute([](ApiOperations &s, const KeyContext &k) { return s.listRewards(k); }));
    m_exact.insert(
        "/v1/meterdesk/organizations.list",
        listRoute([](ApiOperations &s, const KeyContext &k) { return s.listOrganizations(k); }));
    m_exact.insert(
        "/v1/meterdesk/models.list",
        listRoute([](ApiOperations &s, const KeyContext &k) { return s.listModels(k); }));
    m_exact.insert("/v1/meterdesk/track_tokens.price",
                   bodyRoute<api::TrackTokensRequest>(
                       false, [](auto &s, auto &k, auto &r, auto &) { return s.priceCall(k, r); }));
    m_exact.insert("/v1/meterdesk/usage_events.list",
                   bodyRoute<api::PageRequest>(false, [](auto &s, auto &k, auto &r, auto &) {
                       return s.listUsageEvents(k, r);
                   }));
    // Billing controls (docs/billing-controls.md) and the alerts they fired.
    m_exact.insert("/v1/meterdesk/customers.billing_controls",
                   bodyRoute<api::ControlsOwner>(false, [](auto &s, auto &k, auto &r, auto &) {
                       return s.billingControls(k, r.customerId, r.entityId);
                   }));
    m_exact.insert(
        "/v1/meterdesk/customers.update_billing_controls",
        bodyRoute<api::UpdateBillingControlsRequest>(false, [](auto &s, auto &k, auto &r, auto &) {
            return s.updateBillingControls(k, r);
        }));
    m_exact.insert("/v1/meterdesk/audit_log.list",
                   bodyRoute<api::AuditLogRequest>(false, [](auto &s, auto &k, auto &r, auto &) {
                       return s.listAuditLog(k, r);
                   }));
    m_exact.insert(
        "/v1/meterdesk/environments.diff",
        bodyRoute<api::EnvironmentDiffRequest>(
            false, [](auto &s, auto &k, auto &r, auto &) { return s.environmentDiff(k, r); }));
    m_exact.insert(
        "/v1/meterdesk/environments.promote",
        bodyRoute<api::EnvironmentPromotion>(
            false, [](auto &s, auto &k, auto &r, auto &) { return s.promoteEnvironment(k, r); }));
    m_exact.insert("/v1/meterdesk/balances.adjust",
                   bodyRoute<api::BalanceAdjustment>(false, [](auto &s, auto &k, auto &r, auto &) {
                       return s.adjustBalance(k, r);
                   }));
    m_exact.insert("/v1/meterdesk/ledger.list",
                   bodyRoute<api::LedgerRequest>(false, [](auto &s, auto &k, auto &r, auto &) {
                       return s.listLedger(k, r);
                   }));
    m_exact.insert("/v1/meterdesk/usage_alerts.list",
                   bodyRoute<api::PageRequest>(false, [](auto &s, auto &k, auto &r, auto &) {
                       return s.listUsageAlerts(k, r);
                   }));
    // Async calls accepted and then not applied (docs/api.md, "Failed events").
    m_exact.insert("/v1/meterdesk/track_queue.failed",
                   bodyRoute<api::PageRequest>(false, [](auto &s, auto &k, auto &r, auto &) {
                       return s.listFailedEvents(k, r);
                   }));
    m_exact.insert("/v1/meterdesk/track_queue.retry",
                   bodyRoute<api::FailedEventIds>(false, [](auto &s, auto &k, auto &r, auto &) {
                       return s.retryFailedEvents(k, r);
                   }));
    m_exact.insert("/v1/meterdesk/track_queue.discard",
                   bodyRoute<api::FailedEventIds>(false, [](auto &s, auto &k, auto &r, auto &) {
                       return s.discardFailedEvents(k, r);
                   }));
}

std::optional<api::Result<Route>> ApiRoutes::find(QByteArrayView path) const
{
    if (const auto it = m_exact.constFind(path.toByteArray()); it != m_exact.cend())
        return api::Result<Route>(it.value());
    if (const auto raw = segmentBetween(path, "/v1/customers/", "/billing_portal")) {
        auto id = pathId(*raw, u"customer_id"_s);
        if (!id)
            return api::Result<Route>(id.error());
        return api::Result<Route>(Route{
            false, [id = id.value()](ApiOperations &s, const KeyContext &k,
                                     const api::JsonReader &body, const RequestInfo &info) {
                return withBody<api::BillingPortalRequest>(body, [&](api::BillingPortalRequest r) {
                    // docs/api.md: return_url in the body, or as a query parameter.
                    if (!r.returnUrl) {
                        const QUrlQuery query(QString::fromUtf8(info.query));
                        if (query.hasQueryItem(u"return_url"_s))
                            r.returnUrl = query.queryItemValue(u"return_url"_s, QUrl::FullyDecoded);
                    }
                    return s.billingPortal(k, id, r);
                });
            }});
    }
    if (const auto raw = segmentBetween(path, "/v1/products/", "")) {
        auto id = pathId(*raw, u"product_id"_s);
        if (!id)
            return api::Result<Route>(id.error());
        return api::Result<Route>(
            Route{false, [id = id.value()](ApiOperations &s, const KeyContext &k,
                                           const api::JsonReader &body, const RequestInfo &) {
                      return withBody<api::UpdateProductRequest>(
                          body, [&](const auto &r) { return s.updateProduct(k, id, r); });
                  }});
    }
    return std::nullopt;
}

} // namespace md::server
