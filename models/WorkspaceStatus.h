// Who the console is connected as and what the engine or server says about
// itself (version, price catalogue, track queue counts): the main window's
// title and status bar, the About box and the import wizard ask here.
#pragma once

#include "services/backend/BillingBackend.h"

namespace md::models {

class WorkspaceStatus final
{
public:
    explicit WorkspaceStatus(backend::BillingBackend *backend)
        : m_backend(backend)
    {}

    backend::Reply<backend::ConnectionInfo> connection() { return m_backend->connectionInfo(); }
    backend::Reply<api::AboutInfo> about() { return m_backend->about(); }

private:
    backend::BillingBackend *m_backend;
};

} // namespace md::models
