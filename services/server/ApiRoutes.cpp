#include "services/server/ApiRoutes.h"

#include "services/api/Identifier.h"
#include "services/api/WireCodec.h"

#include <QThreadPool>
#include <QUrl>
#include <QUrlQuery>

#include <algorithm>
#include <latch>

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
            return AnswerBody{}; // async: 204, no body
    }
    return AnswerBody{api::toJsonText(result.value())};
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
template <typename T, typename F> Route bodyRoute(Access access, F call)
{
    return {std::move(access), false,
            [call](ApiOperations &s, const KeyContext &k, const api::JsonReader &body,
                   const RequestInfo &info) {
                return withBody<T>(body, [&](const T &r) { return call(s, k, r, info); });
            }};
}

// Route for a list that takes no body.
template <typename F> Route listRoute(Access access, F call)
{
    return {std::move(access), false,
            [call](ApiOperations &s, const KeyContext &k, const api::JsonReader &,
                   const RequestInfo &) { return json(call(s, k)); }};
}

// What each route asks of the key (docs/api.md, "Keys and scopes").
const Access AnyKey{};
const Access BalancesRead{{u"balances:read"_s}};
const Access BalancesWrite{{u"balances:write"_s}};
const Access BillingRead{{u"billing:read"_s}};
const Access BillingWrite{{u"billing:write"_s}};
const Access PlansWrite{{u"plans:write"_s}};
const Access RewardsWrite{{u"rewards:write"_s}};
const Access PlatformWrite{{u"platform:write"_s}};
const Access WebhooksRead{{u"webhooks:read"_s}};
const Access WebhooksWrite{{u"webhooks:write"_s}};
const Access KeysRead{{u"keys:read"_s, u"keys:write"_s}};
const Access KeysWrite{{u"keys:write"_s}};
// A key may compare and promote the half it may write: products with
// plans:write, rewards with rewards:write (docs/promotion.md, "Who may").
const Access Promoting{{u"plans:write"_s, u"rewards:write"_s}, true};
// Only a sandbox's clock moves: a production key hears so whatever its body.
const Access SandboxWrite{{u"balances:write"_s}, false, true};

// A track route (track_tokens, balances.track): answered once the call's
// batch committed, or once it is stored with the async flag.
template <typename T, typename F> Route laterTrack(F call)
{
    return {BalancesWrite,
            false,
            {},
            [call](ApiOperations &s, const KeyContext &k, const api::JsonReader &body,
                   const RequestInfo &info, Reply reply) {
                auto request = api::decode<T>(body);
                if (!request)
                    return reply(request.error());
                call(s, k, request.value(), info,
                     [reply = std::move(reply)](api::Result<api::TrackTokensResponse> answer) {
                         reply(json(answer));
                     });
            }};
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

// Where usage.batch writes its answers' text, off the writer's thread. Its
// threads are made when the routes are, before the server listens, and
// never expire: a thread made on demand needs a file descriptor, and a
// starved server died making one (docs/operations.md, "Out of file
// descriptors").
QThreadPool &answerWriters()
{
    static QThreadPool *pool = [] {
        constexpr int Threads = 2;
        auto *made = new QThreadPool;
        made->setExpiryTimeout(-1);
        made->setMaxThreadCount(Threads);
        std::latch started(Threads);
        for (int i = 0; i < Threads; ++i)
            made->start([&started] { started.arrive_and_wait(); });
        made->waitForDone();
        return made;
    }();
    return *pool;
}

} // namespace

