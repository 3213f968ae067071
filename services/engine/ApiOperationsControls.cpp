// ApiOperations' routes of a customer's billing controls (docs/billing-controls.md):
// the controls themselves, the usage alerts they fired, and the async calls
// that failed (retried or discarded).
#include "services/engine/ApiOperations.h"

#include "services/engine/AuditedWrite.h"
#include "services/engine/controls/BillingControlStore.h"
#include "services/engine/controls/BillingControlsUpdater.h"
#include "services/engine/sql/StoredJson.h"
#include "services/engine/track/FailedEvents.h"

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {
const QString ReadScope = u"balances:read"_s;
} // namespace

api::Result<api::BillingControlsAnswer>
ApiOperations::billingControls(const KeyContext &key, const QString &customerId,
                               const std::optional<QString> &entityId)
{
    if (const auto denied = key.missingScope(ReadScope))
        return *denied;
    return m_engine.withConnection([&](const QSqlDatabase &db) {
        return BillingControlsUpdater::read(db, key.scope, customerId, entityId,
                                            m_engine.now(key.scope));
    });
}

api::Result<api::BillingControlsAnswer>
ApiOperations::updateBillingControls(const KeyContext &key,
                                     const api::UpdateBillingControlsRequest &request)
{
    if (const auto denied = key.missingScope(u"billing:write"_s))
        return *denied;
    const QString owner =
        request.entityId ? request.customerId + u'/' + *request.entityId : request.customerId;
    return AuditedWrite::run<api::BillingControlsAnswer>(
        m_engine, key, {u"billing_controls.update"_s, u"billing_controls"_s, owner},
        [&](const QSqlDatabase &db) -> api::Result<api::JsonValue> {
            auto was = BillingControlsUpdater::read(db, key.scope, request.customerId,
                                                    request.entityId, m_engine.now(key.scope));
            if (!was)
                return was.error();
            return jsonOf(was.value());
        },
        [&](const QSqlDatabase &db) {
            return BillingControlsUpdater::update(db, m_engine.dialect(), key.scope, request,
                                                  m_engine.now(key.scope));
        },
        [](const api::BillingControlsAnswer &answer) { return jsonOf(answer); });
}

api::Result<api::Page<api::UsageAlertEvent>>
ApiOperations::listUsageAlerts(const KeyContext &key, const api::PageRequest &request)
{
    if (const auto denied = key.missingScope(ReadScope))
        return *denied;
    return m_engine.withConnection([&](const QSqlDatabase &db) {
        return BillingControlStore::alerts(db, key.scope, request);
    });
}

api::Result<api::Page<api::FailedEvent>>
ApiOperations::listFailedEvents(const KeyContext &key, const api::PageRequest &request)
{
    if (const auto denied = key.missingScope(ReadScope))
        return *denied;
    return m_engine.withConnection(
        [&](const QSqlDatabase &db) { return FailedEvents::list(db, key.scope, request); });
}

api::Result<api::FailedEventOutcome>
ApiOperations::retryFailedEvents(const KeyContext &key, const api::FailedEventIds &request)
{
    if (const auto denied = key.missingScope(u"balances:write"_s))
        return *denied;
    return m_engine.trackQueue().retry(key.scope, request.ids);
}

api::Result<api::FailedEventOutcome>
ApiOperations::discardFailedEvents(const KeyContext &key, const api::FailedEventIds &request)
{
    if (const auto denied = key.missingScope(u"balances:write"_s))
        return *denied;
    return m_engine.withConnection([&](const QSqlDatabase &db) {
        return FailedEvents::discard(db, m_engine.dialect(), key.scope, request.ids);
    });
}

} // namespace md::engine
