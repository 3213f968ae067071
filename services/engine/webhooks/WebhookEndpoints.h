// An environment's webhook endpoints (docs/api.md, "Webhooks"): made,
// listed, changed, deleted, their secret rotated. The secret is answered
// only by create and rotate_secret; after a rotation the previous one keeps
// signing beside the new one for a day, so a receiver can switch without
// refusing a delivery.
#pragma once

#include "services/api/Page.h"
#include "services/api/Result.h"
#include "services/api/Webhook.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"
#include "services/engine/webhooks/WebhookUrlRule.h"

#include <QSqlDatabase>

namespace md::engine {

class WebhookEndpoints final
{
public:
    static constexpr qint64 PreviousSecretLifetimeMs = 24 * 3600 * 1000;
    // Enough for every real use; a bound, so a key cannot fan every event out a thousandfold.
    static constexpr qint64 MaxPerEnvironment = 20;

    WebhookEndpoints(QSqlDatabase db, Dialect dialect, const Scope &scope, qint64 nowMs);

    api::Result<api::Page<api::WebhookEndpoint>> list();
    // 404 for an id that is not one of this environment's endpoints.
    api::Result<api::WebhookEndpoint> get(const QString &id);
    api::Result<qint64> keyOf(const QString &id);
    api::Result<api::WebhookEndpoint> create(const api::WebhookEndpointCreate &request,
                                             const WebhookPolicy &policy);
    // Writes nothing when nothing would change.
    api::Result<api::WebhookEndpoint> update(const api::WebhookEndpointUpdate &request,
                                             const WebhookPolicy &policy);
    // The endpoint and its deliveries.
    api::Result<api::WebhookEndpointDeleted> remove(const QString &id);
    api::Result<api::WebhookEndpoint> rotateSecret(const QString &id);

private:
    api::Result<api::WebhookEndpoint> read(qint64 pk);

    QSqlDatabase m_db;
    Dialect m_dialect;
    Scope m_scope;
    qint64 m_now = 0;
};

} // namespace md::engine