ApiRoutes::ApiRoutes()
{
    answerWriters();
    // Spec endpoints (docs/api.md, Conventions).
    Route listBalances = bodyRoute<api::ListBalancesRequest>(
        BalancesRead, [](auto &s, auto &k, auto &r, auto &) { return s.listBalances(k, r); });
    listBalances.versionRequired = true;
    m_exact.insert("/v1/balances.list", listBalances);
    m_exact.insert("/v1/billing.import", bodyRoute<api::ImportCustomerRequest>(
                                             BillingWrite, [](auto &s, auto &k, auto &r, auto &) {
                                                 return s.importCustomer(k, r);
                                             }));
    m_exact.insert("/v1/balances.track_tokens",
                   laterTrack<api::TrackTokensRequest>([](ApiOperations &s, const KeyContext &k,
                                                          const api::TrackTokensRequest &r,
                                                          const RequestInfo &info, auto answer) {
                       s.trackTokens(k, r, info.idempotencyKey, std::move(answer));
                   }));
    m_exact.insert("/v1/rewards.update", bodyRoute<api::UpdateRewardRequest>(
                                             RewardsWrite, [](auto &s, auto &k, auto &r, auto &) {
                                                 return s.updateReward(k, r);
                                             }));
    m_exact.insert("/v1/platform/organizations/stripe",
                   bodyRoute<api::LinkOrganizationRequest>(
                       PlatformWrite,
                       [](auto &s, auto &k, auto &r, auto &) { return s.linkOrganization(k, r); }));
    m_withId.append(
        {"/v1/customers/", "/billing_portal", u"customer_id"_s, BillingRead,
         [](ApiOperations &s, const KeyContext &k, const QString &id, const api::JsonReader &body,
            const RequestInfo &info) {
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
    m_withId.append({"/v1/products/", "", u"product_id"_s, PlansWrite,
                     [](ApiOperations &s, const KeyContext &k, const QString &id,
                        const api::JsonReader &body, const RequestInfo &) {
                         return withBody<api::UpdateProductRequest>(
                             body, [&](const auto &r) { return s.updateProduct(k, id, r); });
                     }});

    // Meterdesk extensions (docs/openapi.yaml).
    // Any valid key may ask who it is: the answer is only its own identity.
    m_exact.insert("/v1/meterdesk/whoami", {AnyKey, false,
                                            [](ApiOperations &, const KeyContext &k,
                                               const api::JsonReader &, const RequestInfo &) {
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
                                                return Answer(AnswerBody{writer.take()});
                                            }});
    // Any valid key, too: the version and price catalogue are no organization's.
    m_exact.insert(
        "/v1/meterdesk/about",
        listRoute(AnyKey, [](ApiOperations &s, const KeyContext &k) { return s.about(k); }));
    m_exact.insert(
        "/v1/meterdesk/balances.totals",
        bodyRoute<api::BalanceTotalsRequest>(
            BalancesRead, [](auto &s, auto &k, auto &r, auto &) { return s.balanceTotals(k, r); }));
    m_exact.insert(
        "/v1/meterdesk/balances.pages",
        bodyRoute<api::BalancePagesRequest>(
            BalancesRead, [](auto &s, auto &k, auto &r, auto &) { return s.balancePages(k, r); }));
    m_exact.insert(
        "/v1/meterdesk/charges.preview",
        bodyRoute<api::ChargesPreviewRequest>(BalancesRead, [](auto &s, auto &k, auto &r, auto &) {
            return s.chargesPreview(k, r);
        }));
    m_exact.insert("/v1/meterdesk/statements.list",
                   bodyRoute<api::PageRequest>(BalancesRead, [](auto &s, auto &k, auto &r, auto &) {
                       return s.listStatements(k, r);
                   }));
    m_exact.insert(
        "/v1/meterdesk/statements.get",
        bodyRoute<api::StatementGetRequest>(
            BalancesRead, [](auto &s, auto &k, auto &r, auto &) { return s.statement(k, r); }));
    m_exact.insert(
        "/v1/meterdesk/revenue.summary",
        bodyRoute<api::RevenueSummaryRequest>(BalancesRead, [](auto &s, auto &k, auto &r, auto &) {
            return s.revenueSummary(k, r);
        }));
    m_exact.insert("/v1/meterdesk/processors.subscriptions",
                   bodyRoute<api::StripeSubscriptionsRequest>(
                       BillingWrite, [](auto &s, auto &k, auto &r, auto &) {
                           return s.stripeSubscriptions(k, r);
                       }));
    m_exact.insert("/v1/meterdesk/processors.verify",
                   bodyRoute<api::ProcessorsVerifyRequest>(
                       BalancesRead,
                       [](auto &s, auto &k, auto &r, auto &) { return s.verifyProcessors(k, r); }));
    m_exact.insert(
        "/v1/meterdesk/usage_events.totals",
        bodyRoute<api::UsageTotalsRequest>(
            BalancesRead, [](auto &s, auto &k, auto &r, auto &) { return s.usageTotals(k, r); }));
    m_exact.insert("/v1/meterdesk/customers.list",
                   bodyRoute<api::PageRequest>(BalancesRead, [](auto &s, auto &k, auto &r, auto &) {
                       return s.listCustomers(k, r);
                   }));
    m_exact.insert("/v1/meterdesk/customers.get",
                   {BalancesRead, false,
                    [](ApiOperations &s, const KeyContext &k, const api::JsonReader &body,
                       const RequestInfo &) -> Answer {
                        const QString id = body.field("customer_id"_L1).identifier();
                        if (!body.ok())
                            return *body.error();
                        return json(s.customer(k, id));
                    }});
    m_exact.insert("/v1/meterdesk/features.list",
                   listRoute(BalancesRead, [](ApiOperations &s, const KeyContext &k) {
                       return s.listFeatures(k);
                   }));
    m_exact.insert("/v1/meterdesk/products.list",
                   listRoute(BalancesRead, [](ApiOperations &s, const KeyContext &k) {
                       return s.listProducts(k);
                   }));
    m_exact.insert("/v1/meterdesk/rewards.list",
                   listRoute(BalancesRead, [](ApiOperations &s, const KeyContext &k) {
                       return s.listRewards(k);
                   }));
    m_exact.insert("/v1/meterdesk/organizations.list",
                   listRoute(BalancesRead, [](ApiOperations &s, const KeyContext &k) {
                       return s.listOrganizations(k);
                   }));
    m_exact.insert("/v1/meterdesk/models.list",
                   listRoute(BalancesRead, [](ApiOperations &s, const KeyContext &k) {
                       return s.listModels(k);
                   }));
    // Usage of any feature (docs/api.md, "Usage of any feature").
    m_exact.insert("/v1/meterdesk/balances.track",
                   laterTrack<api::TrackRequest>(
                       [](ApiOperations &s, const KeyContext &k, const api::TrackRequest &r,
                          const RequestInfo &info,
                          auto answer) { s.track(k, r, info.idempotencyKey, std::move(answer)); }));
    m_exact.insert(
        "/v1/meterdesk/balances.check",
        bodyRoute<api::CheckRequest>(
            BalancesRead, [](auto &s, auto &k, auto &r, auto &) { return s.check(k, r); }));
    m_exact.insert("/v1/meterdesk/usage.batch",
                   {BalancesWrite,
                    false,
                    {},
                    [](ApiOperations &s, const KeyContext &k, const api::JsonReader &body,
                       const RequestInfo &, Reply reply) {
                        auto request = api::decode<api::UsageBatchRequest>(body);
                        if (!request)
                            return reply(request.error());
                        const int status = request.value().async ? 202 : 200;
                        // The last answer comes on the writer's thread, which
                        // every write waits for: the text of up to a thousand
                        // answers is written on another.
                        s.usageBatch(
                            k, request.value(),
                            [reply = std::move(reply),
                             status](api::Result<api::UsageBatchResponse> answer) mutable {
                                if (!answer)
                                    return reply(answer.error());
                                answerWriters().start([reply = std::move(reply), status,
                                                       response = std::move(answer).value()] {
                                    reply(AnswerBody{api::toJsonText(response), status});
                                });
                            });
                    }});
    m_exact.insert(
        "/v1/meterdesk/track_tokens.price",
        bodyRoute<api::TrackTokensRequest>(
            BalancesRead, [](auto &s, auto &k, auto &r, auto &) { return s.priceCall(k, r); }));
    m_exact.insert("/v1/meterdesk/usage_events.list",
                   bodyRoute<api::PageRequest>(BalancesRead, [](auto &s, auto &k, auto &r, auto &) {
                       return s.listUsageEvents(k, r);
                   }));
    // Billing controls (docs/billing-controls.md) and the alerts they fired.
    m_exact.insert(
        "/v1/meterdesk/customers.billing_controls",
        bodyRoute<api::ControlsOwner>(BalancesRead, [](auto &s, auto &k, auto &r, auto &) {
            return s.billingControls(k, r.customerId, r.entityId);
        }));
    m_exact.insert("/v1/meterdesk/customers.update_billing_controls",
                   bodyRoute<api::UpdateBillingControlsRequest>(
                       BillingWrite, [](auto &s, auto &k, auto &r, auto &) {
                           return s.updateBillingControls(k, r);
                       }));
    m_exact.insert(
        "/v1/meterdesk/audit_log.list",
        bodyRoute<api::AuditLogRequest>(
            BalancesRead, [](auto &s, auto &k, auto &r, auto &) { return s.listAuditLog(k, r); }));
    m_exact.insert(
        "/v1/meterdesk/environments.diff",
        bodyRoute<api::EnvironmentDiffRequest>(
            Promoting, [](auto &s, auto &k, auto &r, auto &) { return s.environmentDiff(k, r); }));
    m_exact.insert(
        "/v1/meterdesk/environments.promote",
        bodyRoute<api::EnvironmentPromotion>(Promoting, [](auto &s, auto &k, auto &r, auto &) {
            return s.promoteEnvironment(k, r);
        }));
    m_exact.insert(
        "/v1/meterdesk/balances.adjust",
        bodyRoute<api::BalanceAdjustment>(BalancesWrite, [](auto &s, auto &k, auto &r, auto &) {
            return s.adjustBalance(k, r);
        }));
    m_exact.insert(
        "/v1/meterdesk/balances.create",
        bodyRoute<api::BalanceCreation>(BalancesWrite, [](auto &s, auto &k, auto &r, auto &) {
            return s.createBalance(k, r);
        }));
    // The billing clock (docs/api.md, "The billing clock").
    m_exact.insert(
        "/v1/meterdesk/clock.get",
        listRoute(BalancesRead, [](ApiOperations &s, const KeyContext &k) { return s.clock(k); }));
    m_exact.insert(
        "/v1/meterdesk/clock.advance",
        bodyRoute<api::ClockAdvance>(
            SandboxWrite, [](auto &s, auto &k, auto &r, auto &) { return s.advanceClock(k, r); }));
    m_exact.insert(
        "/v1/meterdesk/ledger.list",
        bodyRoute<api::LedgerRequest>(
            BalancesRead, [](auto &s, auto &k, auto &r, auto &) { return s.listLedger(k, r); }));
    m_exact.insert("/v1/meterdesk/usage_alerts.list",
                   bodyRoute<api::PageRequest>(BalancesRead, [](auto &s, auto &k, auto &r, auto &) {
                       return s.listUsageAlerts(k, r);
                   }));
    // Async calls accepted and then not applied (docs/api.md, "Failed events").
    m_exact.insert("/v1/meterdesk/track_queue.failed",
                   bodyRoute<api::PageRequest>(BalancesRead, [](auto &s, auto &k, auto &r, auto &) {
                       return s.listFailedEvents(k, r);
                   }));
    m_exact.insert(
        "/v1/meterdesk/track_queue.retry",
        bodyRoute<api::FailedEventIds>(BalancesWrite, [](auto &s, auto &k, auto &r, auto &) {
            return s.retryFailedEvents(k, r);
        }));
    m_exact.insert(
        "/v1/meterdesk/track_queue.discard",
        bodyRoute<api::FailedEventIds>(BalancesWrite, [](auto &s, auto &k, auto &r, auto &) {
            return s.discardFailedEvents(k, r);
        }));
    // Webhooks (docs/api.md, "Webhooks").
    m_exact.insert("/v1/meterdesk/webhook_endpoints.list",
                   listRoute(WebhooksRead, [](ApiOperations &s, const KeyContext &k) {
                       return s.listWebhookEndpoints(k);
                   }));
    m_exact.insert(
        "/v1/meterdesk/webhook_endpoints.create",
        bodyRoute<api::WebhookEndpointCreate>(WebhooksWrite, [](auto &s, auto &k, auto &r, auto &) {
            return s.createWebhookEndpoint(k, r);
        }));
    m_exact.insert(
        "/v1/meterdesk/webhook_endpoints.update",
        bodyRoute<api::WebhookEndpointUpdate>(WebhooksWrite, [](auto &s, auto &k, auto &r, auto &) {
            return s.updateWebhookEndpoint(k, r);
        }));
    m_exact.insert(
        "/v1/meterdesk/webhook_endpoints.delete",
        bodyRoute<api::WebhookTarget>(WebhooksWrite, [](auto &s, auto &k, auto &r, auto &) {
            return s.deleteWebhookEndpoint(k, r);
        }));
    m_exact.insert(
        "/v1/meterdesk/webhook_endpoints.rotate_secret",
        bodyRoute<api::WebhookTarget>(WebhooksWrite, [](auto &s, auto &k, auto &r, auto &) {
            return s.rotateWebhookSecret(k, r);
        }));
    m_exact.insert(
        "/v1/meterdesk/webhook_endpoints.send_test",
        bodyRoute<api::WebhookTarget>(WebhooksWrite, [](auto &s, auto &k, auto &r, auto &) {
            return s.sendTestWebhook(k, r);
        }));
    m_exact.insert("/v1/meterdesk/webhook_deliveries.list",
                   bodyRoute<api::WebhookDeliveriesRequest>(
                       WebhooksRead, [](auto &s, auto &k, auto &r, auto &) {
                           return s.listWebhookDeliveries(k, r);
                       }));
    m_exact.insert(
        "/v1/meterdesk/webhook_deliveries.redeliver",
        bodyRoute<api::WebhookTarget>(WebhooksWrite, [](auto &s, auto &k, auto &r, auto &) {
            return s.redeliverWebhook(k, r);
        }));
    // API keys (docs/api.md, "API keys").
    m_exact.insert("/v1/meterdesk/api_keys.list",
                   listRoute(KeysRead, [](ApiOperations &s, const KeyContext &k) {
                       return s.listApiKeys(k);
                   }));
    // The organization's Stripe key for the key's environment (docs/processors.md, "Keys").
    m_exact.insert("/v1/meterdesk/processors.keys",
                   listRoute(KeysRead, [](ApiOperations &s, const KeyContext &k) {
                       return s.listProcessorKeys(k);
                   }));
    m_exact.insert(
        "/v1/meterdesk/processors.connect",
        bodyRoute<api::ProcessorKeyConnect>(KeysWrite, [](auto &s, auto &k, auto &r, auto &) {
            return s.connectProcessorKey(k, r);
        }));
    m_exact.insert("/v1/meterdesk/processors.disconnect",
                   listRoute(KeysWrite, [](ApiOperations &s, const KeyContext &k) {
                       return s.disconnectProcessorKey(k);
                   }));
    m_exact.insert("/v1/meterdesk/api_keys.create",
                   bodyRoute<api::ApiKeyCreate>(KeysWrite, [](auto &s, auto &k, auto &r, auto &) {
                       return s.createApiKey(k, r);
                   }));
    m_exact.insert("/v1/meterdesk/api_keys.revoke",
                   bodyRoute<api::ApiKeyTarget>(KeysWrite, [](auto &s, auto &k, auto &r, auto &) {
                       return s.revokeApiKey(k, r);
                   }));
    m_exact.insert("/v1/meterdesk/api_keys.roll",
                   bodyRoute<api::ApiKeyRoll>(KeysWrite, [](auto &s, auto &k, auto &r, auto &) {
                       return s.rollApiKey(k, r);
                   }));
}

std::optional<Route> ApiRoutes::find(QByteArrayView path) const
{
    if (const auto it = m_exact.constFind(path.toByteArray()); it != m_exact.cend()) {
        Route route = it.value();
        route.name = it.key();
        return route;
    }
    for (const IdRoute &route : m_withId) {
        const auto raw = segmentBetween(path, route.prefix, route.suffix);
        if (!raw)
            continue;
        // A bad id is answered when the route runs: after the key and its
        // scope, so a caller without them learns nothing of the path.
        return Route{route.access,
                     false,
                     [id = pathId(*raw, route.idName), work = route.work](
                         ApiOperations &s, const KeyContext &k, const api::JsonReader &body,
                         const RequestInfo &info) -> Answer {
                         if (!id)
                             return id.error();
                         return work(s, k, id.value(), body, info);
                     },
                     {},
                     route.prefix + '{' + route.idName.toLatin1() + '}' + route.suffix};
    }
    return std::nullopt;
}

QList<std::pair<QByteArray, Access>> ApiRoutes::listing() const
{
    QList<std::pair<QByteArray, Access>> routes;
    for (auto it = m_exact.cbegin(); it != m_exact.cend(); ++it)
        routes.append({it.key(), it.value().access});
    for (const IdRoute &route : m_withId) {
        const QByteArray path = route.prefix + '{' + route.idName.toLatin1() + '}' + route.suffix;
        routes.append({path, route.access});
    }
    std::sort(routes.begin(), routes.end(),
              [](const auto &a, const auto &b) { return a.first < b.first; });
    return routes;
}

} // namespace md::server
