// An environment's webhook deliveries as people see them (docs/api.md,
// "webhook_deliveries.list"): each event sent to each endpoint, with its
// attempts, the receiver's last answer and the next attempt; a delivery
// sent again on request.
#pragma once

#include "services/api/Page.h"
#include "services/api/Result.h"
#include "services/api/Webhook.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

class WebhookDeliveries final
{
public:
    WebhookDeliveries(QSqlDatabase db, const Scope &scope, qint64 nowMs);

    // Newest first.
    api::Result<api::Page<api::WebhookDelivery>> list(const api::WebhookDeliveriesRequest &request);
    api::Result<api::WebhookDelivery> read(qint64 pk);
    // Pending again, due now, its attempts counted afresh; a delivery still
    // pending only moves its next attempt to now. 404 for an id not of this
    // environment.
    api::Result<api::WebhookDelivery> redeliver(const QString &id);

private:
    QSqlDatabase m_db;
    Scope m_scope;
    qint64 m_now = 0;
};

} // namespace md::engine
