// Billing portal links (docs/api.md, billing_portal): a customer's read-only portal
// page is reached only through a link that names the customer, expires and
// is signed (HMAC-SHA256) with the workspace's portal secret, which the first
// server to need it stores in the database for every server to share.
#pragma once

#include "services/api/Result.h"
#include "services/engine/sql/Dialect.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

class PortalLinks final
{
public:
    static constexpr qint64 LifetimeMs = 15 * 60 * 1000;

    struct Link
    {
        Scope scope;
        QString customerId;
        qint64 expiresAt = 0;
        QString returnUrl; // empty: no back button
    };

    // The token for the link's URL path.
    static api::Result<QString> sign(const QSqlDatabase &db, Dialect dialect, const Link &link);
    // 403 when the token was not made here or was altered, 410 once it has expired.
    static api::Result<Link> verify(const QSqlDatabase &db, Dialect dialect, const QString &token,
                                    qint64 nowMs);
};

} // namespace md::engine
