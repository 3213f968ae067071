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

    // The connection in a few words for the status bar ("Workspace demo.db
    // on this computer", "PostgreSQL database billing on db1", "Server
    // api.example.com"); the full location goes in a tooltip.
    static QString inWords(const backend::ConnectionInfo &connection);
    // The connection as the import wizards' journals name it, so a journal
    // is only resumed against the connection it was written for.
    static QString journalTarget(const api::Result<backend::ConnectionInfo> &connection);

private:
    backend::BillingBackend *m_backend;
};

} // namespace md::models
