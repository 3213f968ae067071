// The customer's billing portal page (docs/api.md, billing_portal), served by
// meterdesk-server and by the console's local portal server: read only, the
// customer's plans, balances and the last 30 days of usage, with a back
// button to the link's return URL. Reached only through a valid link.
#pragma once

#include "services/engine/access/PortalLinks.h"

#include <QSqlDatabase>

namespace md::engine {

class PortalPage final
{
public:
    struct Answer
    {
        int status = 200;
        QByteArray html;
    };
    // The page of a verified link (or the refusal of a bad one);
    // `shownAtMs`: the customer's environment's now, for what is shown.
    static Answer render(const QSqlDatabase &db, const api::Result<PortalLinks::Link> &link,
                         qint64 shownAtMs);
};

} // namespace md::engine
